import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canonicalJson } from './canonicalJson';
import type { OrchestrationContext } from './context';
import { ApiError, badRequest, errorBody } from './errors';

export interface HandlerResult {
	status: number;
	body: unknown;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** public-notes `invalid_idempotency_key`: 1 to 255 printable ASCII characters. The key is never echoed. */
function idempotencyKeyProblem(key: string): string | undefined {
	if (key.length === 0) return 'must not be empty (1 to 255 printable ASCII characters)';
	if (key.length > 255) return `is ${key.length} characters long; at most 255 are allowed`;
	const bad = /[^\x20-\x7e]/.exec(key);
	return bad ? `has a character outside printable ASCII (0x20-0x7E) at position ${bad.index + 1}` : undefined;
}

/** The X-Idempotency-Key of a request; 400 when missing or malformed (spec §4, public-notes). */
export function idempotencyKeyOf(request: FastifyRequest): string {
	const raw = request.headers['x-idempotency-key'];
	if (raw === undefined) throw badRequest('the X-Idempotency-Key header is required', 'missing_idempotency_key');
	const key = Array.isArray(raw) ? raw.join(',') : raw;
	const problem = idempotencyKeyProblem(key);
	if (problem) throw badRequest(`X-Idempotency-Key ${problem}`, 'invalid_idempotency_key');
	return key;
}

/**
 * Runs `run` once per (partner, endpoint, key) (public-notes): the same key and body replay the
 * stored answer with `X-Idempotency-Replayed: true`, another body is 409 `idempotency_conflict`,
 * a request while the first is still running is 409 `idempotency_in_progress`. 4xx answers are
 * stored too; 5xx answers are not, so a retry can succeed.
 */
export async function idempotent(
	ctx: OrchestrationContext,
	request: FastifyRequest,
	reply: FastifyReply,
	endpoint: string,
	partnerId: string | null,
	run: (idempotencyKey: string) => Promise<HandlerResult> | HandlerResult,
): Promise<FastifyReply> {
	const key = idempotencyKeyOf(request);
	const scope = JSON.stringify([partnerId ?? 'anonymous', endpoint, key]);
	const fingerprint = createHash('sha256').update(canonicalJson({ params: request.params ?? {}, body: request.body ?? null })).digest('hex');
	const existing = ctx.state.idempotency.get(scope);
	if (existing) {
		if (existing.fingerprint !== fingerprint) {
			throw new ApiError(409, 'idempotency_conflict', 'this X-Idempotency-Key was already used with a different request body');
		}
		if (existing.state === 'in_flight') {
			throw new ApiError(409, 'idempotency_in_progress', 'a request with this X-Idempotency-Key is still being processed', { 'retry-after': '1' });
		}
		request.sandboxReplayed = true;
		return reply.header('x-idempotency-replayed', 'true').code(existing.status ?? 200).send(existing.body);
	}
	const entry = { fingerprint, state: 'in_flight' as 'in_flight' | 'done', status: 0, body: undefined as unknown };
	ctx.state.idempotency.set(scope, entry);
	let result: HandlerResult;
	try {
		if (ctx.switches.processingDelayMs > 0) await sleep(ctx.switches.processingDelayMs);
		result = await run(key);
	} catch (err) {
		if (err instanceof ApiError && err.status < 500) {
			result = { status: err.status, body: errorBody(err.code, err.message) };
			for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
		} else {
			ctx.state.idempotency.delete(scope);
			throw err;
		}
	}
	Object.assign(entry, { state: 'done', status: result.status, body: result.body });
	return reply.code(result.status).send(result.body);
}
