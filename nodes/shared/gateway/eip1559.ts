/**
 * Signed EIP-1559 (type 0x02) transactions for the `evmTransaction` of execution-gateway.md
 * §2.1/§2.4: a small adapter over micro-eth-signer, which decodes (strict RLP, canonical
 * integers, field sizes), hashes and recovers the signer. This file only maps its failures to
 * the reasons callers see, and signs for tests and the sandbox.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { addr, Transaction, type TxCoder } from 'micro-eth-signer';
import { RLP } from 'micro-eth-signer/core/rlp.js';

import { bytesToPrefixedHex, tryHexToBytes } from './hex';
import { ProtocolError } from '../errors';
import { toPrivateKeyBytes } from './keys';

const TX_TYPE = 0x02;
/** A signed type-2 payload: the nine signed fields, then yParity, r, s (EIP-1559). */
const SIGNED_FIELDS = 12;
const UNSIGNED_FIELDS = 9;
const Y_PARITY = 9;

export type Eip1559ErrorReason =
	| 'not_hex'
	| 'empty'
	| 'wrong_type'
	| 'bad_rlp'
	| 'wrong_field_count'
	| 'bad_field'
	| 'high_s'
	| 'invalid_signature'
	| 'invalid_y_parity';

export class Eip1559Error extends ProtocolError {
	declare readonly reason: Eip1559ErrorReason;
	constructor(reason: Eip1559ErrorReason, message: string) {
		super(message, { field: 'evmTransaction', reason });
		this.name = 'Eip1559Error';
	}
}

/** An RLP item as tests build it: a byte string or a list of items. */
export type RlpItem = Uint8Array | RlpItem[];

export interface AccessListEntry {
	address: string;
	storageKeys: string[];
}

export type Quantity = number | bigint;

export interface UnsignedEip1559 {
	chainId: Quantity;
	nonce: Quantity;
	maxPriorityFeePerGas: Quantity;
	maxFeePerGas: Quantity;
	gasLimit: Quantity;
	/** `0x` + 20 bytes; null or absent for contract creation. */
	to?: string | null;
	value?: Quantity;
	/** Calldata hex (`0x` optional); empty when absent. */
	data?: string;
	accessList?: AccessListEntry[];
}

export interface DecodedEip1559 {
	type: 2;
	chainId: bigint;
	nonce: bigint;
	maxPriorityFeePerGas: bigint;
	maxFeePerGas: bigint;
	gasLimit: bigint;
	to: string | null;
	value: bigint;
	data: string;
	accessList: AccessListEntry[];
	yParity: 0 | 1;
	/** 32-byte `0x` hex. */
	r: string;
	s: string;
	/** keccak256 of the raw signed bytes: the transaction hash (`0x`, lowercase). */
	hash: string;
	/** keccak256 of the unsigned payload that was signed. */
	signingHash: string;
	/** Recovered signer, `0x` + 40 lowercase hex. */
	from: string;
	/** The signer with its EIP-55 checksum. */
	fromChecksum: string;
	/** The raw signed transaction, `0x` lowercase hex. */
	raw: string;
}

/** A decoded transaction whose type byte was checked to be 0x02. */
type Eip1559Tx = InstanceType<typeof Transaction> & { raw: TxCoder<'eip1559'> };

function fail(reason: Eip1559ErrorReason, message: string): never {
	throw new Eip1559Error(reason, message);
}

function messageOf(error: unknown): string {
	const fields = (error as { errors?: Array<{ field: string; error: string }> }).errors;
	if (Array.isArray(fields)) return fields.map((f) => `${f.field}: ${f.error}`).join('; ');
	return error instanceof Error ? error.message : String(error);
}

/** Runs a library call; its failure becomes an Eip1559Error with `reason`. */
function orFail<T>(reason: Eip1559ErrorReason, prefix: string, fn: () => T): T {
	try {
		return fn();
	} catch (error) {
		fail(reason, `${prefix}: ${messageOf(error)}`);
	}
}

export function rlpEncode(item: RlpItem): Uint8Array {
	return RLP.encode(item);
}

/** Decodes exactly one item; malformed or trailing bytes throw. */
export function rlpDecode(bytes: Uint8Array): RlpItem {
	return RLP.decode(bytes) as RlpItem;
}

export function keccak256(bytes: Uint8Array): Uint8Array {
	return keccak_256(bytes);
}

/** keccak256 as `0x` lowercase hex. */
export function keccak256Hex(bytes: Uint8Array): string {
	return bytesToPrefixedHex(keccak_256(bytes));
}

/** Ethereum address (lowercase) of a secp256k1 public key (compressed or uncompressed, bytes or hex). */
export function addressFromPublicKey(publicKey: Uint8Array | string): string {
	const bytes = typeof publicKey === 'string' ? tryHexToBytes(publicKey) : publicKey;
	if (!bytes) fail('bad_field', 'public key is not hex');
	return orFail('bad_field', 'public key', () => addr.fromPublicKey(bytes)).toLowerCase();
}

/** EIP-55 mixed-case checksum of a `0x` + 40 hex address (any input case). */
export function toChecksumAddress(address: string): string {
	if (!/^(0[xX])?[0-9a-fA-F]{40}$/.test(address))
		fail('bad_field', 'address must be 0x followed by 40 hex characters');
	return addr.addChecksum(address);
}

/** The envelope checks with this gateway's messages: hex, not empty, type byte 0x02 (EIP-2718). */
function typedBytes(hex: unknown): Uint8Array {
	if (typeof hex !== 'string') fail('not_hex', 'evmTransaction must be a hex string');
	const raw = tryHexToBytes(hex.trim());
	if (!raw)
		fail('not_hex', 'evmTransaction is not valid hex (even number of 0-9a-f digits, optional 0x)');
	if (raw.length === 0) fail('empty', 'evmTransaction is empty');
	if (raw[0] !== TX_TYPE) {
		fail(
			'wrong_type',
			`evmTransaction must be an EIP-1559 transaction (type byte 0x02), got 0x${raw[0].toString(16).padStart(2, '0')}`,
		);
	}
	return raw;
}

/** Checks the payload's RLP list first, so a field count or a bad yParity gets its own reason. */
function checkPayloadShape(raw: Uint8Array): void {
	const fields = orFail('bad_rlp', 'evmTransaction has malformed RLP', () =>
		rlpDecode(raw.subarray(1)),
	);
	if (!Array.isArray(fields)) fail('bad_rlp', 'evmTransaction payload must be an RLP list');
	if (fields.length === UNSIGNED_FIELDS)
		fail(
			'wrong_field_count',
			'evmTransaction is unsigned (9 fields); a signed EIP-1559 transaction has 12',
		);
	if (fields.length !== SIGNED_FIELDS)
		fail('wrong_field_count', `evmTransaction must have 12 fields, got ${fields.length}`);
	const yParity = fields[Y_PARITY];
	if (
		!(yParity instanceof Uint8Array) ||
		yParity.length > 1 ||
		(yParity.length === 1 && yParity[0] !== 1)
	) {
		fail('invalid_y_parity', 'yParity must be 0 or 1');
	}
}

/** 0 < r, s < n, then EIP-2 low S, then recovery: each with its own reason. */
function recoverSigner(tx: Eip1559Tx): string {
	const { r, s } = tx.raw;
	const sig = orFail(
		'invalid_signature',
		'signature r and s must be in 1..n-1',
		() => new secp256k1.Signature(r ?? 0n, s ?? 0n),
	);
	if (sig.hasHighS())
		fail('high_s', 'signature s is in the upper half of the curve order (EIP-2 requires low S)');
	return orFail(
		'invalid_signature',
		'signer cannot be recovered from the signature',
		() => tx.sender,
	);
}

const hex32 = (n: bigint | undefined) => `0x${(n ?? 0n).toString(16).padStart(64, '0')}`;

function decoded(tx: Eip1559Tx, raw: Uint8Array, fromChecksum: string): DecodedEip1559 {
	const t = tx.raw;
	return {
		type: 2,
		chainId: t.chainId,
		nonce: t.nonce,
		maxPriorityFeePerGas: t.maxPriorityFeePerGas,
		maxFeePerGas: t.maxFeePerGas,
		gasLimit: t.gasLimit,
		to: t.to === '0x' ? null : t.to.toLowerCase(),
		value: t.value,
		data: t.data.toLowerCase(),
		accessList: t.accessList.map((e) => ({
			address: e.address.toLowerCase(),
			storageKeys: e.storageKeys.map((k) => k.toLowerCase()),
		})),
		yParity: t.yParity === 1 ? 1 : 0,
		r: hex32(t.r),
		s: hex32(t.s),
		hash: tx.hash,
		signingHash: keccak256Hex(tx.toBytes({ includeSignature: false })),
		from: fromChecksum.toLowerCase(),
		fromChecksum,
		raw: bytesToPrefixedHex(raw),
	};
}

/**
 * Decodes and checks a signed EIP-1559 transaction: strict RLP, 12 fields, canonical integers,
 * yParity 0/1, 0 < r < n, 0 < s <= n/2 (EIP-2 low S), and a recoverable signer.
 */
export function decodeSignedEip1559(hex: string): DecodedEip1559 {
	const raw = typedBytes(hex);
	checkPayloadShape(raw);
	const tx = orFail('bad_field', 'evmTransaction has an invalid field', () =>
		Transaction.fromBytes(raw),
	) as Eip1559Tx;
	return decoded(tx, raw, recoverSigner(tx));
}

function quantity(value: Quantity | undefined, name: string): bigint {
	const v =
		typeof value === 'number' ? (Number.isSafeInteger(value) ? BigInt(value) : NaN) : (value ?? 0n);
	if (typeof v !== 'bigint' || v < 0n) fail('bad_field', `${name} must be a non-negative integer`);
	return v;
}

/** Signs with RFC 6979 (deterministic, no extra entropy), low S; returns the raw signed transaction as `0x` hex. */
export function signEip1559(tx: UnsignedEip1559, priv: Uint8Array | string): string {
	const fields = {
		type: 'eip1559' as const,
		chainId: quantity(tx.chainId, 'chainId'),
		nonce: quantity(tx.nonce, 'nonce'),
		maxPriorityFeePerGas: quantity(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas'),
		maxFeePerGas: quantity(tx.maxFeePerGas, 'maxFeePerGas'),
		gasLimit: quantity(tx.gasLimit, 'gasLimit'),
		to: tx.to ? tx.to.toLowerCase() : '0x',
		value: quantity(tx.value, 'value'),
		data: tx.data ?? '',
		accessList: tx.accessList ?? [],
	};
	const unsigned = orFail('bad_field', 'unsigned transaction', () =>
		Transaction.prepare(fields, false),
	);
	return unsigned.signBy(toPrivateKeyBytes(priv), false).toHex().toLowerCase();
}
