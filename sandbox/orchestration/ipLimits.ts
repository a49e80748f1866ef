// Limits the service keeps per client IP (public-notes, "Errors, idempotency, rate limits").
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OrchestrationContext } from './context';
import { ApiError } from './errors';

/**
 * Event-stream connection attempts per IP (public-notes: 30 a minute): every attempt counts, refused
 * ones too. An IP limiter reports itself in `X-RateLimit-Limit`, `-Remaining` and `-Reset` (Unix
 * milliseconds) on every answer and never sends `Retry-After`; past the limit it answers 429
 * `rate_limited`. The window is scaled by the time factor like every duration. Returns the headers
 * (the stream writes its own head); a denial throws.
 */
export function checkStreamConnectionLimit(ctx: OrchestrationContext, request: FastifyRequest, reply: FastifyReply): Record<string, string> {
	const limits = ctx.switches.sseConnections;
	if (!limits.enabled) return {};
	const windowMs = ctx.clock.duration(limits.windowMs);
	const now = ctx.clock.now();
	const id = `sse|${request.ip}`;
	let counter = ctx.state.rateCounters.get(id);
	if (!counter || now >= counter.windowStart + windowMs) {
		counter = { windowStart: now, count: 0 };
		ctx.state.rateCounters.set(id, counter);
	}
	counter.count++;
	const headers = {
		'x-ratelimit-limit': String(limits.perIp),
		'x-ratelimit-remaining': String(Math.max(0, limits.perIp - counter.count)),
		'x-ratelimit-reset': String(Math.ceil(counter.windowStart + windowMs)),
	};
	for (const [name, value] of Object.entries(headers)) reply.header(name, value);
	if (counter.count > limits.perIp) {
		throw new ApiError(429, 'rate_limited', `too many event-stream connection attempts from this IP: at most ${limits.perIp} per window`, headers);
	}
	return headers;
}
