/**
 * A QR code of a text (a payment URI) as an image: the symbol from `qrcode-generator` (bundled into
 * dist, no dependencies of its own), drawn here as SVG or as a 1-bit grayscale PNG. The PNG is
 * written with stored (uncompressed) deflate blocks: no zlib, so nothing but this file is needed.
 * Pure: text in, bytes out.
 */
import qrcode from 'qrcode-generator';

export type QrFormat = 'png' | 'svg';

export interface QrImage {
	data: Uint8Array;
	mimeType: 'image/png' | 'image/svg+xml';
	extension: QrFormat;
	/** Modules per side (without the quiet zone). */
	modules: number;
}

/** ISO/IEC 18004: a quiet zone of 4 modules around the symbol. */
const QUIET_ZONE = 4;
/** Pixels per module of the PNG: about 500 px for a typical payment URI, readable from a screen. */
const PNG_SCALE = 8;

/** The dark modules of the QR symbol of `text` (error correction M, the smallest version that fits). */
export function qrMatrix(text: string): boolean[][] {
	const qr = qrcode(0, 'M');
	qr.addData(text, 'Byte');
	qr.make();
	const n = qr.getModuleCount();
	return Array.from({ length: n }, (_, row) =>
		Array.from({ length: n }, (_, col) => qr.isDark(row, col)),
	);
}

/** SVG with one path of unit squares, the quiet zone included, scalable (viewBox in modules). */
export function qrSvg(matrix: boolean[][]): string {
	const size = matrix.length + 2 * QUIET_ZONE;
	let path = '';
	matrix.forEach((row, y) =>
		row.forEach((dark, x) => (path += dark ? `M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z` : '')),
	);
	return (
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size * PNG_SCALE}" height="${size * PNG_SCALE}" shape-rendering="crispEdges">` +
		`<rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`
	);
}

// ---------------------------------------------------------------- PNG (RFC 2083), 1-bit grayscale

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
	let c = 0xffffffff;
	for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

function u32(n: number): number[] {
	return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

function chunk(type: string, data: Uint8Array): Uint8Array {
	const typed = concat([[...type].map((c) => c.charCodeAt(0)), data]);
	return concat([u32(data.length), typed, u32(crc32(typed))]);
}

/** zlib stream (RFC 1950) of stored deflate blocks (RFC 1951 §3.2.4), with its Adler-32. */
function zlibStored(raw: Uint8Array): Uint8Array {
	const blocks = Math.max(1, Math.ceil(raw.length / 0xffff));
	const out = new Uint8Array(2 + blocks * 5 + raw.length + 4);
	out.set([0x78, 0x01]);
	let at = 2;
	for (let n = 0; n < blocks; n++) {
		const block = raw.subarray(n * 0xffff, Math.min(raw.length, (n + 1) * 0xffff));
		const len = block.length;
		out.set(
			[n === blocks - 1 ? 1 : 0, len & 0xff, len >>> 8, ~len & 0xff, (~len >>> 8) & 0xff],
			at,
		);
		out.set(block, at + 5);
		at += 5 + len;
	}
	let a = 1;
	let b = 0;
	for (const byte of raw) {
		a = (a + byte) % 65521;
		b = (b + a) % 65521;
	}
	out.set(u32(((b << 16) | a) >>> 0), at);
	return out;
}

function concat(parts: Array<Uint8Array | number[]>): Uint8Array {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}

/** PNG of the symbol: black modules on white, `PNG_SCALE` pixels each, the quiet zone included. */
export function qrPng(matrix: boolean[][]): Uint8Array {
	const side = (matrix.length + 2 * QUIET_ZONE) * PNG_SCALE;
	const rowBytes = Math.ceil(side / 8);
	const raw = new Uint8Array(side * (rowBytes + 1));
	for (let y = 0; y < side; y++) {
		const my = Math.floor(y / PNG_SCALE) - QUIET_ZONE;
		const base = y * (rowBytes + 1); // filter byte 0 (None) first
		for (let x = 0; x < side; x++) {
			const mx = Math.floor(x / PNG_SCALE) - QUIET_ZONE;
			const dark = matrix[my]?.[mx] === true;
			if (!dark) raw[base + 1 + (x >> 3)] |= 0x80 >> (x & 7); // 1 = white in grayscale
		}
		for (let x = side; x < rowBytes * 8; x++) raw[base + 1 + (x >> 3)] |= 0x80 >> (x & 7);
	}
	const header = new Uint8Array([...u32(side), ...u32(side), 1, 0, 0, 0, 0]);
	const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
	return concat([
		signature,
		chunk('IHDR', header),
		chunk('IDAT', zlibStored(raw)),
		chunk('IEND', new Uint8Array()),
	]);
}

/** The QR code of `text` as an image file. */
export function qrImage(text: string, format: QrFormat): QrImage {
	const matrix = qrMatrix(text);
	if (format === 'svg') {
		return {
			data: new TextEncoder().encode(qrSvg(matrix)),
			mimeType: 'image/svg+xml',
			extension: 'svg',
			modules: matrix.length,
		};
	}
	return { data: qrPng(matrix), mimeType: 'image/png', extension: 'png', modules: matrix.length };
}
