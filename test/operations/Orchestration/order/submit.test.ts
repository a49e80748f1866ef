/**
 * Order > Submit against the sandbox over HTTP: the paid quote submitted with its deposit reference
 * and its own idempotency key; a client key's order-bound read token; a missing quote ID refused
 * before any request.
 */
import type { IDataObject } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import {
	CLIENT_CHECKOUT,
	control,
	createQuote,
	orchestrationNode,
	runError,
	startTestSandbox,
	submitQuote,
} from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	// Orders move only when a test moves them, except where a test asks for automatic progress.
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());

const quote = (key?: string) => createQuote(sb, key);
const submit = (q: IDataObject, key?: string) => submitQuote(sb, q, key);

describe('Order > Submit', () => {
	it('with a server key: submits the paid quote with its deposit reference and its own idempotency key', async () => {
		const q = await quote();
		const out = await submit(q);
		expect(out).toMatchObject({ orderId: expect.any(String), status: 'processing', quoteId: q.quoteId });
		expect(out.readToken).toBeUndefined();
		const [post] = await control(sb).requests({ path: '/v1/orchestration/submit' });
		expect(post.body).toEqual({ quoteId: q.quoteId, txHash: `0x${'ab'.repeat(32)}` });
		expect(post.idempotencyKey).toMatch(/^n8n-submit-[0-9a-f]{64}$/);
	});

	it('with a client key: returns an order-bound read token', async () => {
		const out = await submit(await quote(CLIENT_CHECKOUT), CLIENT_CHECKOUT);
		expect(out.readToken).toEqual(expect.any(String));
	});

	it('refuses a missing quote id before any request', async () => {
		await control(sb).clearRequests();
		const h = orchestrationNode({ sb, parameters: { resource: 'order', operation: 'submit', quoteId: '', txHash: '0x01' } });
		expect((await runError(h)).message).toBe('Invalid "quoteId" in item 0: Required');
		expect(await control(sb).requests()).toEqual([]);
	});
});
