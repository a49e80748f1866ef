import { randomBytes } from 'node:crypto';
import { READ_TOKEN_TTL_MS } from './spec';
import type { Caller, OrchestrationContext } from './context';
import { forbidden } from './errors';
import type { ReadTokenRecord } from './state';

/** Read tokens (spec §5): opaque, bound to partner, issuing key and one identifier, 24 h. */
export function issueReadToken(ctx: OrchestrationContext, caller: Caller, kind: 'quote' | 'order', identifier: string): string {
	const token = `rt_${randomBytes(24).toString('base64url')}`;
	ctx.state.readTokens.set(token, {
		partnerId: caller.partner.partnerId,
		keyId: caller.keyId,
		kind,
		identifier,
		expiresAtMs: ctx.clock.after(READ_TOKEN_TTL_MS),
	});
	return token;
}

/** What a token may cover: the identifiers it may match, per kind. */
export interface ReadTarget {
	quoteId?: string | null;
	orderId?: string | null;
	/** The event stream takes order-bound tokens only (spec §5). */
	orderTokensOnly?: boolean;
}

/** Server keys need no token; client keys need a live token bound to this key and target (spec §5). */
export function requireReadToken(ctx: OrchestrationContext, caller: Caller, token: string | undefined, target: ReadTarget): void {
	if (caller.type === 'server') return;
	if (!token) throw forbidden('read_token_required', 'client-key reads need a read token (X-Read-Token header or readToken query)');
	const record = ctx.state.readTokens.get(token);
	const problem = record ? mismatch(ctx, record, caller, target) : 'is unknown';
	if (problem) throw forbidden('invalid_read_token', `the read token ${problem}`);
}

function mismatch(ctx: OrchestrationContext, rec: ReadTokenRecord, caller: Caller, target: ReadTarget): string | undefined {
	if (ctx.clock.now() >= rec.expiresAtMs) return 'has expired';
	if (rec.partnerId !== caller.partner.partnerId) return 'belongs to another partner';
	if (rec.keyId !== caller.keyId) return 'was issued to another key';
	if (rec.kind === 'order' && target.orderId && rec.identifier === target.orderId) return undefined;
	if (rec.kind === 'quote' && target.orderTokensOnly) return 'is quote-bound; the stream needs an order-bound token';
	if (rec.kind === 'quote' && target.quoteId && rec.identifier === target.quoteId) return undefined;
	return `is bound to another ${rec.kind === 'quote' ? 'quote' : 'order'}`;
}
