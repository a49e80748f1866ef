import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ClientKeyScope } from './spec';
import type { SandboxConfig } from '../config';
import type { Caller, OrchestrationContext } from './context';
import { ApiError, forbidden } from './errors';

/** Non-secret handle of a key, used in read-token bindings and in the sandbox's records. */
export function keyIdOf(key: string): string {
	return `key_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

export function buildKeyRegistry(config: SandboxConfig): Map<string, Caller> {
	const partners = new Map(config.partners.map((p) => [p.partnerId, p]));
	const out = new Map<string, Caller>();
	for (const key of config.keys) {
		const partner = partners.get(key.partnerId);
		if (partner) out.set(key.key, { type: key.type, key, keyId: keyIdOf(key.key), partner });
	}
	return out;
}

export interface AuthRule {
	/** No key is fine (public endpoints, and quotes, which then cannot be submitted). */
	optional?: boolean;
	/** The scope a client key needs (spec §5); without it only server keys pass. */
	clientScope?: ClientKeyScope;
	/** The stream takes the key as the `token` query parameter (spec §5). */
	keyInQuery?: boolean;
}

function presentedKey(request: FastifyRequest, rule: AuthRule): string | undefined {
	if (rule.keyInQuery) {
		const token = (request.query as Record<string, unknown>).token;
		return typeof token === 'string' && token !== '' ? token : undefined;
	}
	const header = request.headers.authorization;
	const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
	return match ? match[1] : undefined;
}

/** Resolves and checks the caller per spec §5 and §7. Messages never contain the key. */
export function authenticate(ctx: OrchestrationContext, request: FastifyRequest, rule: AuthRule): Caller | undefined {
	const key = presentedKey(request, rule);
	if (key === undefined) {
		if (rule.optional) return undefined;
		const where = rule.keyInQuery ? 'the token query parameter' : 'Authorization: Bearer <API_KEY>';
		throw new ApiError(401, 'auth_required', `an API key is required in ${where}`);
	}
	const caller = ctx.keys.get(key);
	if (!caller) throw new ApiError(401, 'unauthorized', 'unknown API key');
	if (caller.key.disabled) throw new ApiError(401, 'unauthorized', 'this API key is disabled');
	if (ctx.switches.approvalEnforced && caller.partner.accountStatus !== 'approved') {
		// spec §5: pending or rejected accounts get 403 when approval is enforced
		const pending = caller.partner.accountStatus === 'pending';
		throw forbidden(pending ? 'account_pending_approval' : 'account_rejected', `the partner account is ${caller.partner.accountStatus}`);
	}
	if (caller.type === 'client') checkClient(request, caller, rule);
	request.sandboxCaller = caller;
	return caller;
}

function checkClient(request: FastifyRequest, caller: Caller, rule: AuthRule): void {
	// spec §5: history, webhooks, affiliate management and standing addresses are server-key only
	if (!rule.clientScope && !rule.optional) throw forbidden('forbidden', 'this endpoint is not available to client keys');
	checkOrigin(request, caller);
	if (rule.clientScope && !caller.key.scopes.includes(rule.clientScope)) {
		throw forbidden('scope_required', `this client key lacks the scope ${rule.clientScope}`);
	}
}

/** Origin modes of spec §5; an empty allowed list accepts any origin. */
function checkOrigin(request: FastifyRequest, caller: Caller): void {
	const { originMode, allowedOrigins } = caller.key;
	if (originMode === 'server') return;
	const origin = request.headers.origin;
	if (!origin) {
		if (originMode === 'browser') throw forbidden('origin_required', 'this browser client key needs an Origin header');
		return;
	}
	if (allowedOrigins.length > 0 && !allowedOrigins.includes(origin)) {
		throw forbidden('origin_not_allowed', 'the Origin is not among the key\'s allowed origins');
	}
}

declare module 'fastify' {
	interface FastifyRequest {
		sandboxCaller?: Caller;
		sandboxReplayed?: boolean;
	}
}
