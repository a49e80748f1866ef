/**
 * The intent message (execution-gateway.md §2.1, §2.4, §8; hash V2, §9): the rules of its fields,
 * the public client's normalisation before signing (issue 10, public-notes.md), and the canonical
 * message, camelCase JSON in the spec's field order, SHA-256 over its UTF-8 bytes, secp256k1 DER
 * signature. The JSON text is written by hand so u64 amounts stay exact digits (never a JS number).
 * Every check throws the core's ProtocolError with the field and a reason, never echoing secrets.
 */
import { describeValue, ProtocolError } from '../errors';
import { decodeSignedEip1559, Eip1559Error, toChecksumAddress, type DecodedEip1559 } from './eip1559';
import { attempt, bytesToHex, bytesToPrefixedHex } from './hex';
import { sha256Bytes, signDigestDer, verifyDerSignature } from './keys';

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
		throw new ProtocolError(`${field} must be a string, got ${describeValue(value)}`, { field, reason: 'invalid_type' });
	}
	return value;
}

function requirePlainHex(value: string, field: string, length: number, what: string): string {
	if (/^0x/i.test(value)) {
		throw new ProtocolError(`${field} must be plain hex without a 0x prefix (${what})`, { field, reason: 'unexpected_prefix' });
	}
	if (!/^[0-9a-fA-F]*$/.test(value)) {
		throw new ProtocolError(`${field} must contain only hex digits (${what})`, { field, reason: 'invalid_hex' });
	}
	if (value.length !== length) {
		throw new ProtocolError(`${field} must be ${length} hex characters (${what}), got ${value.length}`, { field, reason: 'wrong_length' });
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
		throw new ProtocolError(`${field} must be an EVM address: 0x followed by 40 hex characters`, { field, reason: 'invalid_address' });
	}
	const body = value.slice(2);
	const mixedCase = body !== body.toLowerCase() && body !== body.toUpperCase();
	if (mixedCase && toChecksumAddress(value) !== value) {
		throw new ProtocolError(`${field} has mixed case but an invalid EIP-55 checksum`, { field, reason: 'bad_checksum' });
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
		if (!Number.isFinite(value)) throw new ProtocolError(`${field} must be a finite whole number`, { field, reason: 'not_integer' });
		if (!Number.isInteger(value)) throw new ProtocolError(`${field} must be a whole number in base units, got a fraction`, { field, reason: 'not_integer' });
		if (value < 0) throw new ProtocolError(`${field} must not be negative`, { field, reason: 'negative' });
		if (!Number.isSafeInteger(value)) {
			throw new ProtocolError(`${field} is beyond 2^53 - 1 as a JS number and may have lost precision; pass it as a string of digits`, { field, reason: 'unsafe_number' });
		}
		parsed = BigInt(value);
	} else if (typeof value === 'string') {
		if (value.length === 0) throw new ProtocolError(`${field} is empty`, { field, reason: 'empty' });
		if (!/^[0-9]+$/.test(value)) {
			const what = /^[+-]/.test(value) ? 'a sign' : /[eE]/.test(value) ? 'an exponent' : value.includes('.') ? 'a decimal point' : /\s/.test(value) ? 'whitespace' : 'non-digit characters';
			throw new ProtocolError(`${field} must be decimal digits only (an integer in base units), it contains ${what}`, { field, reason: 'not_digits' });
		}
		if (value.length > 20) throw new ProtocolError(`${field} exceeds the unsigned 64-bit maximum ${U64_MAX}`, { field, reason: 'out_of_range' });
		parsed = BigInt(value);
	} else {
		throw new ProtocolError(`${field} must be an integer (string of digits, number or bigint), got ${describeValue(value)}`, { field, reason: 'invalid_type' });
	}
	if (parsed < 0n) throw new ProtocolError(`${field} must not be negative`, { field, reason: 'negative' });
	if (parsed > U64_MAX) throw new ProtocolError(`${field} exceeds the unsigned 64-bit maximum ${U64_MAX}`, { field, reason: 'out_of_range' });
	return parsed;
}

/** §8: `expiresAt` (unix ms) must lie in the future and at most 24 hours ahead of `nowMs`. */
export function validateExpiresAt(expiresAtMs: number, nowMs: number, field = 'expiresAt'): number {
	if (typeof expiresAtMs !== 'number' || !Number.isSafeInteger(expiresAtMs) || expiresAtMs < 0) {
		throw new ProtocolError(`${field} must be an integer of unix milliseconds`, { field, reason: 'invalid_type' });
	}
	if (expiresAtMs <= nowMs) {
		throw new ProtocolError(`${field} ${new Date(expiresAtMs).toISOString()} is not in the future`, { field, reason: 'in_past' });
	}
	if (expiresAtMs - nowMs > EXPIRES_AT_HORIZON_MS) {
		throw new ProtocolError(`${field} is more than 24 hours in the future`, { field, reason: 'too_far' });
	}
	return expiresAtMs;
}

/** §2.1: `nonce` is a string unique per signer; must be non-empty and reasonably short. */
export function validateNonce(nonce: unknown, field = 'nonce'): string {
	const value = requireString(nonce, field);
	if (value.length === 0) throw new ProtocolError(`${field} must not be empty`, { field, reason: 'empty' });
	if (value.length > MAX_NONCE_LENGTH) throw new ProtocolError(`${field} must be at most ${MAX_NONCE_LENGTH} characters`, { field, reason: 'too_long' });
	return value;
}

/** §2.1: `chainId` is a positive integer. */
export function validateChainId(chainId: unknown, field = 'chainId'): number {
	if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0) {
		throw new ProtocolError(`${field} must be a positive integer`, { field, reason: 'invalid_type' });
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
	return typeof d.sparkTransferId === 'string' ? { ...d, sparkTransferId: normalizeTransferId(d.sparkTransferId) } : d;
}

/** The wire intent (or its deposits and action alone) as the public client would sign and send it. */
export function normalizeWireIntent<T extends Pick<WireIntent, 'deposits' | 'recipient' | 'evmTransaction'>>(intent: T): T {
	const out: T = { ...intent, deposits: Array.isArray(intent.deposits) ? intent.deposits.map(normalizeDeposit) : intent.deposits };
	if (typeof intent.recipient === 'string') out.recipient = normalizeRecipient(intent.recipient);
	if (typeof intent.evmTransaction === 'string') out.evmTransaction = normalizeEvmTransaction(intent.evmTransaction);
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
export type CanonicalAction = { type: 'deposit'; recipient: string } | { type: 'execute'; signedTxHash: string };

/** §2.4 canonical intent message. */
export type CanonicalIntent = {
	chainId: number;
	transfers: CanonicalTransfer[];
	action: CanonicalAction;
	nonce: string;
	expiresAt: number;
};

/* JSON text that keeps u64 amounts exact (§2.1, §8). */

type ReviverContext = { source?: string };
type SourceReviver = (this: unknown, key: string, value: unknown, context?: ReviverContext) => unknown;

const INTEGER_LITERAL = /^-?(0|[1-9][0-9]*)$/;

export interface ParseJsonOptions {
	/**
	 * Return number literals written with a fraction or exponent (`1.0`, `1e3`) as their source
	 * text instead of a JS number, so integer-only fields (u64 amounts, chainId) can reject them
	 * rather than silently accept `1e3` as 1000. Default false.
	 */
	nonIntegerLiteralsAsSource?: boolean;
}

/**
 * JSON.parse that returns integer literals beyond Number.MAX_SAFE_INTEGER as exact `bigint`
 * (via the reviver's `context.source`, Node >= 21). Safe integers stay JS numbers, so ordinary
 * fields read as usual.
 */
export function parseJsonPreservingBigInts(text: string, options: ParseJsonOptions = {}): unknown {
	const reviver: SourceReviver = (_key, value, context) => {
		if (typeof value !== 'number' || !context?.source) return value;
		if (INTEGER_LITERAL.test(context.source)) return Number.isSafeInteger(value) ? value : BigInt(context.source);
		return options.nonIntegerLiteralsAsSource ? context.source : value;
	};
	return JSON.parse(text, reviver as (this: unknown, key: string, value: unknown) => unknown);
}

/** A JSON string literal (same escaping as JSON.stringify). */
export function jsonString(value: string): string {
	return JSON.stringify(value);
}

/** A JSON integer literal from a safe integer `number` or any `bigint`, never through a float. */
export function jsonInteger(value: number | bigint, field: string): string {
	if (typeof value === 'bigint') return value.toString();
	if (!Number.isSafeInteger(value)) throw new RangeError(`${field} must be a safe integer`);
	return String(value);
}

function isPresent(value: unknown): boolean {
	return value !== undefined && value !== null;
}

function buildTransfer(deposit: WireDeposit, index: number): CanonicalTransfer {
	const at = `deposits[${index}]`;
	if (typeof deposit !== 'object' || deposit === null) {
		throw new ProtocolError(`${at} must be an object`, { field: at, reason: 'invalid_type' });
	}
	const asset = deposit.asset as unknown;
	const type = typeof asset === 'object' && asset !== null ? (asset as { type?: unknown }).type : undefined;
	if (type !== 'btc' && type !== 'token') {
		throw new ProtocolError(`${at}.asset must be {type: "btc"} or {type: "token", tokenId}`, { field: `${at}.asset.type`, reason: 'invalid_asset' });
	}
	const transferId = validateTransferId(deposit.sparkTransferId, type, `${at}.sparkTransferId`);
	const amountSats = parseU64(deposit.amount, `${at}.amount`);
	if (type === 'btc') return { transferId, amountSats, assetType: 'NativeSats' };
	const tokenId = validateTokenId((asset as { tokenId?: unknown }).tokenId, `${at}.asset.tokenId`);
	return { transferId, amountSats, assetType: 'SparkToken', tokenId };
}

/** The signed EIP-1559 transaction of an `execute` action, fully decoded once (§2.1, §2.4). */
export function decodeEvmTransaction(evmTransaction: string): DecodedEip1559 {
	const decoded = attempt(() => decodeSignedEip1559(evmTransaction));
	if (decoded.ok) return decoded.value;
	const e = decoded.error;
	if (e instanceof Eip1559Error) throw new ProtocolError(e.message, { field: 'evmTransaction', reason: e.reason });
	throw e;
}

/** keccak256 of the signed transaction bytes (§2.4 `signedTxHash`), after full decoding. */
export function signedTxHashOf(evmTransaction: string): string {
	return decodeEvmTransaction(evmTransaction).hash;
}

/** §2.4 transfers of the wire deposits (the list may be empty). */
export function buildTransfers(deposits: unknown): CanonicalTransfer[] {
	if (!Array.isArray(deposits)) {
		throw new ProtocolError('deposits must be an array (it may be empty)', { field: 'deposits', reason: 'invalid_type' });
	}
	return (deposits as WireDeposit[]).map(buildTransfer);
}

/** §2.1: exactly one of recipient and evmTransaction. */
export function assertOneAction(intent: Pick<WireIntent, 'recipient' | 'evmTransaction'>): void {
	const hasRecipient = isPresent(intent.recipient);
	if (hasRecipient !== isPresent(intent.evmTransaction)) return;
	throw new ProtocolError(hasRecipient
			? 'set exactly one of recipient and evmTransaction, not both'
			: 'set exactly one of recipient (deposit-only) and evmTransaction (deposit-and-execute)', { field: 'action', reason: hasRecipient ? 'both_actions' : 'no_action' });
}

/**
 * Maps the wire intent (§2.1) onto the canonical message (§2.4): deposits -> transfers,
 * sparkTransferId -> transferId, btc/token -> NativeSats/SparkToken, recipient or the signed
 * transaction's hash -> action. Strings are carried exactly as given (no case folding).
 */
export function buildCanonicalIntent(intent: WireIntent): CanonicalIntent {
	const chainId = validateChainId(intent.chainId);
	const transfers = buildTransfers(intent.deposits);
	assertOneAction(intent);
	const action: CanonicalAction = isPresent(intent.recipient)
		? { type: 'deposit', recipient: validateRecipient(intent.recipient) }
		: { type: 'execute', signedTxHash: signedTxHashOf(intent.evmTransaction as string) };
	const nonce = validateNonce(intent.nonce);
	if (typeof intent.expiresAt !== 'number' || !Number.isSafeInteger(intent.expiresAt) || intent.expiresAt < 0) {
		throw new ProtocolError('expiresAt must be an integer of unix milliseconds', { field: 'expiresAt', reason: 'invalid_type' });
	}
	return { chainId, transfers, action, nonce, expiresAt: intent.expiresAt };
}

function serializeTransfer(t: CanonicalTransfer): string {
	const amount = parseU64(t.amountSats, 'amountSats').toString();
	let out = `{"transferId":${jsonString(t.transferId)},"amountSats":${amount},"assetType":${jsonString(t.assetType)}`;
	if (t.assetType === 'SparkToken') out += `,"tokenId":${jsonString(t.tokenId ?? '')}`;
	return `${out}}`;
}

function serializeAction(a: CanonicalAction): string {
	return a.type === 'deposit'
		? `{"type":"deposit","recipient":${jsonString(a.recipient)}}`
		: `{"type":"execute","signedTxHash":${jsonString(a.signedTxHash)}}`;
}

/** The §2.4 message before its header's nonce and expiry: chainId, transfers, action (an open JSON object). */
export function serializeCanonicalBody(msg: Pick<CanonicalIntent, 'chainId' | 'transfers' | 'action'>): string {
	return (
		`{"chainId":${jsonInteger(msg.chainId, 'chainId')}` +
		`,"transfers":[${msg.transfers.map(serializeTransfer).join(',')}]` +
		`,"action":${serializeAction(msg.action)}`
	);
}

/** Closes a serialized body with the nonce and expiry, the last fields of §2.4. */
export function closeCanonicalBody(body: string, header: Pick<CanonicalIntent, 'nonce' | 'expiresAt'>): string {
	return `${body},"nonce":${jsonString(header.nonce)},"expiresAt":${jsonInteger(header.expiresAt, 'expiresAt')}}`;
}

/** §2.4 JSON text, byte-exact: chainId, transfers, action, nonce, expiresAt; no whitespace. */
export function serializeCanonicalIntent(msg: CanonicalIntent): string {
	return closeCanonicalBody(serializeCanonicalBody(msg), msg);
}

/** SHA-256 over the UTF-8 bytes of the canonical JSON (§2.4). */
export function intentDigest(msg: CanonicalIntent): Uint8Array {
	return sha256Bytes(serializeCanonicalIntent(msg));
}

/** The intent id the sandbox reports: `0x` + hex of the canonical digest. */
export function intentIdFromDigest(digest: Uint8Array): string {
	return bytesToPrefixedHex(digest);
}

export type SignedIntent = { signature: string; digestHex: string; canonical: string };

/** Builds, serializes, hashes and signs (DER, low S) the canonical message of `intent`. */
export function signIntent(intent: WireIntent, priv: Uint8Array | string): SignedIntent {
	const canonical = serializeCanonicalIntent(buildCanonicalIntent(intent));
	const digest = sha256Bytes(canonical);
	return { signature: signDigestDer(digest, priv), digestHex: bytesToHex(digest), canonical };
}

/** Rebuilds the canonical message from the wire fields and checks the signature; never throws. */
export function verifyIntentSignature(intent: WireIntent, signatureHex: string, publicKeyHex: string): boolean {
	try {
		return verifyDerSignature(signatureHex, intentDigest(buildCanonicalIntent(intent)), publicKeyHex);
	} catch {
		return false;
	}
}

function serializeWireAsset(asset: WireAsset): string {
	return asset.type === 'token'
		? `{"type":"token","tokenId":${jsonString(asset.tokenId)}}`
		: `{"type":"btc"}`;
}

/**
 * The POST /api/v1/execute body (§2.1): chainId, deposits, recipient | evmTransaction,
 * signature, nonce, expiresAt, with every `amount` an exact JSON integer (u64 safe).
 */
export function serializeWireIntent(intent: SignedWireIntent): string {
	const deposits = intent.deposits.map(
		(d, i) =>
			`{"sparkTransferId":${jsonString(d.sparkTransferId)},"asset":${serializeWireAsset(d.asset)},"amount":${parseU64(d.amount, `deposits[${i}].amount`).toString()}}`,
	);
	let out = `{"chainId":${jsonInteger(intent.chainId, 'chainId')},"deposits":[${deposits.join(',')}]`;
	if (isPresent(intent.recipient)) out += `,"recipient":${jsonString(intent.recipient as string)}`;
	if (isPresent(intent.evmTransaction)) out += `,"evmTransaction":${jsonString(intent.evmTransaction as string)}`;
	out += `,"signature":${jsonString(intent.signature)},"nonce":${jsonString(intent.nonce)}`;
	return `${out},"expiresAt":${jsonInteger(intent.expiresAt, 'expiresAt')}}`;
}
