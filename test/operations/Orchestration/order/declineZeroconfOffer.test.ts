/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * Order > Decline ZeroConf Offer against the sandbox over HTTP: the reason sent, the order then
 * waits for a confirmation.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { ADDR, control, orchestrationNode, quoteParams, run, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const BTC_QUOTE = quoteParams({ sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '100000', recipientAddress: ADDR.evm });

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });
const orderState = async (id: string): Promise<any> => await (await fetch(`${sb.orchestrationUrl}/sandbox/orders/${id}`)).json();

async function until(id: string, want: string): Promise<any> {
	const deadline = Date.now() + 5000;
	for (;;) {
		const o = await orderState(id);
		if (o.order.status === want) return o;
		if (Date.now() > deadline) throw new Error(`order ${id} did not reach ${want} (it is ${o.order.status})`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

/** A Bitcoin quote created by the node with the ZeroConf opt-in, paid, waiting in awaiting_approval. */
async function offeredOrder(): Promise<string> {
	const [quote] = await run(node({ ...BTC_QUOTE, options: { zeroconfEnabled: 'optIn' } }));
	const [sent] = await control(sb).requests({ path: '/v1/orchestration/quote' });
	expect(sent.body.zeroconfEnabled).toBe(true);
	const { orderId } = await control(sb).deposit({ depositAddress: quote.depositAddress, amount: quote.amountIn, autoAdvance: true });
	await until(orderId, 'awaiting_approval');
	return orderId;
}
const decline = (orderId: string, reason = '') => node({ resource: 'order', operation: 'declineZeroconfOffer', orderId, reason });

describe('Order > Accept / Decline ZeroConf Offer', () => {
	it('declines with a reason: the order waits for a confirmation', async () => {
		const orderId = await offeredOrder();
		const [out] = await run(decline(orderId, 'over our instant limit'));
		expect(out).toMatchObject({ orderId, status: 'confirming', decision: 'declined' });
		const [sent] = await control(sb).requests({ path: '/v1/orchestration/zeroconf/decline' });
		expect(sent.body).toEqual({ orderId, reason: 'over our instant limit' });
		expect((await orderState(orderId)).order.zeroconfOffer.status).toBe('declined');
	});
});
