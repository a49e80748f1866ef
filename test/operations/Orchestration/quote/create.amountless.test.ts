/**
 * The amountless Lightning invoice (spec §1, §2.2, §4.1; its field names are unconfirmed, public-notes):
 * a named quote option for Exact In, Variable quotes to lightning:BTC only, refused elsewhere before
 * sending; the sandbox runs the order on the amount actually paid, estimatedOut rescaled to it.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { ADDR, control, orchestrationNode, quoteParams, run, runError, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

/** 100 USDC on Base to a Lightning address, amountless. */
function lightningQuote(overrides: INodeParameters = {}, options: Record<string, unknown> = {}): INodeParameters {
	return quoteParams({
		destinationChain: 'lightning',
		destinationAsset: 'BTC',
		recipientAddress: 'alice@example.com',
		refundAddress: ADDR.evm,
		options: { amountlessInvoice: true, ...options },
		...overrides,
	});
}

describe('quote option: Amountless Lightning Invoice', () => {
	it('is sent as amountlessInvoice and the answer marks the invoice with a boolean', async () => {
		const [q] = await run(orchestrationNode({ sb, parameters: lightningQuote() }));
		const [request] = await control(sb).requests({ path: '/v1/orchestration/quote' });
		expect(request.body).toMatchObject({ amountlessInvoice: true, destinationChain: 'lightning', destinationAsset: 'BTC' });
		expect(q).toMatchObject({ amountlessInvoice: true, amountMode: 'exact_in' });
	});

	it('is not sent when off', async () => {
		await run(orchestrationNode({ sb, parameters: lightningQuote({}, { amountlessInvoice: false }) }));
		const [request] = await control(sb).requests({ path: '/v1/orchestration/quote' });
		expect(request.body).not.toHaveProperty('amountlessInvoice');
	});

	it.each([
		['Exact Out', { amountMode: 'exact_out' }],
		['Fixed delivery', { deliveryMode: 'fixed' }],
		['a bitcoin:BTC destination', { destinationChain: 'bitcoin', recipientAddress: ADDR.bitcoin }],
		['a lightning destination asset other than BTC', { destinationAsset: 'USDC' }],
	])('is refused with %s before any request', async (_case, overrides) => {
		const error = await runError(orchestrationNode({ sb, parameters: lightningQuote(overrides as INodeParameters) }));
		expect(error.message).toMatch(
			/^Invalid "amountlessInvoice" in item 0: an amountless invoice exists only for Exact In, Variable quotes to lightning:BTC/,
		);
		expect(await control(sb).requests()).toEqual([]);
	});

	it('the sandbox refuses it too (400) when sent by hand elsewhere', async () => {
		const res = await fetch(`${sb.orchestrationUrl}/v1/orchestration/quote`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: 'Bearer fn_sandbox_server_partner1', 'x-idempotency-key': `amountless-${Date.now()}` },
			body: JSON.stringify({
				sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'bitcoin', destinationAsset: 'BTC',
				amount: '100000000', recipientAddress: ADDR.bitcoin, amountlessInvoice: true,
			}),
		});
		expect(res.status).toBe(400);
		expect(JSON.stringify(await res.json())).toContain('amountlessInvoice');
	});

	it('the order runs on the amount actually paid, estimatedOut rescaled to it', async () => {
		const [q] = await run(orchestrationNode({ sb, parameters: lightningQuote() }));
		const paid = (BigInt(q.amountIn as string) * 3n) / 2n;
		const { orderId } = await control(sb).deposit({ depositAddress: q.depositAddress, amount: paid.toString() });
		const status = orchestrationNode({ sb, parameters: { resource: 'order', operation: 'getStatus', id: orderId } });
		const [order] = await run(status);
		const expectedOut = (BigInt(q.estimatedOut as string) * paid) / BigInt(q.amountIn as string);
		expect(order).toMatchObject({ amountIn: paid.toString(), estimatedOut: expectedOut.toString() });
		expect(order.stages).not.toContain('amount_reconciled');
		expect(order.amountInFormatted).toEqual(expect.any(String));
	});
});
