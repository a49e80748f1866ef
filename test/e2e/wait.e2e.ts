/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * Wait Until Final in a real n8n 2.41.1 (node version 3, through `n8n execute`): an order followed
 * on the event stream through three changes to completed; a stream refused for a client key
 * without orders:sse that falls back to polling; and example 5, the long-wait loop (Get Status ->
 * If not final -> n8n's Wait node -> back), run to its end.
 */
import { CUSTOM_PREFIX, withNodePrefix } from '../../scripts/lib/n8n-instance';
import { forSandbox, loadExamples } from '../../scripts/lib/examples';
import { closeEnv, createEnv, executeWorkflow, type E2eEnv, type RunResult } from './env';
import { quoteParams } from './orchestration.flows';
import { CREDS, T, linearWorkflow, postJson, type WfNode } from './workflows';

const NO_STREAM_KEY = 'fnp_sandbox_no_stream';
const NO_STREAM_CREDS = { orchestrationClientApi: { id: 'orchSandboxNoStream', name: 'Orchestration sandbox (client key, no orders:sse)' } };

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

function orderIdsNow(orders: any[]): string[] {
	return orders.map((o) => String(o.order?.id ?? o.id));
}

/** The id of the next order created, once the sandbox has it. */
async function nextOrder(known: Set<string>, timeoutMs = 120_000): Promise<string> {
	const until = Date.now() + timeoutMs;
	while (Date.now() < until) {
		const ids = orderIdsNow((await sandbox('GET', '/sandbox/orders')).orders);
		const fresh = ids.find((id) => !known.has(id));
		if (fresh) return fresh;
		await sleep(100);
	}
	throw new Error('no order appeared');
}

async function knownOrders(): Promise<Set<string>> {
	return new Set(orderIdsNow((await sandbox('GET', '/sandbox/orders')).orders));
}

function statusNode(parameters: Record<string, unknown>, credentials: WfNode['credentials'], authentication = 'serverKey'): WfNode {
	return {
		name: 'Status',
		type: T.orchestration,
		typeVersion: 3,
		credentials,
		parameters: {
			authentication,
			resource: 'order',
			operation: 'getStatus',
			lookupBy: 'id',
			id: "={{ $('Pay deposit').first().json.orderId }}",
			waitUntilFinal: true,
			pollIntervalSeconds: 3,
			waitTimeoutSeconds: 120,
			...parameters,
		},
	};
}

function flow(id: string, quote: WfNode, status: WfNode) {
	return linearWorkflow(id, id, [
		{ name: 'Start', type: T.manual },
		quote,
		postJson('Pay deposit', `${env.sandbox.orchestrationUrl}/sandbox/deposits`, "={{ JSON.stringify({ depositAddress: $json.depositAddress, amount: $json.amountIn }) }}"),
		status,
	]);
}

function expectOk(result: RunResult): void {
	if (!result.ok) throw new Error(`the workflow failed:\n${result.raw.slice(-4000)}`);
}

beforeAll(async () => {
	env = await createEnv();
	await env.n8n.importCredentials([
		{ id: NO_STREAM_CREDS.orchestrationClientApi.id, name: NO_STREAM_CREDS.orchestrationClientApi.name, type: 'orchestrationClientApi', data: { baseUrl: env.sandbox.orchestrationUrl, apiKey: NO_STREAM_KEY, origin: '' } },
	]);
	const quote = (credentials: WfNode['credentials'], authentication = 'serverKey'): WfNode => ({
		name: 'Quote',
		type: T.orchestration,
		typeVersion: 3,
		credentials,
		parameters: { ...quoteParams, authentication },
	});
	const example = loadExamples().find((e) => e.workflow.id === 'exLongWaitLoop');
	if (!example) throw new Error('examples/ has no exLongWaitLoop workflow');
	const loop = forSandbox(withNodePrefix(example.workflow, CUSTOM_PREFIX), env.sandbox);
	// 10 minutes between reads in the example; 1 second here
	for (const node of loop.nodes) if (node.type === 'n8n-nodes-base.wait') node.parameters = { ...node.parameters, amount: 1, unit: 'seconds' };
	await env.n8n.importWorkflows([
		flow('e2eWaitStream', quote(CREDS.server), statusNode({}, CREDS.server)),
		flow('e2eWaitRefused', quote(NO_STREAM_CREDS, 'clientKey'), statusNode({ readToken: "={{ $('Quote').first().json.readToken }}" }, NO_STREAM_CREDS, 'clientKey')),
		loop,
	]);
}, 600_000);

afterAll(async () => await closeEnv(env));

describe('Wait Until Final in n8n (Orchestration node version 3)', () => {
	it('follows the event stream through three changes to completed', async () => {
		await sandbox('POST', '/sandbox/config', { autoAdvance: false });
		const known = await knownOrders();
		const running = executeWorkflow(env, 'e2eWaitStream');
		const orderId = await nextOrder(known);
		// the node is on the stream once the sandbox has a listener for status changes
		const events = env.sandbox.orchestration.ctx.events;
		for (let i = 0; i < 600 && events.listenerCount('status') === 0; i++) await sleep(100);
		expect(events.listenerCount('status')).toBe(1);
		for (const status of ['confirming', 'bridging', 'completed']) {
			await sleep(300);
			await sandbox('POST', `/sandbox/orders/${orderId}/advance`, { status });
		}
		const result = await running;
		expectOk(result);
		expect(result.outputs.Status[0]).toMatchObject({ id: orderId, status: 'completed', isFinal: true, waitEndedBy: 'final', waitedVia: 'stream' });
		expect(result.outputs.Status[0].waitFallback).toBeUndefined();
		const reads = (await sandbox('GET', '/sandbox/requests?path=/v1/orchestration/status')).requests.filter((r: any) => JSON.stringify(r).includes(orderId));
		// the first read, then one per change the stream announced: no polling
		expect(reads).toHaveLength(4);
		const streams = (await sandbox('GET', `/sandbox/requests?path=/v1/sse/operations/${orderId}`)).requests;
		expect(streams).toHaveLength(1);
		expect(JSON.stringify(streams)).not.toContain(env.sandbox.keys.orchestration.keys.find((k) => k.type === 'server')?.key.slice(3));
		expect(result.raw).not.toContain('fn_sandbox_');
	});

	it('a stream refused for a client key without orders:sse falls back to polling and still completes', async () => {
		await sandbox('POST', '/sandbox/config', { autoAdvance: false });
		const known = await knownOrders();
		const running = executeWorkflow(env, 'e2eWaitRefused');
		const orderId = await nextOrder(known);
		await sleep(1500);
		await sandbox('POST', `/sandbox/orders/${orderId}/advance`, { status: 'completed' });
		const result = await running;
		expectOk(result);
		expect(result.outputs.Status[0]).toMatchObject({
			id: orderId,
			status: 'completed',
			waitEndedBy: 'final',
			waitedVia: 'polling',
			waitFallback: 'the event stream was refused (HTTP 403 scope_required)',
		});
		const streams = (await sandbox('GET', `/sandbox/requests?path=/v1/sse/operations/${orderId}`)).requests;
		expect(streams.map((r: any) => r.status)).toEqual([403]);
		expect(result.raw).not.toContain(NO_STREAM_KEY);
	});

	it('example 5: Get Status -> If not final -> Wait -> back, until the order is final', async () => {
		await sandbox('POST', '/sandbox/config', { autoAdvance: true, orderStepMs: 30_000 });
		const result = await executeWorkflow(env, 'exLongWaitLoop');
		expectOk(result);
		expect(result.outputs.Done[0]).toMatchObject({ status: 'completed' });
		// more than one read: the loop went through n8n's Wait node at least once
		expect(Number(result.outputs.Done[0].statusReads)).toBeGreaterThan(1);
	});
});
