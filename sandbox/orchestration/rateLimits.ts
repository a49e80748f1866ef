// The service's rate limiters (public-notes, "Errors, idempotency, rate limits"), per limiter kind.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller, OrchestrationContext } from './context';
import { ApiError } from './errors';

/**
 * The per-key / per-key+IP rows of the notes' table (per minute): quote 600/60 (offramp is a quote
 * and shares its counters), served estimate and status 6000/1200, submit and onramp 120/10,
 * accumulation create/reindex and liquidation create 60/5 (`addresses`).
 */
export type KeyLimitRow = 'quote' | 'submit' | 'onramp' | 'status' | 'estimate' | 'addresses';

/**
 * The per-IP rows of the table: v2 routes and limits 60, unauthenticated estimate and authenticated
 * order lookup 120, affiliate claims 30 (event-stream connection attempts, also 30, have their own
 * switch, `sseConnections`, on by default: `stream`).
 */
export type IpLimitRow = 'routes' | 'limits' | 'estimate' | 'orderLookup' | 'claims' | 'stream';

interface Counter {
	windowStart: number;
	count: number;
}

/** Fixed windows that start with the first request after the last one ended; every attempt counts, denied ones too. */
function take(ctx: OrchestrationContext, id: string, now: number, windowMs: number): Counter {
	let counter = ctx.state.rateCounters.get(id);
	if (!counter || now >= counter.windowStart + windowMs) {
		counter = { windowStart: now, count: 0 };
		ctx.state.rateCounters.set(id, counter);
	}
	counter.count++;
	return counter;
}

/** The three `X-RateLimit-*` headers of one limiter; Reset is Unix milliseconds (public-notes). */
function limitHeaders(limit: number, counter: Counter, windowMs: number): Record<string, string> {
	return {
		'x-ratelimit-limit': String(limit),
		'x-ratelimit-remaining': String(Math.max(0, limit - counter.count)),
		'x-ratelimit-reset': String(Math.ceil(counter.windowStart + windowMs)),
	};
}

/**
 * Key limiters (public-notes: "key limiters send headers only on a denial, with `Retry-After` in
 * seconds"): a per-key and a per-key+IP counter for `row`, for client keys (and server keys when
 * the `serverKeys` override is on). An admitted request gets no limit header at all; a denial is 429
 * `rate_limited` with the denying limiter's `X-RateLimit-Limit`, `-Remaining`, `-Reset` and
 * `Retry-After` (real seconds, at least 1). `counter` names the counters when an endpoint has its own
 * (the three address endpoints of `addresses`); by default the row's.
 */
export function checkKeyLimits(ctx: OrchestrationContext, caller: Caller | undefined, row: KeyLimitRow, request: FastifyRequest, counter: string = row): void {
	const limits = ctx.switches.rateLimits;
	if (!limits.enabled || caller === undefined || (caller.type !== 'client' && !limits.serverKeys)) return;
	const windowMs = ctx.clock.duration(limits.windowMs);
	const now = ctx.clock.now();
	const { perKey, perKeyIp } = limits[row];
	const byKey = take(ctx, `key|${counter}|${caller.keyId}`, now, windowMs);
	const byKeyIp = take(ctx, `keyip|${counter}|${caller.keyId}|${request.ip}`, now, windowMs);
	const denied = byKeyIp.count > perKeyIp ? { limit: perKeyIp, at: byKeyIp, which: 'key+IP' } : byKey.count > perKey ? { limit: perKey, at: byKey, which: 'key' } : undefined;
	if (!denied) return;
	const retryAfter = Math.max(1, Math.ceil((denied.at.windowStart + windowMs - now) / 1000));
	throw new ApiError(429, 'rate_limited', `rate limit exceeded for this key (${denied.which} limit ${denied.limit}); retry after ${retryAfter} s`, {
		...limitHeaders(denied.limit, denied.at, windowMs),
		'retry-after': String(retryAfter),
	});
}

/**
 * IP limiters (public-notes: "IP limiters send the three `X-RateLimit-*` headers and never
 * `Retry-After`"): one counter per client IP and row, for every caller, keyed or not; every attempt
 * counts, refused ones too (call it before authentication). The headers go on every answer of the
 * endpoint, denials included; past the limit 429 `rate_limited`. Returns the headers (the event
 * stream writes its own head); a denial throws.
 */
export function checkIpLimit(ctx: OrchestrationContext, request: FastifyRequest, reply: FastifyReply, row: IpLimitRow): Record<string, string> {
	const settings = ipLimitOf(ctx, row);
	if (!settings) return {};
	const windowMs = ctx.clock.duration(settings.windowMs);
	const counter = take(ctx, `ip|${row}|${request.ip}`, ctx.clock.now(), windowMs);
	const headers = limitHeaders(settings.limit, counter, windowMs);
	for (const [name, value] of Object.entries(headers)) reply.header(name, value);
	if (counter.count > settings.limit) {
		throw new ApiError(429, 'rate_limited', `too many requests from this IP: at most ${settings.limit} per window`, headers);
	}
	return headers;
}

function ipLimitOf(ctx: OrchestrationContext, row: IpLimitRow): { limit: number; windowMs: number } | undefined {
	if (row === 'stream') {
		const { enabled, perIp, windowMs } = ctx.switches.sseConnections;
		return enabled ? { limit: perIp, windowMs } : undefined;
	}
	const { enabled, perIp, windowMs } = ctx.switches.rateLimits;
	return enabled ? { limit: perIp[row], windowMs } : undefined;
}
