/**
 * The QR image of a payment URI, read back by an independent decoder (jsQR) from the PNG the node
 * ships (inflated with node:zlib, as any PNG reader would), and the SVG drawn from the same symbol.
 */
import { inflateSync } from 'node:zlib';
import jsQR from 'jsqr';
import { qrImage, qrMatrix, qrSvg } from '../../../nodes/shared/qrImage';

const URI = 'ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x1111111111111111111111111111111111111111&uint256=250000000';

/** A 1-bit grayscale PNG (no interlace, filter 0) as RGBA pixels; checks the chunks' CRCs are what a reader checks. */
function decodePng(png: Uint8Array): { width: number; height: number; rgba: Uint8ClampedArray } {
	const buf = Buffer.from(png);
	expect(buf.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
	let at = 8;
	let width = 0;
	let height = 0;
	const idat: Buffer[] = [];
	while (at < buf.length) {
		const len = buf.readUInt32BE(at);
		const type = buf.toString('latin1', at + 4, at + 8);
		const data = buf.subarray(at + 8, at + 8 + len);
		if (type === 'IHDR') {
			width = data.readUInt32BE(0);
			height = data.readUInt32BE(4);
			expect([...data.subarray(8)]).toEqual([1, 0, 0, 0, 0]);
		}
		if (type === 'IDAT') idat.push(data);
		at += 12 + len;
	}
	const raw = inflateSync(Buffer.concat(idat));
	const rowBytes = Math.ceil(width / 8);
	const rgba = new Uint8ClampedArray(width * height * 4);
	for (let y = 0; y < height; y++) {
		expect(raw[y * (rowBytes + 1)]).toBe(0);
		for (let x = 0; x < width; x++) {
			const bit = (raw[y * (rowBytes + 1) + 1 + (x >> 3)] >> (7 - (x & 7))) & 1;
			rgba.fill(bit ? 255 : 0, (y * width + x) * 4, (y * width + x) * 4 + 3);
			rgba[(y * width + x) * 4 + 3] = 255;
		}
	}
	return { width, height, rgba };
}

describe('qrImage', () => {
	it('PNG: a decoder reads the payment URI back', () => {
		const image = qrImage(URI, 'png');
		expect(image).toMatchObject({ mimeType: 'image/png', extension: 'png' });
		const { width, height, rgba } = decodePng(image.data);
		expect(width).toBe((image.modules + 8) * 8);
		expect(height).toBe(width);
		expect(jsQR(rgba, width, height)?.data).toBe(URI);
	});

	it('PNG of a long Lightning invoice (several hundred characters) still decodes', () => {
		const invoice = `lightning:lnbc1000n1p${'qpzry9x8gf2tvdw0s3jn54khce6mua7l'.repeat(10)}`;
		const { width, height, rgba } = decodePng(qrImage(invoice, 'png').data);
		expect(jsQR(rgba, width, height)?.data).toBe(invoice);
	});

	it('SVG: one dark square per dark module, quiet zone of 4, a white background', () => {
		const matrix = qrMatrix(URI);
		const svg = qrSvg(matrix);
		const dark = matrix.flat().filter(Boolean).length;
		expect(svg.match(/h1v1h-1z/g)).toHaveLength(dark);
		expect(svg).toContain(`viewBox="0 0 ${matrix.length + 8} ${matrix.length + 8}"`);
		expect(svg).toContain('M4 4h1v1h-1z'); // the top-left finder pattern starts inside the quiet zone
		const image = qrImage(URI, 'svg');
		expect(image.mimeType).toBe('image/svg+xml');
		expect(new TextDecoder().decode(image.data)).toBe(svg);
	});
});
