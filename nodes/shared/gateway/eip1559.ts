/**
 * Signed EIP-1559 (type 0x02) transactions: decoding, hashing and signer recovery for the
 * `evmTransaction` of execution-gateway.md §2.1/§2.4, plus an encoder for tests and the sandbox.
 * Layout (EIP-1559): 0x02 || rlp([chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gasLimit,
 * to, value, data, accessList, yParity, r, s]); the signature covers keccak256 of the first nine.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

import { bigintToBytes, bigintToFixedBytes, bytesToBigint, bytesToHex, bytesToPrefixedHex, strip0x, tryHexToBytes } from './hex';
import { ProtocolError } from '../errors';
import { toPrivateKeyBytes } from './keys';
import { RlpError, rlpDecode, rlpEncode, type RlpItem } from './rlp';

export { RlpError, rlpDecode, rlpEncode, type RlpItem } from './rlp';

const CURVE_N = secp256k1.Point.Fn.ORDER;
const HALF_N = CURVE_N >> 1n;
const TX_TYPE = 0x02;

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

export function keccak256(bytes: Uint8Array): Uint8Array {
	return keccak_256(bytes);
}

/** keccak256 as `0x` lowercase hex. */
export function keccak256Hex(bytes: Uint8Array): string {
	return bytesToPrefixedHex(keccak_256(bytes));
}

/** Ethereum address of a secp256k1 public key (compressed or uncompressed, bytes or hex). */
export function addressFromPublicKey(publicKey: Uint8Array | string): string {
	const bytes = typeof publicKey === 'string' ? tryHexToBytes(publicKey) : publicKey;
	if (!bytes) throw new Eip1559Error('bad_field', 'public key is not hex');
	const uncompressed = secp256k1.Point.fromBytes(bytes).toBytes(false);
	return bytesToPrefixedHex(keccak_256(uncompressed.slice(1)).slice(12));
}

/** EIP-55 mixed-case checksum of a `0x` + 40 hex address (any input case). */
export function toChecksumAddress(address: string): string {
	const body = strip0x(address).toLowerCase();
	if (!/^[0-9a-f]{40}$/.test(body)) throw new Eip1559Error('bad_field', 'address must be 0x followed by 40 hex characters');
	const hash = bytesToHex(keccak_256(new TextEncoder().encode(body)));
	let out = '0x';
	for (let i = 0; i < 40; i++) out += parseInt(hash[i], 16) >= 8 ? body[i].toUpperCase() : body[i];
	return out;
}

/** EIP-2718 envelope: the type byte followed by the RLP payload. */
function typed(payload: Uint8Array): Uint8Array {
	const out = new Uint8Array(payload.length + 1);
	out[0] = TX_TYPE;
	out.set(payload, 1);
	return out;
}

function fail(reason: Eip1559ErrorReason, message: string): never {
	throw new Eip1559Error(reason, message);
}

function asBytes(item: RlpItem | undefined, name: string): Uint8Array {
	if (!(item instanceof Uint8Array)) fail('bad_field', `${name} must be a byte string, not a list`);
	return item;
}

function asUint(item: RlpItem | undefined, name: string, maxBytes = 32): bigint {
	const bytes = asBytes(item, name);
	if (bytes.length > maxBytes) fail('bad_field', `${name} exceeds ${maxBytes * 8} bits`);
	if (bytes.length > 0 && bytes[0] === 0) fail('bad_field', `${name} has a leading zero byte (non-canonical integer)`);
	return bytesToBigint(bytes);
}

function decodeAccessList(item: RlpItem | undefined): AccessListEntry[] {
	if (!Array.isArray(item)) fail('bad_field', 'accessList must be a list');
	return item.map((entry, i) => {
		if (!Array.isArray(entry) || entry.length !== 2) fail('bad_field', `accessList[${i}] must be [address, storageKeys]`);
		const address = asBytes(entry[0], `accessList[${i}].address`);
		if (address.length !== 20) fail('bad_field', `accessList[${i}].address must be 20 bytes`);
		const keys = entry[1];
		if (!Array.isArray(keys)) fail('bad_field', `accessList[${i}].storageKeys must be a list`);
		return {
			address: bytesToPrefixedHex(address),
			storageKeys: keys.map((key, j) => {
				const k = asBytes(key, `accessList[${i}].storageKeys[${j}]`);
				if (k.length !== 32) fail('bad_field', `accessList[${i}].storageKeys[${j}] must be 32 bytes`);
				return bytesToPrefixedHex(k);
			}),
		};
	});
}

/**
 * Decodes and checks a signed EIP-1559 transaction: strict RLP, 12 fields, canonical integers,
 * yParity 0/1, 0 < r < n, 0 < s <= n/2 (EIP-2 low S), and a recoverable signer.
 */
export function decodeSignedEip1559(hex: string): DecodedEip1559 {
	if (typeof hex !== 'string') fail('not_hex', 'evmTransaction must be a hex string');
	const raw = tryHexToBytes(hex.trim());
	if (!raw) fail('not_hex', 'evmTransaction is not valid hex (even number of 0-9a-f digits, optional 0x)');
	if (raw.length === 0) fail('empty', 'evmTransaction is empty');
	if (raw[0] !== TX_TYPE) {
		fail('wrong_type', `evmTransaction must be an EIP-1559 transaction (type byte 0x02), got 0x${raw[0].toString(16).padStart(2, '0')}`);
	}
	let fields: RlpItem;
	try {
		fields = rlpDecode(raw.subarray(1));
	} catch (e) {
		fail('bad_rlp', `evmTransaction has malformed RLP: ${e instanceof RlpError ? e.message : 'decode failed'}`);
	}
	if (!Array.isArray(fields)) fail('bad_rlp', 'evmTransaction payload must be an RLP list');
	if (fields.length !== 12) {
		fail(
			'wrong_field_count',
			fields.length === 9
				? 'evmTransaction is unsigned (9 fields); a signed EIP-1559 transaction has 12'
				: `evmTransaction must have 12 fields, got ${fields.length}`,
		);
	}
	const chainId = asUint(fields[0], 'chainId');
	const nonce = asUint(fields[1], 'nonce');
	const maxPriorityFeePerGas = asUint(fields[2], 'maxPriorityFeePerGas');
	const maxFeePerGas = asUint(fields[3], 'maxFeePerGas');
	const gasLimit = asUint(fields[4], 'gasLimit');
	const toBytes = asBytes(fields[5], 'to');
	if (toBytes.length !== 0 && toBytes.length !== 20) fail('bad_field', 'to must be 20 bytes or empty');
	const value = asUint(fields[6], 'value');
	const data = asBytes(fields[7], 'data');
	const accessList = decodeAccessList(fields[8]);
	const yParityBytes = asBytes(fields[9], 'yParity');
	if (yParityBytes.length > 1 || (yParityBytes.length === 1 && yParityBytes[0] !== 1)) {
		fail('invalid_y_parity', 'yParity must be 0 or 1');
	}
	const yParity = (yParityBytes.length === 1 ? 1 : 0) as 0 | 1;
	const r = asUint(fields[10], 'r');
	const s = asUint(fields[11], 's');
	if (r <= 0n || r >= CURVE_N || s <= 0n || s >= CURVE_N) fail('invalid_signature', 'signature r and s must be in 1..n-1');
	if (s > HALF_N) fail('high_s', 'signature s is in the upper half of the curve order (EIP-2 requires low S)');

	const signingHash = keccak_256(typed(rlpEncode(fields.slice(0, 9))));
	let from: string;
	try {
		const point = new secp256k1.Signature(r, s).addRecoveryBit(yParity).recoverPublicKey(signingHash);
		from = bytesToPrefixedHex(keccak_256(point.toBytes(false).slice(1)).slice(12));
	} catch {
		fail('invalid_signature', 'signer cannot be recovered from the signature');
	}
	return {
		type: 2,
		chainId,
		nonce,
		maxPriorityFeePerGas,
		maxFeePerGas,
		gasLimit,
		to: toBytes.length ? bytesToPrefixedHex(toBytes) : null,
		value,
		data: bytesToPrefixedHex(data),
		accessList,
		yParity,
		r: bytesToPrefixedHex(bigintToFixedBytes(r, 32)),
		s: bytesToPrefixedHex(bigintToFixedBytes(s, 32)),
		hash: keccak256Hex(raw),
		signingHash: bytesToPrefixedHex(signingHash),
		from,
		fromChecksum: toChecksumAddress(from),
		raw: bytesToPrefixedHex(raw),
	};
}

function quantity(value: Quantity | undefined, name: string): Uint8Array {
	const v = typeof value === 'number' ? (Number.isSafeInteger(value) ? BigInt(value) : NaN) : (value ?? 0n);
	if (typeof v !== 'bigint' || v < 0n) throw new Eip1559Error('bad_field', `${name} must be a non-negative integer`);
	return bigintToBytes(v);
}

function hexField(value: string | undefined, name: string, length?: number): Uint8Array {
	const bytes = tryHexToBytes(value ?? '0x');
	if (!bytes) throw new Eip1559Error('bad_field', `${name} must be hex`);
	if (length !== undefined && bytes.length !== length) throw new Eip1559Error('bad_field', `${name} must be ${length} bytes`);
	return bytes;
}

function unsignedFields(tx: UnsignedEip1559): RlpItem[] {
	return [
		quantity(tx.chainId, 'chainId'),
		quantity(tx.nonce, 'nonce'),
		quantity(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas'),
		quantity(tx.maxFeePerGas, 'maxFeePerGas'),
		quantity(tx.gasLimit, 'gasLimit'),
		tx.to ? hexField(tx.to, 'to', 20) : new Uint8Array(0),
		quantity(tx.value, 'value'),
		hexField(tx.data, 'data'),
		(tx.accessList ?? []).map((e) => [
			hexField(e.address, 'accessList.address', 20),
			e.storageKeys.map((k) => hexField(k, 'accessList.storageKey', 32)),
		]),
	];
}

/** Signs with RFC 6979 (deterministic), low S; returns the raw signed transaction as `0x` hex. */
export function signEip1559(tx: UnsignedEip1559, priv: Uint8Array | string): string {
	const fields = unsignedFields(tx);
	const signingHash = keccak_256(typed(rlpEncode(fields)));
	const sig = secp256k1.Signature.fromBytes(
		secp256k1.sign(signingHash, toPrivateKeyBytes(priv), { prehash: false, lowS: true, format: 'recovered' }),
		'recovered',
	);
	const signed = [
		...fields,
		bigintToBytes(BigInt(sig.recovery ?? 0)),
		bigintToBytes(sig.r),
		bigintToBytes(sig.s),
	];
	return bytesToPrefixedHex(typed(rlpEncode(signed)));
}
