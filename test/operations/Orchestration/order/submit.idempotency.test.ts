/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * Order > Submit: one payment, one key, across executions (against the sandbox over HTTP).
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, quoteParams, run, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

describe('Order > Submit: one payment, one key, across executions', () => {
	async function paidQuote(): Promise<any> {
		const [q] = await run(orchestrationNode({ sb, parameters: quoteParams() }));
		return q;
	}
	const submitParams = (q: any, extra: INodeParameters = {}): INodeParameters => ({
		resource: 'order', operation: 'submit', quoteId: q.quoteId, txHash: `0x${'cd'.repeat(32)}`, ...extra,
	});

	it('the same quote and deposit reference in a NEW execution replays the first answer: one order', async () => {
		const q = await paidQuote();
		const [first] = await run(orchestrationNode({ sb, parameters: submitParams(q), executionId: 'exec-submit-a' }));
		const [second] = await run(orchestrationNode({ sb, parameters: submitParams(q), executionId: 'exec-submit-b', workflowId: 'wf-other' }));
		expect(second.orderId).toBe(first.orderId);
		const posts = await control(sb).requests({ path: '/v1/orchestration/submit' });
		expect(posts).toHaveLength(2);
		expect(posts[1].idempotencyKey).toBe(posts[0].idempotencyKey);
		expect(posts[0].idempotencyKey).toMatch(/^n8n-submit-[0-9a-f]{64}$/);
		const orders = (await control(sb).quotes()).filter((r: any) => r.quoteId === q.quoteId);
		expect(orders.map((r: any) => r.orderId)).toEqual([first.orderId]);
	});

	it('another deposit reference for the same quote is another key', async () => {
		const q = await paidQuote();
		await run(orchestrationNode({ sb, continueOnFail: true, parameters: submitParams(q) }));
		await run(orchestrationNode({ sb, continueOnFail: true, parameters: submitParams(q, { txHash: `0x${'ef'.repeat(32)}` }) }));
		const [a, b] = await control(sb).requests({ path: '/v1/orchestration/submit' });
		expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
	});

	it('version 2 sends bitcoinVout only when given; version 1 keeps sending its default 0', async () => {
		const btc = (extra: INodeParameters) => ({ resource: 'order', operation: 'submit', quoteId: 'q_unknown', sourceReference: 'bitcoinTxid', bitcoinTxid: 'ab'.repeat(32), ...extra });
		await run(orchestrationNode({ sb, continueOnFail: true, parameters: btc({}) }));
		await run(orchestrationNode({ sb, continueOnFail: true, parameters: btc({ bitcoinVout: '3' }) }));
		await run(orchestrationNode({ sb, continueOnFail: true, parameters: btc({}), typeVersion: 1 }));
		const bodies = (await control(sb).requests({ path: '/v1/orchestration/submit' })).map((r: any) => r.body);
		expect(bodies).toEqual([
			{ quoteId: 'q_unknown', bitcoinTxid: 'ab'.repeat(32) },
			{ quoteId: 'q_unknown', bitcoinTxid: 'ab'.repeat(32), bitcoinVout: 3 },
			{ quoteId: 'q_unknown', bitcoinTxid: 'ab'.repeat(32), bitcoinVout: 0 },
		]);
	});
});
