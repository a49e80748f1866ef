// Numeric limits of the orchestration service (spec 8 and the sections cited per line).

/** A quote is firm for 2 minutes, up to `expiresAt` (spec 1, 3). */
export const QUOTE_TTL_MS = 2 * 60 * 1000;
/** Read tokens last 24 hours (spec 5). */
export const READ_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** `appFees` holds 1 to 16 entries (spec 4.1, 8). */
export const APP_FEES_MIN = 1;
export const APP_FEES_MAX = 16;
/** The affiliate list of a quote holds 1 to 16 entries (spec 4.1, 8). */
export const AFFILIATE_IDS_MIN = 1;
export const AFFILIATE_IDS_MAX = 16;
/** Reviewed token identities frozen by a quote: 1 to 32 (spec 2.2, 8). */
export const REVIEWED_IDENTITIES_MIN = 1;
export const REVIEWED_IDENTITIES_MAX = 32;
/** Slippage tolerance in basis points (spec 4.1, 8). */
export const SLIPPAGE_BPS_MIN = 0;
export const SLIPPAGE_BPS_MAX = 1000;
/** A fee in basis points cannot exceed 100%. */
export const FEE_BPS_MAX = 10_000;
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
/** `X-Idempotency-Key`: 1 to 255 printable ASCII characters (spec 4; public-notes). */
export const IDEMPOTENCY_KEY_MIN_LENGTH = 1;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Largest `decimals` the amount helpers accept. */
export const MAX_DECIMALS = 30;
/** Longest amount text accepted, checked before any pattern runs (uint256 has 78 digits). */
export const MAX_AMOUNT_LENGTH = 100;
/** Longest integer text accepted for bps, indexes and counts (safe integers have 16 digits). */
export const MAX_INTEGER_LENGTH = 16;
/** Significant digits a double keeps exactly for any decimal text (DBL_DIG). */
export const EXACT_DOUBLE_DIGITS = 15;
