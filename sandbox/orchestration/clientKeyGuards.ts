// What the service puts in front of client keys (spec §5, public-notes): rate limits and browser verification.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller, OrchestrationContext } from './context';
import { ApiError, forbidden } from './errors';

/**
 * Client-key rate limits per window (public-notes): quote 600 per key and 60 per key+IP,
 * submit/onramp 120 and 10 (each endpoint its own limiter); server keys too when a partner override
 * says so (`serverKeys`). The window is scaled by the time factor (and `windowMs` shortens it for
 * tests); `Retry-After` is real seconds.
 */
export function checkRateLimit(
	ctx: OrchestrationContext,
	caller: Caller | undefined,
	bucket: 'quote' | 'submit' | 'onramp',
	request: FastifyRequest,
	reply: FastifyReply,
): void {
	const limits = ctx.switches.rateLimits;
	if (!limits.enabled || caller === undefined || (caller.type !== 'client' && !limits.serverKeys)) return;
	const windowMs = ctx.clock.duration(limits.windowMs);
	const now = ctx.clock.now();
	const perKey = take(ctx, `${bucket}|${caller.keyId}`, now, windowMs);
	const perIp = take(ctx, `${bucket}|${caller.keyId}|${request.ip}`, now, windowMs);
	const { perKey: keyLimit, perKeyIp: ipLimit } = limits[bucket];
	// The key+IP limiter reports itself in X-RateLimit-* headers; Reset is Unix milliseconds.
	reply.header('x-ratelimit-limit', String(ipLimit));
	reply.header('x-ratelimit-remaining', String(Math.max(0, ipLimit - perIp.count)));
	reply.header('x-ratelimit-reset', String(Math.ceil(perIp.windowStart + windowMs)));
	const denied = perIp.count > ipLimit ? perIp : perKey.count > keyLimit ? perKey : undefined;
	if (denied) {
		const retryAfter = Math.max(1, Math.ceil((denied.windowStart + windowMs - now) / 1000));
		throw new ApiError(429, 'rate_limited', `rate limit exceeded for this client key; retry after ${retryAfter} s`, {
			'retry-after': String(retryAfter),
		});
	}
}

function take(ctx: OrchestrationContext, id: string, now: number, windowMs: number): { windowStart: number; count: number } {
	let counter = ctx.state.rateCounters.get(id);
	if (!counter || now >= counter.windowStart + windowMs) {
		counter = { windowStart: now, count: 0 };
		ctx.state.rateCounters.set(id, counter);
	}
	counter.count++;
	return counter;
}

/** Browser verification for submit and onramp when switched on (spec §5), for client keys. */
export function checkTurnstile(ctx: OrchestrationContext, caller: Caller | undefined, request: FastifyRequest): void {
	const { enabled, validToken } = ctx.switches.turnstile;
	if (!enabled || caller?.type !== 'client') return;
	const token = request.headers['cf-turnstile-response'];
	if (token === undefined || token === '') throw forbidden('turnstile_required', 'the cf-turnstile-response header is required');
	if (token !== validToken) throw forbidden('turnstile_failed', 'the browser verification token was rejected');
}
