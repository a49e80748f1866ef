/**
 * The intent message (execution-gateway.md §2.1, §2.4, §8; hash V2, §9): the canonical message,
 * camelCase JSON in the spec's field order, SHA-256 over its UTF-8 bytes, secp256k1 DER signature.
 * The JSON text is written by hand so u64 amounts stay exact digits (never a JS number). The rules
 * of its fields and their normalisation: intentFields.ts.
 */
import { ProtocolError } from '../errors';
import { decodeSignedEip1559, Eip1559Error, type DecodedEip1559 } from './eip1559';
import { attempt, bytesToHex, bytesToPrefixedHex } from './hex';
import {
	parseU64,
	validateChainId,
	validateNonce,
	validateRecipient,
	validateTokenId,
	validateTransferId,
	type CanonicalAction,
	type CanonicalIntent,
	type CanonicalTransfer,
	type SignedWireIntent,
	type WireAsset,
	type WireDeposit,
	type WireIntent,
} from './intentFields';
import { sha256Bytes, signDigestDer, verifyDerSignature } from './keys';

/* JSON text that keeps u64 amounts exact (§2.1, §8). */

type ReviverContext = { source?: string };
type SourceReviver = (
	this: unknown,
	key: string,
	value: unknown,
	context?: ReviverContext,
) => unknown;

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
		if (INTEGER_LITERAL.test(context.source))
			return Number.isSafeInteger(value) ? value : BigInt(context.source);
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
	if (!Number.isSafeInteger(value))
		throw new ProtocolError(`${field} must be a safe integer`, { field, reason: 'out_of_range' });
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
	const type =
		typeof asset === 'object' && asset !== null ? (asset as { type?: unknown }).type : undefined;
	if (type !== 'btc' && type !== 'token') {
		throw new ProtocolError(`${at}.asset must be {type: "btc"} or {type: "token", tokenId}`, {
			field: `${at}.asset.type`,
			reason: 'invalid_asset',
		});
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
	if (e instanceof Eip1559Error)
		throw new ProtocolError(e.message, { field: 'evmTransaction', reason: e.reason });
	throw e;
}

/** keccak256 of the signed transaction bytes (§2.4 `signedTxHash`), after full decoding. */
export function signedTxHashOf(evmTransaction: string): string {
	return decodeEvmTransaction(evmTransaction).hash;
}

/** §2.4 transfers of the wire deposits (the list may be empty). */
export function buildTransfers(deposits: unknown): CanonicalTransfer[] {
	if (!Array.isArray(deposits)) {
		throw new ProtocolError('deposits must be an array (it may be empty)', {
			field: 'deposits',
			reason: 'invalid_type',
		});
	}
	return (deposits as WireDeposit[]).map(buildTransfer);
}

/** §2.1: exactly one of recipient and evmTransaction. */
export function assertOneAction(intent: Pick<WireIntent, 'recipient' | 'evmTransaction'>): void {
	const hasRecipient = isPresent(intent.recipient);
	if (hasRecipient !== isPresent(intent.evmTransaction)) return;
	throw new ProtocolError(
		hasRecipient
			? 'set exactly one of recipient and evmTransaction, not both'
			: 'set exactly one of recipient (deposit-only) and evmTransaction (deposit-and-execute)',
		{ field: 'action', reason: hasRecipient ? 'both_actions' : 'no_action' },
	);
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
	if (
		typeof intent.expiresAt !== 'number' ||
		!Number.isSafeInteger(intent.expiresAt) ||
		intent.expiresAt < 0
	) {
		throw new ProtocolError('expiresAt must be an integer of unix milliseconds', {
			field: 'expiresAt',
			reason: 'invalid_type',
		});
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
export function serializeCanonicalBody(
	msg: Pick<CanonicalIntent, 'chainId' | 'transfers' | 'action'>,
): string {
	return (
		`{"chainId":${jsonInteger(msg.chainId, 'chainId')}` +
		`,"transfers":[${msg.transfers.map(serializeTransfer).join(',')}]` +
		`,"action":${serializeAction(msg.action)}`
	);
}

/** Closes a serialized body with the nonce and expiry, the last fields of §2.4. */
export function closeCanonicalBody(
	body: string,
	header: Pick<CanonicalIntent, 'nonce' | 'expiresAt'>,
): string {
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
export function verifyIntentSignature(
	intent: WireIntent,
	signatureHex: string,
	publicKeyHex: string,
): boolean {
	try {
		return verifyDerSignature(
			signatureHex,
			intentDigest(buildCanonicalIntent(intent)),
			publicKeyHex,
		);
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
	if (isPresent(intent.evmTransaction))
		out += `,"evmTransaction":${jsonString(intent.evmTransaction as string)}`;
	out += `,"signature":${jsonString(intent.signature)},"nonce":${jsonString(intent.nonce)}`;
	return `${out},"expiresAt":${jsonInteger(intent.expiresAt, 'expiresAt')}}`;
}
