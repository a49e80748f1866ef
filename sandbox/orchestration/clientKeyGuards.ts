// What the service puts in front of client keys (spec §5): browser verification. (Rate limits: rateLimits.ts.)
import type { FastifyRequest } from 'fastify';
import type { Caller, OrchestrationContext } from './context';
import { forbidden } from './errors';

/** Browser verification for submit and onramp when switched on (spec §5), for client keys. */
export function checkTurnstile(ctx: OrchestrationContext, caller: Caller | undefined, request: FastifyRequest): void {
	const { enabled, validToken } = ctx.switches.turnstile;
	if (!enabled || caller?.type !== 'client') return;
	const token = request.headers['cf-turnstile-response'];
	if (token === undefined || token === '') throw forbidden('turnstile_required', 'the cf-turnstile-response header is required');
	if (token !== validToken) throw forbidden('turnstile_failed', 'the browser verification token was rejected');
}
