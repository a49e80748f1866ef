/**
 * Order > Accept ZeroConf Offer against the sandbox over HTTP: one key per order and action in every
 * execution (a re-run replays), invalid_state as a clear hint, an order ID and a server key checked
 * before any request, and refused as an AI-agent tool unless allowed (Decline too).
 */
import type { INodeParameters } from 'n8n-workflow';
import { Orchestration } from '../../../../nodes/Orchestration/Orchestration.node';
import { TOOL_ACTIONS_OPTION } from '../../../../nodes/n8n/toolMode';
import type { Sandbox } from '../../../../sandbox';
import { callAsTool } from '../../../harness/tool';
import { CLIENT_ALL, control, orchestrationNode, run, runError, SERVER_KEY, SERVER_KEY_PARTNER2, startTestSandbox } from '../../../harness/orchestration';
import { offeredOrder } from './zeroconfOffer';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });

const accept = (orderId: string, key = SERVER_KEY) => node({ resource: 'order', operation: 'acceptZeroconfOffer', orderId }, key);
const decline = (orderId: string, reason = '') => node({ resource: 'order', operation: 'declineZeroconfOffer', orderId, reason });

describe('Order > Accept ZeroConf Offer', () => {
	it('accepts once: the same key from the order in every execution, a re-run replays, the order completes; another order, another key', async () => {
		const orderId = await offeredOrder(sb);
		const [first] = await run(accept(orderId));
		expect(first).toEqual({ orderId, status: 'processing', decision: 'accepted', replayed: false });
		const [again] = await run(accept(orderId));
		expect(again).toEqual({ ...first, replayed: true });
		const sent = await control(sb).requests({ path: '/v1/orchestration/zeroconf/accept' });
		// What the service saw: one key, taken once and replayed to the second execution.
		expect(sent.map((r) => [r.status, r.replayed])).toEqual([[200, false], [200, true]]);
		expect(sent[0].idempotencyKey).toEqual(expect.any(String));
		expect(sent[1].idempotencyKey).toBe(sent[0].idempotencyKey);
		expect(sent[0].body).toEqual({ orderId });
		const done = await control(sb).untilOrder(orderId, 'completed');
		expect(done.order.zeroconfOffer.status).toBe('accepted');
		// Accepting another order is another operation: another key, not a replay of this one.
		const otherId = await offeredOrder(sb);
		await control(sb).clearRequests();
		expect(await run(accept(otherId))).toEqual([{ orderId: otherId, status: 'processing', decision: 'accepted', replayed: false }]);
		const [other] = await control(sb).requests({ path: '/v1/orchestration/zeroconf/accept' });
		expect([other.status, other.replayed]).toEqual([200, false]);
		expect(other.idempotencyKey).not.toBe(sent[0].idempotencyKey);
	});

	it('invalid_state becomes a clear hint (an answered offer, another partner, no offer)', async () => {
		const orderId = await offeredOrder(sb);
		await run(decline(orderId));
		// Declining and accepting the same order are two operations: two keys.
		await run(accept(orderId)).catch(() => undefined);
		const [declined] = await control(sb).requests({ path: '/v1/orchestration/zeroconf/decline' });
		const [accepted] = await control(sb).requests({ path: '/v1/orchestration/zeroconf/accept' });
		expect([declined.replayed, accepted.replayed, accepted.status]).toEqual([false, false, 400]);
		expect(accepted.idempotencyKey).not.toBe(declined.idempotencyKey);
		for (const h of [accept(orderId), accept(orderId, SERVER_KEY_PARTNER2)]) {
			const error = await runError(h);
			expect(error.message).toMatch(/^invalid_state: /);
			expect(error.description).toMatch(/Only an order in awaiting_approval with a pending, unexpired ZeroConf offer of your partner/);
			expect(error.description).toMatch(/Order > Get Status/);
		}
	});

	it('needs an order ID and a server key, before any request', async () => {
		expect((await runError(accept(''))).message).toMatch(/"orderId" in item 0: /);
		const client = await runError(accept('ord_1', CLIENT_ALL));
		expect(client.message).toMatch(/needs a server key/);
		expect(await control(sb).requests({ path: '/v1/orchestration/zeroconf/accept' })).toEqual([]);
	});

	it.each([
		['Order > Accept ZeroConf Offer', 'acceptZeroconfOffer'],
		['Order > Decline ZeroConf Offer', 'declineZeroconfOffer'],
	])('%s is refused as an AI-agent tool unless allowed', async (label, operation) => {
		const parameters = { authentication: 'serverKey', resource: 'order', operation, orderId: 'ord_1' };
		const call = await callAsTool(node(parameters), new Orchestration(), parameters);
		expect(call.error?.message).toContain(`${label} is not available to an AI agent`);
		expect(await control(sb).requests()).toEqual([]);
		const allowed = { ...parameters, [TOOL_ACTIONS_OPTION]: true };
		const ran = await callAsTool(node(allowed), new Orchestration(), allowed);
		expect(ran.error?.message).toMatch(/not_found/);
	});
});
