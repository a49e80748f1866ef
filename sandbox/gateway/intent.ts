/**
 * The gateway's side of an intent (execution-gateway.md §2.1, §2.4, §4, §5, §8), as the sandbox
 * reads the spec: field rules, the canonical message rebuilt from the wire fields, its SHA-256, DER
 * signature checks, signed EIP-1559 transactions. The sandbox is a test oracle: it writes the
 * canonical message itself and shares no code with nodes/ (the golden vectors of test/vectors hold
 * both to the same bytes). The arithmetic is @noble/curves and micro-eth-signer, never hand-rolled.
 */
import { createHash } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { addr, Transaction } from 'micro-eth-signer';
import { bytesToHex, hexToBytes } from './hex';
import { EXPIRES_AT_HORIZON_MS, TOKEN_ID_HEX_LENGTH, TRANSFER_ID_HEX_LENGTH, U64_MAX } from './spec';

/** A field that breaks a rule of the spec; the caller answers it under its admission code. */
export class Problem extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'Problem';
	}
}

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function plainHex(value: unknown, field: string, length: number, what: string): string {
	if (typeof value !== 'string') throw new Problem(`${field} must be a string, got ${describe(value)}`);
	if (/^0x/i.test(value)) throw new Problem(`${field} must be plain hex without a 0x prefix (${what})`);
	if (!/^[0-9a-fA-F]*$/.test(value)) throw new Problem(`${field} must contain only hex digits (${what})`);
	if (value.length !== length) throw new Problem(`${field} must be ${length} hex characters (${what}), got ${value.length}`);
	return value;
}

/** §2.4: a Spark transfer id is hex, 32 characters for Bitcoin and 64 for tokens. */
export function transferIdOf(value: unknown, assetType: 'btc' | 'token', field = 'sparkTransferId'): string {
	const length = TRANSFER_ID_HEX_LENGTH[assetType];
	return plainHex(value, field, length, `${length / 2} bytes for a ${assetType === 'btc' ? 'BTC' : 'token'} transfer`);
}

/** §2.1: a token id is 32 bytes of hex (written like a transfer id: plain, no prefix). */
export function tokenIdOf(value: unknown, field = 'tokenId'): string {
	return plainHex(value, field, TOKEN_ID_HEX_LENGTH, '32 bytes');
}

/** §2.1: an EVM address, `0x` plus 20 bytes; a mixed-case one must carry its EIP-55 checksum. */
export function recipientOf(value: unknown, field = 'recipient'): string {
	if (typeof value !== 'string') throw new Problem(`${field} must be a string, got ${describe(value)}`);
	if (!/^0x[0-9a-fA-F]{40}$/.test(value)) throw new Problem(`${field} must be an EVM address: 0x followed by 40 hex characters`);
	const body = value.slice(2);
	if (body !== body.toLowerCase() && body !== body.toUpperCase() && addr.addChecksum(value) !== value) {
		throw new Problem(`${field} has mixed case but an invalid EIP-55 checksum`);
	}
	return value;
}

/**
 * §2.1, §8: an unsigned 64-bit integer in base units. A JSON number (a bigint when beyond 2^53, see
 * parseIntentJson) or a string of decimal digits; fractions, exponents, signs and unsafe numbers are refused.
 */
export function u64Of(value: unknown, field: string): bigint {
	let parsed: bigint;
	if (typeof value === 'bigint') parsed = value;
	else if (typeof value === 'number') {
		if (!Number.isSafeInteger(value)) throw new Problem(`${field} must be a whole number of base units (a safe integer, or a string of digits)`);
		parsed = BigInt(value);
	} else if (typeof value === 'string') {
		if (!/^[0-9]{1,20}$/.test(value)) throw new Problem(`${field} must be decimal digits only (an integer in base units)`);
		parsed = BigInt(value);
	} else throw new Problem(`${field} must be an integer, got ${describe(value)}`);
	if (parsed < 0n) throw new Problem(`${field} must not be negative`);
	if (parsed > U64_MAX) throw new Problem(`${field} exceeds the unsigned 64-bit maximum ${U64_MAX}`);
	return parsed;
}

/** §2.1, §8: absolute unix milliseconds, in the future and at most 24 hours ahead. */
export function expiresAtOf(value: unknown, nowMs: number): number {
	if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new Problem('expiresAt must be an integer of unix milliseconds');
	if (value <= nowMs) throw new Problem(`expiresAt ${new Date(value).toISOString()} is not in the future`);
	if (value - nowMs > EXPIRES_AT_HORIZON_MS) throw new Problem('expiresAt is more than 24 hours in the future');
	return value;
}

/** Longest nonce the sandbox takes (the spec sets none). */
const MAX_NONCE_LENGTH = 256;

/** §2.1: a string, unique per signer (the sandbox also wants it non-empty and at most 256 characters). */
export function nonceOf(value: unknown): string {
	if (typeof value !== 'string') throw new Problem(`nonce must be a string, got ${describe(value)}`);
	if (value.length === 0) throw new Problem('nonce must not be empty');
	if (value.length > MAX_NONCE_LENGTH) throw new Problem(`nonce must be at most ${MAX_NONCE_LENGTH} characters`);
	return value;
}

// ---------------------------------------------------------------- the canonical message (§2.4)

export interface MessageTransfer {
	sparkTransferId: string;
	assetType: 'btc' | 'token';
	tokenId?: string;
	amount: bigint;
}

export type MessageAction = { type: 'deposit'; recipient: string } | { type: 'execute'; signedTxHash: string };

export interface IntentMessage {
	chainId: number;
	transfers: MessageTransfer[];
	action: MessageAction;
	nonce: string;
	expiresAt: number;
}

/**
 * §2.4: camelCase JSON in the field order chainId, transfers, action, nonce, expiresAt; each
 * transfer transferId, amountSats, assetType (NativeSats | SparkToken) and, for tokens, tokenId;
 * numbers as JSON integers (amounts written from their bigint, never through a float).
 */
export function canonicalMessage(m: IntentMessage): string {
	const transfers = m.transfers.map((t) => {
		const token = t.assetType === 'token' ? `,"tokenId":${JSON.stringify(t.tokenId)}` : '';
		return `{"transferId":${JSON.stringify(t.sparkTransferId)},"amountSats":${t.amount.toString()},"assetType":"${t.assetType === 'token' ? 'SparkToken' : 'NativeSats'}"${token}}`;
	});
	const action = m.action.type === 'deposit'
		? `{"type":"deposit","recipient":${JSON.stringify(m.action.recipient)}}`
		: `{"type":"execute","signedTxHash":${JSON.stringify(m.action.signedTxHash)}}`;
	return `{"chainId":${m.chainId},"transfers":[${transfers.join(',')}],"action":${action},"nonce":${JSON.stringify(m.nonce)},"expiresAt":${m.expiresAt}}`;
}

/** §2.4: SHA-256 over the UTF-8 bytes of the canonical JSON. */
export function sha256(text: string): Uint8Array {
	return new Uint8Array(createHash('sha256').update(text, 'utf8').digest());
}

// ---------------------------------------------------------------- keys and signatures (§2.4, §4, §5)

/** §4: a 33-byte compressed secp256k1 public key as hex (no 0x), on the curve; lower case. */
export function compressedPublicKeyOf(value: unknown): string {
	const bytes = typeof value === 'string' && /^0[23][0-9a-fA-F]{64}$/.test(value) ? hexToBytes(value) : null;
	let onCurve = false;
	try {
		onCurve = bytes !== null && secp256k1.utils.isValidPublicKey(bytes, true);
	} catch {
		onCurve = false;
	}
	if (!onCurve) {
		throw new Problem('publicKey must be a 33-byte compressed secp256k1 public key: 66 hex characters starting with 02 or 03, without 0x');
	}
	return (value as string).toLowerCase();
}

/** The compressed public key of a 32-byte private key given as hex (the sandbox's seeded signers). */
export function publicKeyOfPrivateKey(privateKeyHex: string): string {
	const bytes = hexToBytes(privateKeyHex);
	if (!bytes || bytes.length !== 32) throw new Problem('a private key is 32 bytes of hex');
	return bytesToHex(secp256k1.getPublicKey(bytes, true));
}

/** The Ethereum address (lower case) of a secp256k1 public key. */
export function addressOfPublicKey(publicKeyHex: string): string {
	return addr.fromPublicKey(publicKeyHex).toLowerCase();
}

/**
 * §2.1, §5: a DER-encoded ECDSA signature (hex) over a 32-byte digest, checked against a compressed
 * public key. Low S only (the sandbox's strict reading; the spec does not say). False, never a throw.
 */
export function verifiesDer(signatureHex: unknown, digest: Uint8Array, publicKeyHex: string): boolean {
	const der = hexToBytes(signatureHex);
	const publicKey = hexToBytes(publicKeyHex);
	if (!der || der.length < 8 || der.length > 72 || !publicKey) return false;
	try {
		return secp256k1.verify(der, digest, publicKey, { prehash: false, lowS: true, format: 'der' });
	} catch {
		return false;
	}
}

// ---------------------------------------------------------------- the signed EIP-1559 transaction (§2.1, §2.4)

export interface SignedTransaction {
	chainId: bigint;
	/** keccak256 of the signed transaction bytes (§2.4 `signedTxHash`), `0x` lower case. */
	hash: string;
	/** The recovered signer, lower case: the deposit recipient of an execute intent (§2.1). */
	from: string;
	to: string | null;
	data: string;
	gasLimit: bigint;
}

/** §2.1: hex of an RLP-serialized *signed* EIP-1559 (type 0x02) transaction, decoded by micro-eth-signer. */
export function signedEip1559Of(hex: unknown): SignedTransaction {
	const raw = hexToBytes(typeof hex === 'string' ? hex.trim() : hex);
	if (!raw) throw new Problem('evmTransaction is not valid hex (even number of 0-9a-f digits, optional 0x)');
	if (raw.length === 0 || raw[0] !== 0x02) throw new Problem('evmTransaction must be an EIP-1559 transaction (type byte 0x02)');
	let tx: ReturnType<typeof Transaction.fromBytes>;
	try {
		tx = Transaction.fromBytes(raw, false);
	} catch (e) {
		throw new Problem(`evmTransaction does not decode: ${e instanceof Error ? e.message : String(e)}`);
	}
	if (tx.type !== 'eip1559' || !tx.isSigned) throw new Problem('evmTransaction must be a signed EIP-1559 transaction');
	const { r, s, chainId, to, data, gasLimit } = tx.raw as { r?: bigint; s?: bigint; chainId: bigint; to: string; data: string; gasLimit: bigint };
	let from: string;
	try {
		// EIP-2: a valid transaction signature has 0 < r, s < n and s in the lower half
		if (new secp256k1.Signature(r ?? 0n, s ?? 0n).hasHighS()) throw new Error('s is in the upper half of the curve order (EIP-2)');
		from = tx.sender.toLowerCase();
	} catch (e) {
		throw new Problem(`evmTransaction has an invalid signature: ${e instanceof Error ? e.message : String(e)}`);
	}
	return { chainId, hash: tx.hash.toLowerCase(), from, to: to === '0x' ? null : to.toLowerCase(), data: data.toLowerCase(), gasLimit };
}

// ---------------------------------------------------------------- JSON

/**
 * JSON.parse for the execute body (§2.1, §8: u64 amounts): integer literals beyond 2^53 become
 * exact bigints, and number literals with a fraction or exponent (`1.0`, `1e3`) stay their source
 * text, so the integer rules refuse them instead of reading 1e3 as 1000. Node's reviver source.
 */
export function parseIntentJson(text: string): unknown {
	const reviver = (_key: string, value: unknown, context?: { source?: string }): unknown => {
		if (typeof value !== 'number' || context?.source === undefined) return value;
		if (!/^-?(0|[1-9][0-9]*)$/.test(context.source)) return context.source;
		return Number.isSafeInteger(value) ? value : BigInt(context.source);
	};
	return JSON.parse(text, reviver as (this: unknown, key: string, value: unknown) => unknown);
}
