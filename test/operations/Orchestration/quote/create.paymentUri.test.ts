/**
 * Quote > Create gives a deposit a person can pay (issue 22): `paymentUri` for the source chain's
 * standard, and by option a QR code of it as binary data that a decoder reads back. Over HTTP
 * against the sandbox, on n8n-core's binary helpers.
 */
import { inflateSync } from 'node:zlib';
import jsQR from 'jsqr';
import type { Sandbox } from '../../../../sandbox';
import { ADDR, control, executeNode, items, orchestrationNode, quoteParams, run, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());

const USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** RGBA pixels of the node's 1-bit PNG, for jsQR. */
function pixelsOf(png: Buffer): { rgba: Uint8ClampedArray; side: number } {
	const side = png.readUInt32BE(16);
	const idatLength = png.readUInt32BE(33);
	const raw = inflateSync(png.subarray(41, 41 + idatLength));
	const rowBytes = Math.ceil(side / 8);
	const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
	for (let y = 0; y < side; y++) {
		for (let x = 0; x < side; x++) {
			const white = (raw[y * (rowBytes + 1) + 1 + (x >> 3)] >> (7 - (x & 7))) & 1;
			if (!white) rgba.fill(0, (y * side + x) * 4, (y * side + x) * 4 + 3);
		}
	}
	return { rgba, side };
}

describe('paymentUri', () => {
	it('an ERC-20 deposit on Base: EIP-681 transfer of amountIn to the deposit address', async () => {
		const [out] = await run(orchestrationNode({ sb, parameters: quoteParams() }));
		expect(out.paymentUri).toBe(`ethereum:${USDC_ON_BASE}@8453/transfer?address=${out.depositAddress as string}&uint256=100000000`);
	});

	it('a Bitcoin deposit: BIP21 with the amount in BTC', async () => {
		const params = quoteParams({ sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '150000', recipientAddress: ADDR.evm });
		const [out] = await run(orchestrationNode({ sb, parameters: params }));
		expect(out.paymentUri).toBe(`bitcoin:${out.depositAddress as string}?amount=0.0015`);
	});

	it('an XRP deposit that needs its memo has no payment URI (no standard carries the tag)', async () => {
		const [out] = await run(orchestrationNode({ sb, parameters: quoteParams({ sourceChain: 'xrp', sourceAsset: 'XRP' }) }));
		expect(out.depositMemoRequired).toBe(true);
		expect(out.paymentUri).toBeNull();
		expect(out.paymentUriUnavailable).toBe('no payment link: xrp deposits have no standard payment link here');
	});
});

describe('QR Code option', () => {
	it('PNG: binary field qrCode, an image a decoder reads as the payment URI', async () => {
		const [[item]] = await executeNode(orchestrationNode({ sb, parameters: quoteParams({ options: { qrCode: 'png' } }) }), items());
		const binary = item.binary?.qrCode;
		expect(binary).toMatchObject({ mimeType: 'image/png', fileName: `quote-${item.json.quoteId as string}.png`, fileExtension: 'png' });
		const { rgba, side } = pixelsOf(Buffer.from(binary!.data, 'base64'));
		expect(jsQR(rgba, side, side)?.data).toBe(item.json.paymentUri);
	});

	it('SVG: an SVG image; none for a deposit without a payment URI, and none by default', async () => {
		const [[svg]] = await executeNode(orchestrationNode({ sb, parameters: quoteParams({ options: { qrCode: 'svg' } }) }), items());
		expect(svg.binary?.qrCode.mimeType).toBe('image/svg+xml');
		expect(Buffer.from(svg.binary!.qrCode.data, 'base64').toString('utf8')).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
		const xrp = quoteParams({ sourceChain: 'xrp', sourceAsset: 'XRP', options: { qrCode: 'png' } });
		const [[noUri]] = await executeNode(orchestrationNode({ sb, parameters: xrp }), items());
		expect(noUri.binary).toBeUndefined();
		const [[plain]] = await executeNode(orchestrationNode({ sb, parameters: quoteParams() }), items());
		expect(plain.binary).toBeUndefined();
	});
});

describe('a quote answer that smuggles parameters into its deposit address gets no link and no QR code (issue 32)', () => {
	const SOURCES: Array<{ chain: string; asset: string; amount: string; smuggle: (address: string) => string }> = [
		{ chain: 'bitcoin', asset: 'BTC', amount: '100000000', smuggle: (a) => `${a}?amount=21&pj=https://evil.example/pj&lightning=lnbc1evil?amount=0.001` },
		{ chain: 'litecoin', asset: 'LTC', amount: '100000000', smuggle: (a) => `${a}%3Famount%3D21` },
		{ chain: 'solana', asset: 'SOL', amount: '100000000', smuggle: () => 'https://evil.example/api/transaction-request' },
		{ chain: 'ton', asset: 'GRAM', amount: '1000000000000', smuggle: (a) => `${a}?amount=1&bin=te6cc` },
		{ chain: 'base', asset: 'ETH', amount: '1000000000000000000', smuggle: (a) => `${a}?value=1000000000000000000` },
		{ chain: 'lightning', asset: 'BTC', amount: '1000000', smuggle: (a) => `${a}&amount=0.001` },
	];

	for (const { chain, asset, amount, smuggle } of SOURCES) {
		it(`${chain}: the same quote with a valid address has a link; with parameters smuggled in, none (the item says why)`, async () => {
			const params = quoteParams({ sourceChain: chain, sourceAsset: asset, destinationChain: 'base', destinationAsset: 'USDC', amount, recipientAddress: ADDR.evm, options: { qrCode: 'png' } });
			const [[honest]] = await executeNode(orchestrationNode({ sb, parameters: params }), items());
			expect(typeof honest.json.paymentUri).toBe('string');
			expect(honest.json.paymentUriUnavailable).toBeUndefined();
			expect(honest.binary?.qrCode).toBeDefined();
			// the service answers the next quote with the same body, its deposit address rewritten
			const [stored] = (await control(sb).quotes()).filter((q: { quoteId: unknown }) => q.quoteId === honest.json.quoteId);
			const body = { ...stored.quote, depositAddress: smuggle(String(honest.json.depositAddress)), expiresAt: new Date(Date.now() + 100_000).toISOString() };
			await control(sb).fault({ method: 'POST', path: '/v1/orchestration/quote', mode: 'status', status: 200, body: JSON.stringify(body), contentType: 'application/json' });
			const [[hostile]] = await executeNode(orchestrationNode({ sb, parameters: params }), items());
			expect(hostile.json.depositAddress).toBe(body.depositAddress);
			expect(hostile.json.paymentUri).toBeNull();
			expect(hostile.json.paymentUriUnavailable).toMatch(/^no payment link: the .*deposit (address|invoice) the service answered is not valid \(/);
			expect(hostile.binary).toBeUndefined();
		});
	}
});
