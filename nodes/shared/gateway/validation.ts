/**
 * Field rules of the intent (execution-gateway.md §2.1, §2.4, §8). Every check throws a
 * GatewayInputError with the field name and a reason; none of them echo secret input.
 */
import { toChecksumAddress } from './eip1559';
import { GatewayInputError } from './errors';

export const U64_MAX = 18446744073709551615n;
/** §8: `expiresAt` may be at most 24 hours in the future. */
export const EXPIRES_AT_HORIZON_MS = 24 * 60 * 60 * 1000;
/** §2.4: transfer ids are 32 hex characters for Bitcoin, 64 for tokens. */
export const TRANSFER_ID_HEX_LENGTH = { btc: 32, token: 64 } as const;
export const MAX_NONCE_LENGTH = 256;

export type AssetType = 'btc' | 'token';

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function requireString(value: unknown, field: string): string {
	if (typeof value !== 'string') {
		throw new GatewayInputError(field, 'invalid_type', `${field} must be a string, got ${describe(value)}`);
	}
	return value;
}

function requirePlainHex(value: string, field: string, length: number, what: string): string {
	if (/^0x/i.test(value)) {
		throw new GatewayInputError(field, 'unexpected_prefix', `${field} must be plain hex without a 0x prefix (${what})`);
	}
	if (!/^[0-9a-fA-F]*$/.test(value)) {
		throw new GatewayInputError(field, 'invalid_hex', `${field} must contain only hex digits (${what})`);
	}
	if (value.length !== length) {
		throw new GatewayInputError(field, 'wrong_length', `${field} must be ${length} hex characters (${what}), got ${value.length}`);
	}
	return value;
}

/** §2.4: Spark transfer ids are plain hex, 32 characters for BTC deposits and 64 for tokens. */
export function validateTransferId(id: unknown, assetType: AssetType, field = 'sparkTransferId'): string {
	const length = TRANSFER_ID_HEX_LENGTH[assetType];
	return requirePlainHex(requireString(id, field), field, length, `${length / 2} bytes for a ${assetType === 'btc' ? 'BTC' : 'token'} transfer`);
}

/**
 * §2.1: token ids are 32 bytes of hex. Decision: 64 plain hex characters, no 0x prefix, the same
 * form as transfer ids, so the canonical message has one spelling for a token.
 */
export function validateTokenId(id: unknown, field = 'tokenId'): string {
	return requirePlainHex(requireString(id, field), field, 64, '32 bytes');
}

/** §2.1: `0x` + 20 bytes; a mixed-case address must carry a valid EIP-55 checksum. */
export function validateRecipient(address: unknown, field = 'recipient'): string {
	const value = requireString(address, field);
	if (!/^0x[0-9a-fA-F]{40}$/.test(value)) {
		throw new GatewayInputError(field, 'invalid_address', `${field} must be an EVM address: 0x followed by 40 hex characters`);
	}
	const body = value.slice(2);
	const mixedCase = body !== body.toLowerCase() && body !== body.toUpperCase();
	if (mixedCase && toChecksumAddress(value) !== value) {
		throw new GatewayInputError(field, 'bad_checksum', `${field} has mixed case but an invalid EIP-55 checksum`);
	}
	return value;
}

/**
 * §2.1/§8: an unsigned 64-bit integer. Strings must be decimal digits only (no sign, point,
 * exponent or whitespace); JS numbers must be safe integers, larger values must come as strings.
 */
export function parseU64(value: string | number | bigint, field: string): bigint {
	let parsed: bigint;
	if (typeof value === 'bigint') {
		parsed = value;
	} else if (typeof value === 'number') {
		if (!Number.isFinite(value)) throw new GatewayInputError(field, 'not_integer', `${field} must be a finite whole number`);
		if (!Number.isInteger(value)) throw new GatewayInputError(field, 'not_integer', `${field} must be a whole number in base units, got a fraction`);
		if (value < 0) throw new GatewayInputError(field, 'negative', `${field} must not be negative`);
		if (!Number.isSafeInteger(value)) {
			throw new GatewayInputError(field, 'unsafe_number', `${field} is beyond 2^53 - 1 as a JS number and may have lost precision; pass it as a string of digits`);
		}
		parsed = BigInt(value);
	} else if (typeof value === 'string') {
		if (value.length === 0) throw new GatewayInputError(field, 'empty', `${field} is empty`);
		if (!/^[0-9]+$/.test(value)) {
			const what = /^[+-]/.test(value) ? 'a sign' : /[eE]/.test(value) ? 'an exponent' : value.includes('.') ? 'a decimal point' : /\s/.test(value) ? 'whitespace' : 'non-digit characters';
			throw new GatewayInputError(field, 'not_digits', `${field} must be decimal digits only (an integer in base units), it contains ${what}`);
		}
		if (value.length > 20) throw new GatewayInputError(field, 'out_of_range', `${field} exceeds the unsigned 64-bit maximum ${U64_MAX}`);
		parsed = BigInt(value);
	} else {
		throw new GatewayInputError(field, 'invalid_type', `${field} must be an integer (string of digits, number or bigint), got ${describe(value)}`);
	}
	if (parsed < 0n) throw new GatewayInputError(field, 'negative', `${field} must not be negative`);
	if (parsed > U64_MAX) throw new GatewayInputError(field, 'out_of_range', `${field} exceeds the unsigned 64-bit maximum ${U64_MAX}`);
	return parsed;
}

/** §8: `expiresAt` (unix ms) must lie in the future and at most 24 hours ahead of `nowMs`. */
export function validateExpiresAt(expiresAtMs: number, nowMs: number, field = 'expiresAt'): number {
	if (typeof expiresAtMs !== 'number' || !Number.isSafeInteger(expiresAtMs) || expiresAtMs < 0) {
		throw new GatewayInputError(field, 'invalid_type', `${field} must be an integer of unix milliseconds`);
	}
	if (expiresAtMs <= nowMs) {
		throw new GatewayInputError(field, 'in_past', `${field} ${new Date(expiresAtMs).toISOString()} is not in the future`);
	}
	if (expiresAtMs - nowMs > EXPIRES_AT_HORIZON_MS) {
		throw new GatewayInputError(field, 'too_far', `${field} is more than 24 hours in the future`);
	}
	return expiresAtMs;
}

/** §2.1: `nonce` is a string unique per signer; must be non-empty and reasonably short. */
export function validateNonce(nonce: unknown, field = 'nonce'): string {
	const value = requireString(nonce, field);
	if (value.length === 0) throw new GatewayInputError(field, 'empty', `${field} must not be empty`);
	if (value.length > MAX_NONCE_LENGTH) throw new GatewayInputError(field, 'too_long', `${field} must be at most ${MAX_NONCE_LENGTH} characters`);
	return value;
}

/** §2.1: `chainId` is a positive integer. */
export function validateChainId(chainId: unknown, field = 'chainId'): number {
	if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0) {
		throw new GatewayInputError(field, 'invalid_type', `${field} must be a positive integer`);
	}
	return chainId;
}
