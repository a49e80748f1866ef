/**
 * Recursive Length Prefix serialization (Ethereum yellow paper, appendix B). Decoding is strict:
 * canonical lengths only and no trailing bytes, so one transaction has exactly one encoding.
 */
import { ProtocolError } from '../errors';

export type RlpItem = Uint8Array | RlpItem[];

/** A malformed encoding; only signed EVM transactions are RLP here, hence the field. */
export class RlpError extends ProtocolError {
	constructor(message: string) {
		super(message, { field: 'evmTransaction', reason: 'bad_rlp' });
		this.name = 'RlpError';
	}
}

function lengthBytes(length: number): Uint8Array {
	const out: number[] = [];
	for (let n = length; n > 0; n = Math.floor(n / 256)) out.unshift(n % 256);
	return Uint8Array.from(out);
}

function header(shortBase: number, length: number): Uint8Array {
	if (length < 56) return Uint8Array.of(shortBase + length);
	const len = lengthBytes(length);
	return Uint8Array.of(shortBase + 55 + len.length, ...len);
}

function concat(parts: Uint8Array[]): Uint8Array {
	const total = parts.reduce((sum, p) => sum + p.length, 0);
	const out = new Uint8Array(total);
	let offset = 0;
	for (const p of parts) {
		out.set(p, offset);
		offset += p.length;
	}
	return out;
}

export function rlpEncode(item: RlpItem): Uint8Array {
	if (item instanceof Uint8Array) {
		if (item.length === 1 && item[0] < 0x80) return Uint8Array.of(item[0]);
		return concat([header(0x80, item.length), item]);
	}
	const payload = concat(item.map(rlpEncode));
	return concat([header(0xc0, payload.length), payload]);
}

function readLength(bytes: Uint8Array, start: number, lenOfLen: number): number {
	if (start + lenOfLen > bytes.length) throw new RlpError('length prefix runs past the end of the input');
	if (bytes[start] === 0) throw new RlpError('length prefix has a leading zero byte');
	let length = 0;
	for (let i = 0; i < lenOfLen; i++) length = length * 256 + bytes[start + i];
	if (length < 56) throw new RlpError('long-form length used for a payload under 56 bytes');
	return length;
}

function decodeAt(bytes: Uint8Array, pos: number): { item: RlpItem; end: number } {
	if (pos >= bytes.length) throw new RlpError('unexpected end of input');
	const b = bytes[pos];
	if (b < 0x80) return { item: bytes.slice(pos, pos + 1), end: pos + 1 };
	let start: number;
	let length: number;
	const isList = b >= 0xc0;
	const base = isList ? 0xc0 : 0x80;
	if (b - base <= 55) {
		start = pos + 1;
		length = b - base;
	} else {
		const lenOfLen = b - base - 55;
		length = readLength(bytes, pos + 1, lenOfLen);
		start = pos + 1 + lenOfLen;
	}
	const end = start + length;
	if (end > bytes.length) throw new RlpError('payload runs past the end of the input');
	if (!isList) {
		if (length === 1 && bytes[start] < 0x80) throw new RlpError('single byte below 0x80 must encode as itself');
		return { item: bytes.slice(start, end), end };
	}
	const items: RlpItem[] = [];
	let cursor = start;
	while (cursor < end) {
		const next = decodeAt(bytes, cursor);
		if (next.end > end) throw new RlpError('list item runs past the end of its list');
		items.push(next.item);
		cursor = next.end;
	}
	return { item: items, end };
}

/** Decodes exactly one item; trailing bytes are an error. */
export function rlpDecode(bytes: Uint8Array): RlpItem {
	const { item, end } = decodeAt(bytes, 0);
	if (end !== bytes.length) throw new RlpError(`${bytes.length - end} trailing bytes after the RLP item`);
	return item;
}
