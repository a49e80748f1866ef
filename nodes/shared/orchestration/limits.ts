// Times and shares of the orchestration service (spec 8 and the sections cited per line); the bounds of
// requests live with their schemas, of inputs with the inputs, of keys with the keys.

/** A quote is firm for 2 minutes, up to `expiresAt` (spec 1, 3). */
export const QUOTE_TTL_MS = 2 * 60 * 1000;
/** Read tokens last 24 hours (spec 5). */
export const READ_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** Platform share of a gross affiliate or app fee; the recipient gets the rest (spec 2.10, 8). */
export const PLATFORM_CUT_PERCENT = 20;
/** Webhook retry delays, in order (spec 6). */
export const WEBHOOK_RETRY_DELAYS_MS = [
	10_000,
	30_000,
	2 * 60_000,
	10 * 60_000,
	30 * 60_000,
	2 * 3_600_000,
	6 * 3_600_000,
	24 * 3_600_000,
] as const;
/** Default accepted clock skew between the webhook timestamp header and the receiver's clock. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/**
 * Largest tolerance the trigger accepts: a wider window only lets older captured requests verify
 * (the duplicate check at run time still drops them, but each costs an execution).
 */
export const MAX_WEBHOOK_TOLERANCE_SECONDS = 900;
/** The service caps request bodies at 1 MiB (413 payload_too_large); the trigger hashes no more. */
export const MAX_WEBHOOK_BODY_BYTES = 1_048_576;
/** How long the service retries one delivery: the sum of its retry delays (about 33 hours). */
export const WEBHOOK_RETRY_SCHEDULE_MS = WEBHOOK_RETRY_DELAYS_MS.reduce(
	(sum: number, delay) => sum + delay,
	0,
);
