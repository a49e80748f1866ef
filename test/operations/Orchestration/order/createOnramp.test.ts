/**
 * Order > Create Onramp against the sandbox over HTTP: a BOLT11 invoice with sats converted from BTC,
 * a US dollar amount and an order-bound read token for client keys, fee fields and malformed amounts
 * refused before any request.
 */
import type { Sandbox } from '../../../../sandbox';
import {
	ADDR,
	CLIENT_ALL,
	control,
	orchestrationNode,
	run,
	runError,
	startTestSandbox,
} from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	// Orders move only when a test moves them, except where a test asks for automatic progress.
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());

/** getStatus with the node's defaults: the read token comes from the input item by expression. */
function statusNode(key: string, parameters: Record<string, unknown> = {}) {
	return orchestrationNode({
		sb,
		key,
		parameters: { resource: 'order', operation: 'getStatus', id: '={{ $json.orderId }}', ...parameters },
	});
}

describe('Order > Create Onramp', () => {
	const onramp = (overrides: Record<string, unknown> = {}) => ({
		resource: 'order',
		operation: 'createOnramp',
		destinationChain: 'base',
		destinationAsset: 'USDC',
		recipientAddress: ADDR.evm,
		amountFormat: 'decimal',
		amount: '0.001',
		...overrides,
	});

	it('with a server key: a BOLT11 invoice, sats converted from BTC, formatted amounts', async () => {
		const [out] = await run(orchestrationNode({ sb, parameters: onramp() }));
		expect(out).toMatchObject({ orderId: expect.any(String), amountIn: '100000', amountInFormatted: '0.001' });
		expect(out.depositAddress).toMatch(/^lnbc/);
		expect(out.estimatedOutFormatted).toEqual(expect.any(String));
		const [post] = await control(sb).requests({ path: '/v1/orchestration/onramp' }).then((r) => r.slice(-1));
		expect(post.body.amount).toBe('100000');
		// the amount is written once, in smallest units, where the service's examples put it (no placeholder)
		expect(Object.keys(post.body)).toEqual(['destinationChain', 'destinationAsset', 'recipientAddress', 'amount']);
		expect(post.idempotencyKey).toMatch(/^n8n-/);
	});

	it('with a client key: a US dollar amount and an order-bound read token usable by getStatus', async () => {
		const [out] = await run(
			orchestrationNode({ sb, key: CLIENT_ALL, parameters: onramp({ amountType: 'amountFiatUsd', amountFiatUsd: '25.50' }) }),
		);
		expect(out).toMatchObject({ amountFiatUsd: '25.50', readToken: expect.any(String) });
		const [status] = await run(statusNode(CLIENT_ALL), [{ json: out }]);
		expect(status).toMatchObject({ id: out.orderId, status: 'processing', readToken: out.readToken });
	});

	it('refuses client-key fee fields and a malformed USD amount before any request', async () => {
		await control(sb).clearRequests();
		const fees = await runError(
			orchestrationNode({
				sb,
				key: CLIENT_ALL,
				parameters: onramp({ options: { additionalFields: '{"appFees":[{"recipient":"0x1111111111111111111111111111111111111111","feeBps":5}]}' } }),
			}),
		);
		expect(fees.message).toMatch(/^Invalid "appFees" in item 0: client keys cannot send fee fields/);
		const usd = await runError(orchestrationNode({ sb, parameters: onramp({ amountType: 'amountFiatUsd', amountFiatUsd: '25.505' }) }));
		expect(usd.message).toMatch(/^Invalid "amountFiatUsd" in item 0: must be a USD amount with at most 2 decimals/);
		expect(await control(sb).requests()).toEqual([]);
	});
});
