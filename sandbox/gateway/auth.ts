import { randomBytes } from 'node:crypto';

import { compressedPublicKeyOf, Problem, sha256, verifiesDer } from './intent';
import type { SandboxClock } from '../clock';
import { rejectAdmission, unauthorized } from './errors';
import type { GatewayState } from './state';

/** Spec-time lifetime of an unanswered challenge (not stated by the spec; scaled by the clock). */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Outstanding challenges kept per key; older ones are dropped. */
export const MAX_OUTSTANDING_CHALLENGES = 8;

function publicKeyOf(value: unknown): string {
	try {
		return compressedPublicKeyOf(value);
	} catch (e) {
		if (e instanceof Problem) throw rejectAdmission('invalid_public_key', e.message);
		throw e;
	}
}

function liveChallenges(state: GatewayState, clock: SandboxClock, publicKey: string) {
	const now = clock.now();
	const live = (state.challenges.get(publicKey) ?? []).filter((c) => c.expiresAt > now);
	state.challenges.set(publicKey, live);
	return live;
}

/** §4/§5 step 1: a fresh random challenge for a compressed public key. */
export function issueChallenge(state: GatewayState, clock: SandboxClock, body: unknown) {
	const publicKey = publicKeyOf((body as { publicKey?: unknown } | null)?.publicKey);
	const challenge = randomBytes(32).toString('hex');
	const issuedAt = new Date(clock.now()).toISOString();
	const challengeString = `Execution gateway sandbox authentication\npublicKey: ${publicKey}\nchallenge: ${challenge}\nissuedAt: ${issuedAt}`;
	const live = liveChallenges(state, clock, publicKey);
	live.push({ challenge, challengeString, expiresAt: clock.after(CHALLENGE_TTL_MS) });
	state.challenges.set(publicKey, live.slice(-MAX_OUTSTANDING_CHALLENGES));
	return { challenge, challengeString };
}

/**
 * §5 step 2: the DER signature over SHA-256 of one outstanding `challengeString` of this key.
 * The matching challenge is consumed (single use) and an opaque bearer token issued.
 */
export function verifyChallenge(state: GatewayState, clock: SandboxClock, body: unknown) {
	const b = (body ?? {}) as { publicKey?: unknown; signature?: unknown };
	const publicKey = publicKeyOf(b.publicKey);
	if (typeof b.signature !== 'string' || b.signature.length === 0) {
		throw rejectAdmission('invalid_request', 'signature must be the DER-encoded ECDSA signature as hex');
	}
	const live = liveChallenges(state, clock, publicKey);
	if (live.length === 0) {
		throw unauthorized('challenge_not_found', 'no outstanding challenge for this public key; request a new one');
	}
	const signature = b.signature;
	const match = live.find((c) => verifiesDer(signature, sha256(c.challengeString), publicKey));
	if (!match) {
		throw unauthorized('invalid_signature', 'signature does not verify over SHA-256 of an outstanding challengeString for this key');
	}
	state.challenges.set(publicKey, live.filter((c) => c !== match));
	const accessToken = `gwt_${randomBytes(32).toString('base64url')}`;
	const expiresAt = clock.after(state.config.tokenTtlMs);
	state.tokens.set(accessToken, { publicKey, expiresAt });
	return { accessToken, expiresAt: new Date(expiresAt).toISOString() };
}

/** §5 step 3 / §7: the signer behind `Authorization: Bearer <token>`, or a 401. */
export function authenticate(state: GatewayState, clock: SandboxClock, authorization: string | undefined): string {
	const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
	if (!match) throw unauthorized('unauthorized', 'missing bearer token: send Authorization: Bearer <accessToken>');
	const token = state.tokens.get(match[1]);
	if (!token) throw unauthorized('unauthorized', 'invalid access token');
	if (token.expiresAt <= clock.now()) {
		state.tokens.delete(match[1]);
		throw unauthorized('token_expired', 'access token expired; authenticate again');
	}
	return token.publicKey;
}

/** Control: every token expires now (clients must re-authenticate, §5). */
export function expireAllTokens(state: GatewayState, clock: SandboxClock): number {
	const now = clock.now();
	for (const token of state.tokens.values()) token.expiresAt = Math.min(token.expiresAt, now);
	return state.tokens.size;
}
