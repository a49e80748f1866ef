/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * `unfulfilled` is not final, in a real n8n 2.41.1 (through `n8n execute`): Get Status's Wait Until
 * Final (node version 3) follows an order on its event stream, goes on through `unfulfilled`, and
 * reaches `completed` after a late deposit resumes the order; example 5's loop (Get Status -> If
 * not final -> Wait -> Get status again) goes on through an RBF replacement and ends on the
 * successor order.
 */
import { CUSTOM_PREFIX, withNodePrefix } from '../../scripts/lib/n8n-instance';
import { forSandbox, loadExamples } from '../../scripts/lib/examples';
import { closeEnv, createEnv, executeWorkflow, type E2eEnv, type RunResult } from './env';
import { quoteParams } from './orchestration.flows';
import { CREDS, T, linearWorkflow, postJson } from './workflows';

let env: E2eEnv;
const sleep = async (ms: number) => await new Promise((r) => setTimeout(r, ms));

async function sandbox(method: string, path: string, body?: unknown): Promise<any> {
	const res = await fetch(env.sandbox.orchestrationUrl + path, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (res.status >= 400) throw new Error(`${method} ${path} -> ${res.status} ${await res.text()}`);
	return await res.json();
}

async function knownOrders(): Promise<Set<string>> {
	return new Set((await sandbox('GET', '/sandbox/orders')).orders.map((o: any) => String(o.order.id)));
}

/** The id of the next order created, once the sandbox has it. */
async function nextOrder(known: Set<string>, timeoutMs = 120_000): Promise<string> {
	const until = Date.now() + timeoutMs;
	while (Date.now() < until) {
		const fresh = [...(await knownOrders())].find((id) => !known.has(id));
		if (fresh) return fresh;
		await sleep(100);
	}
	throw new Error('no order appeared');
}

/** Streams open at the sandbox now (its listeners for status changes). */
const openStreams = () => env.sandbox.orchestration.ctx.events.listenerCount('status');

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
	const end = Date.now() + timeoutMs;
	while (Date.now() < end) {
		if (await check()) return;
		await sleep(100);
	}
	throw new Error(`timed out waiting for ${what}`);
}

function expectOk(result: RunResult): void {
	if (!result.ok) throw new Error(`the workflow failed:\n${result.raw.slice(-4000)}`);
}

beforeAll(async () => {
	env = await createEnv();
	const example = loadExamples().find((e) => e.workflow.id === 'exLongWaitLoop');
	if (!example) throw new Error('examples/ has no exLongWaitLoop workflow');
	const loop = forSandbox(withNodePrefix(example.workflow, CUSTOM_PREFIX), env.sandbox);
	// 10 minutes between reads in the example; 1 second here
	for (const node of loop.nodes) if (node.type === 'n8n-nodes-base.wait') node.parameters = { ...node.parameters, amount: 1, unit: 'seconds' };
	await env.n8n.importWorkflows([
		linearWorkflow('e2eWaitUnfulfilled', 'e2eWaitUnfulfilled', [
			{ name: 'Start', type: T.manual },
			{ name: 'Quote', type: T.orchestration, typeVersion: 3, credentials: CREDS.server, parameters: { ...quoteParams, authentication: 'serverKey' } },
			postJson('Pay deposit', `${env.sandbox.orchestrationUrl}/sandbox/deposits`, '={{ JSON.stringify({ depositAddress: $json.depositAddress, amount: $json.amountIn }) }}'),
			{
				name: 'Status',
				type: T.orchestration,
				typeVersion: 3,
				credentials: CREDS.server,
				parameters: {
					authentication: 'serverKey',
					resource: 'order',
					operation: 'getStatus',
					lookupBy: 'id',
					id: "={{ $('Pay deposit').first().json.orderId }}",
					waitUntilFinal: true,
					pollIntervalSeconds: 3,
					waitTimeoutSeconds: 240,
				},
			},
		]),
		loop,
	]);
}, 600_000);

afterAll(async () => await closeEnv(env));

describe('unfulfilled is not final (Orchestration node version 3 in n8n)', () => {
	it('Wait Until Final goes on through unfulfilled and reaches completed after a late deposit', async () => {
		await sandbox('POST', '/sandbox/config', { autoAdvance: false });
		const known = await knownOrders();
		const running = executeWorkflow(env, 'e2eWaitUnfulfilled');
		const orderId = await nextOrder(known);
		await until('the node on the stream', () => openStreams() === 1);
		await sandbox('POST', `/sandbox/orders/${orderId}/advance`, { status: 'unfulfilled' });
		// the node reads unfulfilled and polls meanwhile (the old node ended here, isFinal true)
		await until('the node off the stream', () => openStreams() === 0);
		await sleep(1000);
		const { order } = await sandbox('GET', `/sandbox/orders/${orderId}`);
		await sandbox('POST', '/sandbox/deposits', { depositAddress: order.depositAddress, amount: order.amountIn });
		await until('the node back on the stream', () => openStreams() === 1);
		await sandbox('POST', `/sandbox/orders/${orderId}/advance`, { status: 'completed' });
		const result = await running;
		expectOk(result);
		expect(result.outputs.Status[0]).toMatchObject({ id: orderId, status: 'completed', isFinal: true, waitEndedBy: 'final', waitTimedOut: false, waitedVia: 'stream' });
		const history = (await sandbox('GET', `/sandbox/orders/${orderId}`)).statusHistory;
		expect(history.slice(0, 3)).toEqual(['processing', 'unfulfilled', 'confirming']);
		expect(history.at(-1)).toBe('completed');
		const reads = (await sandbox('GET', '/sandbox/requests?path=/v1/orchestration/status')).requests.filter((r: any) => r.query?.id === orderId);
		// the first read, one per change announced on the stream, and the polls while unfulfilled
		expect(reads.length).toBeGreaterThanOrEqual(4);
		expect(result.raw).not.toContain('fn_sandbox_');
	});

	it("example 5's loop goes on through an RBF replacement and ends on the successor order", async () => {
		await sandbox('POST', '/sandbox/config', { autoAdvance: false });
		const known = await knownOrders();
		const running = executeWorkflow(env, 'exLongWaitLoop');
		const original = await nextOrder(known);
		// the loop has read the order at least once (Get status, by quote)
		await until('the first read', async () => (await sandbox('GET', '/sandbox/requests?path=/v1/orchestration/status')).requests.some((r: any) => r.status === 200 && r.query?.quoteId));
		const { successorOrderId } = await sandbox('POST', `/sandbox/orders/${original}/replace`, { autoAdvance: false });
		await sleep(2500);
		await sandbox('POST', `/sandbox/orders/${successorOrderId}/advance`, { status: 'completed' });
		const result = await running;
		expectOk(result);
		expect(result.outputs.Done[0]).toMatchObject({ orderId: successorOrderId, status: 'completed', replacedOrderId: original });
		expect((await sandbox('GET', `/sandbox/orders/${original}`)).order.status).toBe('unfulfilled');
	});
});
