/**
 * The execution gateway's closed lists and bounds as the sandbox reads them from
 * execution-gateway.md (section per line) and public-notes.md. Its own reading: nothing from nodes/.
 */

/** §3: status values, SCREAMING_SNAKE_CASE. */
export const INTENT_STATUSES = ['ACCEPTED', 'INCLUDED_PENDING_FINALITY', 'FINALIZED', 'EXPIRED'] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

/** §3: FINALIZED and EXPIRED are the end of an intent. */
export function isFinalIntentStatus(status: IntentStatus): boolean {
	return status === 'FINALIZED' || status === 'EXPIRED';
}

/** §2.1, §8: `expiresAt` at most 24 hours ahead. */
export const EXPIRES_AT_HORIZON_MS = 24 * 60 * 60_000;
/** §2.1, §8: deposit amounts are unsigned 64-bit integers. */
export const U64_MAX = 2n ** 64n - 1n;
/** §2.4: transfer ids are 32 hex characters for Bitcoin, 64 for tokens; §2.1: token ids are 32 bytes. */
export const TRANSFER_ID_HEX_LENGTH = { btc: 32, token: 64 } as const;
export const TOKEN_ID_HEX_LENGTH = 64;

/** public-notes "Execution gateway": the revert output's selectors, `Error(string)` and `Panic(uint256)`. */
export const ERROR_STRING_SELECTOR = '0x08c379a0';
export const PANIC_SELECTOR = '0x4e487b71';
