/**
 * Shapes of the gateway's wire that the node never parses (execution-gateway.md §4, §7): the auth
 * requests, the challenge answer, health and the error body. The sandbox and its tests hold them;
 * the shipped code parses one response schema per call (nodes/shared/gateway/responses.ts).
 */
import { z } from 'zod';

const compressedPublicKey = z
	.string()
	.regex(/^0[23][0-9a-fA-F]{64}$/, 'must be a 33-byte compressed secp256k1 public key (66 hex characters, no 0x)');
const hexString = z.string().regex(/^(0x)?(?:[0-9a-fA-F]{2})+$/, 'must be hex');

/** §4 challenge request. */
export const ChallengeRequestSchema = z.object({ publicKey: compressedPublicKey }).strict();
export type ChallengeRequest = z.infer<typeof ChallengeRequestSchema>;

/** §4 challenge response. */
export const ChallengeResponseSchema = z.object({ challenge: z.string(), challengeString: z.string() }).passthrough();
export type ChallengeResponse = z.infer<typeof ChallengeResponseSchema>;

/** §4 verify request: DER hex of the signature over SHA-256 of `challengeString`. */
export const VerifyRequestSchema = z.object({ publicKey: compressedPublicKey, signature: hexString }).strict();
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>;

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
