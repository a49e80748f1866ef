/** Hex as the gateway's wire writes it (execution-gateway.md §2.1, §4): strict, even-length, `0x` optional. */

/** Bytes of an even-length run of hex digits (one optional `0x`), or null. */
export function hexToBytes(value: unknown): Uint8Array | null {
	if (typeof value !== 'string') return null;
	const body = /^0x/i.test(value) ? value.slice(2) : value;
	if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) return null;
	return new Uint8Array(Buffer.from(body, 'hex'));
}

/** Lowercase hex, no prefix. */
export function bytesToHex(bytes: Uint8Array): string {
	return Buffer.from(bytes).toString('hex');
}

/** A 32-byte big-endian word of an unsigned integer, as 64 hex digits (ABI encoding). */
export function word(value: bigint): string {
	if (value < 0n || value >= 2n ** 256n) throw new RangeError('an ABI word holds 0 to 2^256 - 1');
	return value.toString(16).padStart(64, '0');
}
