/** Small hex helpers shared by the gateway modules (strict: even length, hex digits only). */
import {
	bytesToHex as nobleBytesToHex,
	hexToBytes as nobleHexToBytes,
} from '@noble/hashes/utils.js';
import { ProtocolError } from '../errors';

const HEX_RE = /^[0-9a-fA-F]*$/;

/** Drops one leading `0x`/`0X` when present. */
export function strip0x(hex: string): string {
	return hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
}

/** True for an even-length run of hex digits, optionally after `0x`. */
export function isHex(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	const body = strip0x(value);
	return body.length % 2 === 0 && HEX_RE.test(body);
}

/** Hex (optional 0x) to bytes; returns null instead of throwing on malformed input. */
export function tryHexToBytes(value: unknown): Uint8Array | null {
	if (!isHex(value)) return null;
	return nobleHexToBytes(strip0x(value).toLowerCase());
}

/** Lowercase hex without prefix. */
export function bytesToHex(bytes: Uint8Array): string {
	return nobleBytesToHex(bytes);
}

/** Lowercase hex with `0x` prefix. */
export function bytesToPrefixedHex(bytes: Uint8Array): string {
	return `0x${nobleBytesToHex(bytes)}`;
}

/** Big-endian unsigned bytes of a bigint, minimal length (0 -> empty). */
export function bigintToBytes(value: bigint): Uint8Array {
	if (value < 0n)
		throw new ProtocolError('negative values have no unsigned encoding', {
			reason: 'out_of_range',
		});
	if (value === 0n) return new Uint8Array(0);
	let hex = value.toString(16);
	if (hex.length % 2) hex = `0${hex}`;
	return nobleHexToBytes(hex);
}

/** Big-endian fixed-width bytes of a bigint. */
export function bigintToFixedBytes(value: bigint, length: number): Uint8Array {
	const hex = value.toString(16).padStart(length * 2, '0');
	if (hex.length > length * 2)
		throw new ProtocolError(`value does not fit in ${length} bytes`, { reason: 'out_of_range' });
	return nobleHexToBytes(hex);
}

/** Big-endian unsigned integer of bytes (empty -> 0). */
export function bytesToBigint(bytes: Uint8Array): bigint {
	return bytes.length === 0 ? 0n : BigInt(`0x${nobleBytesToHex(bytes)}`);
}

export type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Runs `fn` and returns its value or the thrown error, so callers convert errors outside a catch. */
export function attempt<T>(fn: () => T): Attempt<T> {
	try {
		return { ok: true, value: fn() };
	} catch (error) {
		return { ok: false, error };
	}
}
