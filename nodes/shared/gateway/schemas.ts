/**
 * zod wire schemas of the execution gateway (execution-gateway.md §2, §4). Requests are strict;
 * responses are lenient (`passthrough`) so new server fields never break a client (§9).
 */
import { z } from 'zod';

/** §3: status values, SCREAMING_SNAKE_CASE. */
export const INTENT_STATUSES = ['ACCEPTED', 'INCLUDED_PENDING_FINALITY', 'FINALIZED', 'EXPIRED'] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];
/** §3: terminal states; polling stops here. */
export const FINAL_INTENT_STATUSES = ['FINALIZED', 'EXPIRED'] as const satisfies readonly IntentStatus[];

export function isIntentStatus(value: unknown): value is IntentStatus {
	return typeof value === 'string' && (INTENT_STATUSES as readonly string[]).includes(value);
}

/**
 * A status in the spec's spelling (§3, upper case): the live service answers `accepted`,
 * `finalized` (issue 10), so statuses compare case-insensitively. Unknown values pass unchanged.
 */
export function normalizeIntentStatus(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const upper = value.trim().toUpperCase();
	return isIntentStatus(upper) ? upper : value;
}

/** §3 terminal states, in any letter case. */
export function isFinalIntentStatus(value: unknown): boolean {
	const status = normalizeIntentStatus(value);
	return typeof status === 'string' && (FINAL_INTENT_STATUSES as readonly string[]).includes(status);
}

const compressedPublicKey = z
	.string()
	.regex(/^0[23][0-9a-fA-F]{64}$/, 'must be a 33-byte compressed secp256k1 public key (66 hex characters, no 0x)');
const hexString = z.string().regex(/^(0x)?(?:[0-9a-fA-F]{2})+$/, 'must be hex');

/** §2.3a network info. */
export const NetworkInfoSchema = z
	.object({
		spark: z.object({ depositAddress: z.string(), network: z.string() }).passthrough(),
		execution: z.object({ contractAddress: z.string(), chainId: z.number().int() }).passthrough(),
		paused: z.boolean(),
		minDepositSats: z.number().int().nonnegative(),
	})
	.passthrough();
export type NetworkInfo = z.infer<typeof NetworkInfoSchema>;

/** §4 challenge request. */
export const ChallengeRequestSchema = z.object({ publicKey: compressedPublicKey }).strict();
export type ChallengeRequest = z.infer<typeof ChallengeRequestSchema>;

/** §4 challenge response. */
export const ChallengeResponseSchema = z.object({ challenge: z.string(), challengeString: z.string() }).passthrough();
export type ChallengeResponse = z.infer<typeof ChallengeResponseSchema>;

/** The text to sign, as the public client picks it: `challengeString`, else `challenge` (§5). */
export function challengeTextOf(body: unknown): string | undefined {
	const b = (body ?? {}) as { challenge?: unknown; challengeString?: unknown };
	if (typeof b.challengeString === 'string' && b.challengeString !== '') return b.challengeString;
	return typeof b.challenge === 'string' && b.challenge !== '' ? b.challenge : undefined;
}

/** §4 verify request: DER hex of the signature over SHA-256 of `challengeString`. */
export const VerifyRequestSchema = z.object({ publicKey: compressedPublicKey, signature: hexString }).strict();
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>;

/** §4 verify response. */
export const VerifyResponseSchema = z.object({ accessToken: z.string().min(1) }).passthrough();
export type VerifyResponse = z.infer<typeof VerifyResponseSchema>;

/** §2.2 submission response. */
export const ExecuteResponseSchema = z
	.object({ submissionId: z.string(), intentId: z.string(), status: z.string() })
	.passthrough();
export type ExecuteResponse = z.infer<typeof ExecuteResponseSchema>;

/** §2.3 intent status; nullable fields default to null when a server omits them. */
export const IntentStatusSchema = z
	.object({
		submissionId: z.string(),
		intentId: z.string(),
		status: z.string(),
		statusMessage: z.string().nullable().default(null),
		executionTxHash: z.string().nullable().default(null),
		createdAt: z.string(),
		updatedAt: z.string(),
	})
	.passthrough();
export type IntentStatusResponse = z.infer<typeof IntentStatusSchema>;

/** §4 health: the body is not shown in the spec; the sandbox answers `{status: "ok"}`. */
export const HealthResponseSchema = z.object({ status: z.string() }).passthrough();

/**
 * Error body. The gateway's shape is "not shown" (§7); this uses the orchestration service's
 * `{error: {code, message}}` (orchestration-service.md §7), which the sandbox also emits.
 */
export const GatewayErrorBodySchema = z
	.object({ error: z.object({ code: z.string(), message: z.string() }).passthrough() })
	.passthrough();
export type GatewayErrorBody = z.infer<typeof GatewayErrorBodySchema>;
