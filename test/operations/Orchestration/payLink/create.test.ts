/**
 * Pay Link > Create against the sandbox over HTTP (public-notes "pay links"): the link in the
 * destination asset (decimal, whole cents for stablecoins) or in US dollars, its QR code, and a
 * payment through it: an order carrying payLinkId and payLinkLabel, as Get Status reads it.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { ADDR, control, orchestrationNode, run, runError, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';
import { executeNode } from '../../../harness/n8n';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters, executionId?: string) => orchestrationNode({ sb, key: SERVER_KEY, executionId, parameters });
const link = (extra: INodeParameters = {}) => ({ resource: 'payLink', operation: 'create', destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: ADDR.evm, amountFormat: 'decimal', amount: '25', label: 'Invoice 42', ...extra });

describe('Pay Link > Create', () => {
	it('creates a link for 25 USDC (sent in smallest units) with its label; a payment through it is an order carrying the link', async () => {
		const [created] = await run(node(link(), 'exec-link-1'));
		expect(created).toMatchObject({ shortId: expect.stringMatching(/^[A-Za-z0-9]{10}$/), shortUrl: expect.stringContaining('/p/'), amountOut: '25000000', label: 'Invoice 42', replayed: false });
		const [sent] = await control(sb).requests({ path: '/v1/pay-links' });
		expect(sent.body).toEqual({ destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: ADDR.evm, amountOut: '25000000', label: 'Invoice 42' });
		// Retry On Fail replays the same link
		const [again] = await run(node(link(), 'exec-link-1'));
		expect(again).toMatchObject({ shortId: created.shortId, replayed: true });
		const paid = await fetch(`${sb.orchestrationUrl}/sandbox/pay-links/${String(created.shortId)}/pay`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ sourceChain: 'ethereum', sourceAsset: 'USDC' }),
		});
		expect(paid.ok).toBe(true);
		const { orderId } = (await paid.json()) as { orderId: string };
		const [order] = await run(node({ resource: 'order', operation: 'getStatus', lookupBy: 'id', id: orderId }));
		expect(order).toMatchObject({ payLinkId: created.shortId, payLinkLabel: 'Invoice 42' });
	});

	it('in US dollars; with a QR code of the link', async () => {
		const [out] = await executeNode(node(link({ amountIn: 'usd', amount: '19.99', options: { qrCode: 'png' } })), [{ json: {} }]);
		const item = out[0];
		expect(item.json).toMatchObject({ amountFiatUsd: '19.99', shortUrl: expect.any(String) });
		expect(item.json).not.toHaveProperty('amountOut');
		expect(item.binary?.qrCode).toMatchObject({ mimeType: 'image/png', fileName: expect.stringMatching(/^pay-link-/) });
	});

	it('refuses before any request: a stablecoin amount that is not whole cents, a USD amount with three decimals, an unlisted chain, a raw address field', async () => {
		const refused: Array<[INodeParameters, RegExp]> = [
			[link({ amount: '25.005' }), /^Invalid "amountOut" in item 0: .*whole cents/],
			[link({ amountIn: 'usd', amount: '1.234' }), /^Invalid "amountFiatUsd" in item 0/],
			[link({ destinationChain: 'atlantis' }), /^Invalid "destinationChain" in item 0/],
			[link({ options: { additionalFields: '{"payoutAddress": "0x1"}' } }), /^Invalid "additionalFields" in item 0: sets "payoutAddress"/],
		];
		for (const [parameters, message] of refused) expect((await runError(node(parameters))).message).toMatch(message);
		expect(await control(sb).requests({ path: '/v1/pay-links' })).toEqual([]);
	});
});
