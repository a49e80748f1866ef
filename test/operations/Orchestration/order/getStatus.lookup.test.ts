/**
 * Order > Get Status by quote ID and by transaction hash against the sandbox over HTTP, and the live
 * service's fee payout roles and legs the package does not know.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, quoteParams, run, runError, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });

describe('Order > Get Status by quote ID or transaction hash', () => {
	it('Get Status by quote ID of an unpaid quote: the 404 hint points to Get by Quote', async () => {
		const [quote] = await run(node(quoteParams()));
		const error = await runError(node({ resource: 'order', operation: 'getStatus', lookupBy: 'quoteId', quoteId: quote.quoteId as string }));
		expect(error.message).toMatch(/^not_found: /);
		expect(error.description).toMatch(/Use Order > Get by Quote/);
	});

	it('Get Status by transaction hash and source chain finds the order the deposit created', async () => {
		const [quote] = await run(node(quoteParams()));
		const txHash = `0x${'5e'.repeat(32)}`;
		const { orderId } = await control(sb).deposit({ depositAddress: quote.depositAddress, amount: quote.amountIn, txHash });
		const byTx = (chain: string) => node({ resource: 'order', operation: 'getStatus', lookupBy: 'txHash', txHash, sourceChain: chain });
		const [out] = await run(byTx('base'));
		expect(out).toMatchObject({ id: orderId, status: 'processing', amountInFormatted: '100' });
		const [sent] = await control(sb).requests({ path: '/v1/orchestration/status' });
		expect(sent.query).toEqual({ txHash, sourceChain: 'base' });
		const missing = await runError(byTx('ethereum'));
		expect(missing.description).toMatch(/No order of this partner was created by this transaction on this chain/);
		expect((await runError(node({ resource: 'order', operation: 'getStatus', lookupBy: 'txHash', txHash, sourceChain: '' }))).message).toMatch(/"sourceChain" in item 0: is required/);
	});
});

describe('the live formats', () => {
	it('a fee payout role or leg the package does not know never fails Get Status; its amounts are formatted', async () => {
		const [quote] = await run(node(quoteParams()));
		const { orderId } = await control(sb).deposit({ depositAddress: quote.depositAddress, amount: quote.amountIn });
		const entries = [
			{ role: 'affiliate_bonus', leg: 'deferred', amount: '1500000', platformCutAmount: null, recipientAmount: null },
			{ role: 'app_fee', leg: 'full', amount: '300000', platformCutAmount: '60000', recipientAmount: '240000' },
		];
		const res = await fetch(`${sb.orchestrationUrl}/sandbox/orders/${orderId}/report`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ status: 'Recovery_Review', feePayouts: { entries } }),
		});
		expect(res.status).toBe(200);
		const [out] = await run(node({ resource: 'order', operation: 'getStatus', id: orderId }));
		expect(out).toMatchObject({ id: orderId, status: 'Recovery_Review', isFinal: false });
		expect((out.feePayouts as { entries: IDataObject[] }).entries).toEqual([
			{ ...entries[0], amountFormatted: '1.5' },
			{ ...entries[1], amountFormatted: '0.3', platformCutAmountFormatted: '0.06', recipientAmountFormatted: '0.24' },
		]);
	});
});
