/**
 * The intent's fields (execution-gateway.md §2.1, §2.4, §8): their rules, the public client's
 * normalisation before signing (public-notes.md), and the wire and canonical types. Every
 * check throws the core's ProtocolError with the field and a reason, never echoing secrets.
 */
import { describeValue, ProtocolError } from '../errors';
import { toChecksumAddress } from './eip1559';

/* Field rules of the intent (§2.1, §2.4, §8) and the public client's normalisation. */

export const U64_MAX = 18446744073709551615n;
/** §8: `expiresAt` may be at most 24 hours in the future. */
export const EXPIRES_AT_HORIZON_MS = 24 * 60 * 60 * 1000;
/** §2.4: transfer ids are 32 hex characters for Bitcoin, 64 for tokens. */
export const TRANSFER_ID_HEX_LENGTH = { btc: 32, token: 64 } as const;
export const MAX_NONCE_LENGTH = 256;

export type AssetType = 'btc' | 'token';

function requireString(value: unknown, field: string): string {
	if (typeof value !== 'string') {
		throw new ProtocolError(`${field} must be a string, got ${describeValue(value)}`, {
			field,
			reason: 'invalid_type',
		});
	}
	return value;
}

function requirePlainHex(value: string, field: string, length: number, what: string): string {
	if (/^0x/i.test(value)) {
		throw new ProtocolError(`${field} must be plain hex without a 0x prefix (${what})`, {
			field,
			reason: 'unexpected_prefix',
		});
	}
	if (!/^[0-9a-fA-F]*$/.test(value)) {
		throw new ProtocolError(`${field} must contain only hex digits (${what})`, {
			field,
			reason: 'invalid_hex',
		});
	}
	if (value.length !== length) {
		throw new ProtocolError(
			`${field} must be ${length} hex characters (${what}), got ${value.length}`,
			{ field, reason: 'wrong_length' },
		);
	}
	return value;
}

/** §2.4: Spark transfer ids are plain hex, 32 characters for BTC deposits and 64 for tokens. */
export function validateTransferId(
	id: unknown,
	assetType: AssetType,
	field = 'sparkTransferId',
): string {
	const length = TRANSFER_ID_HEX_LENGTH[assetType];
	return requirePlainHex(
		requireString(id, field),
		field,
		length,
		`${length / 2} bytes for a ${assetType === 'btc' ? 'BTC' : 'token'} transfer`,
	);
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
		throw new ProtocolError(`${field} must be an EVM address: 0x followed by 40 hex characters`, {
			field,
			reason: 'invalid_address',
		});
	}
	const body = value.slice(2);
	const mixedCase = body !== body.toLowerCase() && body !== body.toUpperCase();
	if (mixedCase && toChecksumAddress(value) !== value) {
		throw new ProtocolError(`${field} has mixed case but an invalid EIP-55 checksum`, {
			field,
			reason: 'bad_checksum',
		});
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
		if (!Number.isFinite(value))
			throw new ProtocolError(`${field} must be a finite whole number`, {
				field,
				reason: 'not_integer',
			});
		if (!Number.isInteger(value))
			throw new ProtocolError(`${field} must be a whole number in base units, got a fraction`, {
				field,
				reason: 'not_integer',
			});
		if (value < 0)
			throw new ProtocolError(`${field} must not be negative`, { field, reason: 'negative' });
		if (!Number.isSafeInteger(value)) {
			throw new ProtocolError(
				`${field} is beyond 2^53 - 1 as a JS number and may have lost precision; pass it as a string of digits`,
				{ field, reason: 'unsafe_number' },
			);
		}
		parsed = BigInt(value);
	} else if (typeof value === 'string') {
		if (value.length === 0)
			throw new ProtocolError(`${field} is empty`, { field, reason: 'empty' });
		if (!/^[0-9]+$/.test(value)) {
			const what = /^[+-]/.test(value)
				? 'a sign'
				: /[eE]/.test(value)
					? 'an exponent'
					: value.includes('.')
						? 'a decimal point'
						: /\s/.test(value)
							? 'whitespace'
							: 'non-digit characters';
			throw new ProtocolError(
				`${field} must be decimal digits only (an integer in base units), it contains ${what}`,
				{ field, reason: 'not_digits' },
			);
		}
		if (value.length > 20)
			throw new ProtocolError(`${field} exceeds the unsigned 64-bit maximum ${U64_MAX}`, {
				field,
				reason: 'out_of_range',
			});
		parsed = BigInt(value);
	} else {
		throw new ProtocolError(
			`${field} must be an integer (string of digits, number or bigint), got ${describeValue(value)}`,
			{ field, reason: 'invalid_type' },
		);
	}
	if (parsed < 0n)
		throw new ProtocolError(`${field} must not be negative`, { field, reason: 'negative' });
	if (parsed > U64_MAX)
		throw new ProtocolError(`${field} exceeds the unsigned 64-bit maximum ${U64_MAX}`, {
			field,
			reason: 'out_of_range',
		});
	return parsed;
}

/** §8: `expiresAt` (unix ms) must lie in the future and at most 24 hours ahead of `nowMs`. */
export function validateExpiresAt(expiresAtMs: number, nowMs: number, field = 'expiresAt'): number {
	if (typeof expiresAtMs !== 'number' || !Number.isSafeInteger(expiresAtMs) || expiresAtMs < 0) {
		throw new ProtocolError(`${field} must be an integer of unix milliseconds`, {
			field,
			reason: 'invalid_type',
		});
	}
	if (expiresAtMs <= nowMs) {
		throw new ProtocolError(
			`${field} ${new Date(expiresAtMs).toISOString()} is not in the future`,
			{ field, reason: 'in_past' },
		);
	}
	if (expiresAtMs - nowMs > EXPIRES_AT_HORIZON_MS) {
		throw new ProtocolError(`${field} is more than 24 hours in the future`, {
			field,
			reason: 'too_far',
		});
	}
	return expiresAtMs;
}

/** §2.1: `nonce` is a string unique per signer; must be non-empty and reasonably short. */
export function validateNonce(nonce: unknown, field = 'nonce'): string {
	const value = requireString(nonce, field);
	if (value.length === 0)
		throw new ProtocolError(`${field} must not be empty`, { field, reason: 'empty' });
	if (value.length > MAX_NONCE_LENGTH)
		throw new ProtocolError(`${field} must be at most ${MAX_NONCE_LENGTH} characters`, {
			field,
			reason: 'too_long',
		});
	return value;
}

/** §2.1: `chainId` is a positive integer. */
export function validateChainId(chainId: unknown, field = 'chainId'): number {
	if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0) {
		throw new ProtocolError(`${field} must be a positive integer`, {
			field,
			reason: 'invalid_type',
		});
	}
	return chainId;
}

/* Normalisation: the same normalized values go into the canonical message (§2.4) and the request (§2.1). */

const DASHED_UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A Spark transfer id as plain lower-case hex: dashes of a UUID and a `0x` prefix removed; anything else as given. */
export function normalizeTransferId(id: string): string {
	if (DASHED_UUID.test(id)) return id.replace(/-/g, '').toLowerCase();
	const plain = /^0x/i.test(id) ? id.slice(2) : id;
	return /^[0-9a-fA-F]+$/.test(plain) ? plain.toLowerCase() : id;
}

/** §2.1 recipient: checked as given (a mixed-case address must carry a valid EIP-55 checksum), then lower case. */
export function normalizeRecipient(address: string): string {
	return validateRecipient(address).toLowerCase();
}

/** The signed transaction's hex with its `0x` prefix (added when missing, `0X` lowered). */
export function normalizeEvmTransaction(hex: string): string {
	return /^0x/i.test(hex) ? `0x${hex.slice(2)}` : `0x${hex}`;
}

function normalizeDeposit(d: WireDeposit): WireDeposit {
	return typeof d.sparkTransferId === 'string'
		? { ...d, sparkTransferId: normalizeTransferId(d.sparkTransferId) }
		: d;
}

/** The wire intent (or its deposits and action alone) as the public client would sign and send it. */
export function normalizeWireIntent<
	T extends Pick<WireIntent, 'deposits' | 'recipient' | 'evmTransaction'>,
>(intent: T): T {
	const out: T = {
		...intent,
		deposits: Array.isArray(intent.deposits)
			? intent.deposits.map(normalizeDeposit)
			: intent.deposits,
	};
	if (typeof intent.recipient === 'string') out.recipient = normalizeRecipient(intent.recipient);
	if (typeof intent.evmTransaction === 'string')
		out.evmTransaction = normalizeEvmTransaction(intent.evmTransaction);
	return out;
}

/* The canonical message (§2.4) and the wire request (§2.1). */

export type WireAsset = { type: 'btc' } | { type: 'token'; tokenId: string };

/** §2.1 deposit entry as sent on the wire. */
export type WireDeposit = {
	sparkTransferId: string;
	asset: WireAsset;
	amount: string | bigint;
};

/** §2.1 intent submission without the signature. */
export type WireIntent = {
	chainId: number;
	deposits: WireDeposit[];
	recipient?: string;
	evmTransaction?: string;
	nonce: string;
	expiresAt: number;
};

export type SignedWireIntent = WireIntent & { signature: string };

export type CanonicalAssetType = 'NativeSats' | 'SparkToken';

/** §2.4 transfer entry. */
export type CanonicalTransfer = {
	transferId: string;
	amountSats: bigint;
	assetType: CanonicalAssetType;
	/** Present only for `SparkToken`. */
	tokenId?: string;
};

/** §2.4 action: deposit-only or deposit-and-execute. */
export type CanonicalAction =
	| { type: 'deposit'; recipient: string }
	| { type: 'execute'; signedTxHash: string };

/** §2.4 canonical intent message. */
export type CanonicalIntent = {
	chainId: number;
	transfers: CanonicalTransfer[];
	action: CanonicalAction;
	nonce: string;
	expiresAt: number;
};
