/**
 * Order > Decline ZeroConf Offer against the sandbox over HTTP: the reason sent, the order then
 * waits for a confirmation.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, run, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';
import { offeredOrder } from './zeroconfOffer';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });
const decline = (orderId: string, reason = '') => node({ resource: 'order', operation: 'declineZeroconfOffer', orderId, reason });

describe('Order > Decline ZeroConf Offer', () => {
	it('declines with a reason: the order waits for a confirmation', async () => {
		const orderId = await offeredOrder(sb);
		const [out] = await run(decline(orderId, 'over our instant limit'));
		expect(out).toMatchObject({ orderId, status: 'confirming', decision: 'declined' });
		const [sent] = await control(sb).requests({ path: '/v1/orchestration/zeroconf/decline' });
		expect(sent.body).toEqual({ orderId, reason: 'over our instant limit' });
		expect((await control(sb).order(orderId)).order.zeroconfOffer.status).toBe('declined');
	});
});
