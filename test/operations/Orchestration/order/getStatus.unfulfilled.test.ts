/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * `unfulfilled` is not final (public-notes): Order > Get Status reports it with isFinal false, and
 * Wait Until Final goes on through it until a late deposit resumes the order, or follows the
 * successor an RBF-replaced order names in `supersededByOperationId`, saying so in its output. A
 * price lock that needs the partner's approval ends a wait as action required, like a ZeroConf
 * offer. Nodes in-process against the sandbox over real HTTP.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { executeNodeWithHints } from '../../../harness/n8n';
import { ADDR, CLIENT_ALL, control, orchestrationNode, quoteParams, run, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	// timeScale 40: heartbeats every 375 ms; orders move only when the test moves them
	sb = await startTestSandbox({ timeScale: 40, config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());

const sleep = async (ms: number) => await new Promise((r) => setTimeout(r, ms));

async function post(path: string, body: unknown = {}): Promise<any> {
	const res = await fetch(sb.orchestrationUrl + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	if (res.status >= 400) throw new Error(`${path} -> ${res.status} ${await res.text()}`);
	return await res.json();
}

async function get(path: string): Promise<any> {
	return await (await fetch(sb.orchestrationUrl + path)).json();
}

/** 0.01 BTC on Bitcoin L1 to USDC on Base: the deposit an RBF replacement can replace. */
const bitcoinQuote = (overrides: INodeParameters = {}) =>
	quoteParams({ sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '1000000', recipientAddress: ADDR.evm, ...overrides });

async function order(parameters = quoteParams()): Promise<IDataObject> {
	const [q] = await run(orchestrationNode({ sb, parameters }));
	const { orderId } = await control(sb).deposit({ depositAddress: q.depositAddress, amount: q.amountIn });
	return { ...q, orderId };
}

function waitNode(parameters: INodeParameters = {}, key = SERVER_KEY, typeVersion?: number) {
	return orchestrationNode({
		sb,
		key,
		typeVersion,
		parameters: { resource: 'order', operation: 'getStatus', id: '={{ $json.orderId }}', waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 60, ...parameters },
	});
}

/** Streams the node has open now (the sandbox's listeners for status changes). */
const openStreams = () => sb.orchestration.ctx.events.listenerCount('status');

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (await check()) return;
		await sleep(20);
	}
	throw new Error(`timed out waiting for ${what}`);
}

async function statusReadsOf(orderId: unknown): Promise<any[]> {
	return (await control(sb).requests({ path: '/v1/orchestration/status' })).filter((r: any) => r.query?.id === orderId);
}

describe('unfulfilled is not final', () => {
	it('Get Status reports an unfulfilled order with isFinal false', async () => {
		const o = await order();
		await control(sb).advance(String(o.orderId), 'unfulfilled');
		const [out] = await run(orchestrationNode({ sb, parameters: { resource: 'order', operation: 'getStatus', id: '={{ $json.orderId }}' } }), [{ json: o }]);
		expect(out).toMatchObject({ id: o.orderId, status: 'unfulfilled', isFinal: false });
	});

	it('a wait on the stream goes on through unfulfilled (polling meanwhile) and reaches completed after a late deposit', async () => {
		const o = await order();
		const orderId = String(o.orderId);
		const waiting = executeNodeWithHints(waitNode(), [{ json: o }]);
		await until('the node on the stream', () => openStreams() === 1);
		await control(sb).advance(orderId, 'unfulfilled');
		// the node reads unfulfilled, leaves the stream (a replacement changes no status) and polls
		await until('the node off the stream', () => openStreams() === 0);
		await sleep(500);
		// a late deposit to the same address resumes the order (sandbox: on to confirming)
		const late = await control(sb).deposit({ depositAddress: o.depositAddress, amount: o.amountIn });
		expect(late.orderId).toBe(orderId);
		// the node polls the resumed status and follows the stream again
		await until('the node back on the stream', () => openStreams() === 1);
		for (const status of ['bridging', 'swapping', 'delivering', 'completed']) await control(sb).advance(orderId, status);
		const { output, error, hints } = await waiting;
		expect(error).toBeUndefined();
		const out = output![0][0].json;
		expect(out).toMatchObject({ id: orderId, status: 'completed', isFinal: true, waitEndedBy: 'final', waitTimedOut: false, waitedVia: 'stream' });
		expect(out).not.toHaveProperty('originalOrderId');
		expect((await get(`/sandbox/orders/${orderId}`)).statusHistory).toEqual(['processing', 'unfulfilled', 'confirming', 'bridging', 'swapping', 'delivering', 'completed']);
		// the node saw unfulfilled and did not stop there
		expect((await statusReadsOf(orderId)).length).toBeGreaterThanOrEqual(3);
		expect(hints[0]).toMatchObject({ type: 'info', message: expect.stringMatching(/reached completed after [\d.]+ s \(followed on the event stream\)$/) });
	}, 60_000);

	it('version 2 (polling) waits through unfulfilled too: the old wait ended there with isFinal true', async () => {
		const o = await order();
		const orderId = String(o.orderId);
		await control(sb).advance(orderId, 'unfulfilled');
		const waiting = executeNodeWithHints(waitNode({}, SERVER_KEY, 2), [{ json: o }]);
		await sleep(3500);
		await control(sb).deposit({ depositAddress: o.depositAddress, amount: o.amountIn });
		await control(sb).advance(orderId, 'completed');
		const { output, error } = await waiting;
		expect(error).toBeUndefined();
		expect(output![0][0].json).toMatchObject({ id: orderId, status: 'completed', isFinal: true, waitEndedBy: 'final' });
	}, 30_000);

	it('a timeout while unfulfilled says the order may still resume: no second payment', async () => {
		const o = await order();
		await control(sb).advance(String(o.orderId), 'unfulfilled');
		const last = await executeNodeWithHints(waitNode({ waitTimeoutSeconds: 1, onTimeout: 'returnLastState' }), [{ json: o }]);
		expect(last.output![0][0].json).toMatchObject({ status: 'unfulfilled', isFinal: false, waitTimedOut: true, waitEndedBy: 'timeout' });
		const failed = await executeNodeWithHints(waitNode({ waitTimeoutSeconds: 1 }), [{ json: o }]);
		expect(failed.error?.message).toBe('The order is still "unfulfilled" after waiting 1 s (wait timeout)');
		expect(String((failed.error as any).description)).toMatch(/a late deposit can still resume it, so do not pay again/);
	});
});

describe('a replaced deposit: the wait follows the successor', () => {
	it('follows supersededByOperationId to the successor and says so (originalOrderId, successorOrderId)', async () => {
		const o = await order(bitcoinQuote());
		const original = String(o.orderId);
		const waiting = executeNodeWithHints(waitNode(), [{ json: o }]);
		await until('the node on the stream', () => openStreams() === 1);
		const replaced = await post(`/sandbox/orders/${original}/replace`);
		const successor = String(replaced.successorOrderId);
		expect(replaced.order).toMatchObject({ id: original, status: 'unfulfilled', supersededByOperationId: successor });
		expect(replaced.successor).toMatchObject({ id: successor, recoveredFromOperationId: original, quoteId: o.quoteId });
		// the node leaves the original's stream, reads the successor and follows its stream
		await until('the successor read', async () => (await statusReadsOf(successor)).length > 0);
		await until("the node on the successor's stream", () => openStreams() === 1);
		for (const status of ['confirming', 'completed']) await control(sb).advance(successor, status);
		const { output, error, hints } = await waiting;
		expect(error).toBeUndefined();
		expect(output![0][0].json).toMatchObject({
			id: successor,
			status: 'completed',
			isFinal: true,
			waitEndedBy: 'final',
			originalOrderId: original,
			successorOrderId: successor,
			recoveredFromOperationId: original,
			waitedVia: 'stream',
		});
		expect(hints[0].message).toMatch(new RegExp(`^Item 0: order ${original} \\(replaced by order ${successor}\\) reached completed after`));
		// the original never moved again
		expect((await get(`/sandbox/orders/${original}`)).order.status).toBe('unfulfilled');
	}, 60_000);

	it('a successor named while the original is already unfulfilled (no status change, no stream frame) is found by polling', async () => {
		const o = await order(bitcoinQuote());
		const original = String(o.orderId);
		await control(sb).advance(original, 'unfulfilled');
		const waiting = executeNodeWithHints(waitNode(), [{ json: o }]);
		await sleep(500);
		const { successorOrderId } = await post(`/sandbox/orders/${original}/replace`, { autoAdvance: false });
		await until('the successor read', async () => (await statusReadsOf(successorOrderId)).length > 0);
		await control(sb).advance(successorOrderId, 'completed');
		const { output, error } = await waiting;
		expect(error).toBeUndefined();
		expect(output![0][0].json).toMatchObject({ id: successorOrderId, status: 'completed', isFinal: true, originalOrderId: original, successorOrderId });
		// the original's stream was never opened (unfulfilled from the first read); the successor's was
		expect(await control(sb).requests({ path: `/v1/sse/operations/${original}` })).toHaveLength(0);
		expect(await control(sb).requests({ path: `/v1/sse/operations/${successorOrderId}` })).toHaveLength(1);
	}, 30_000);

	it("by Quote ID with polling: the quote's order is the original; the wait moves to its successor", async () => {
		const o = await order(bitcoinQuote());
		const original = String(o.orderId);
		const { successorOrderId } = await post(`/sandbox/orders/${original}/replace`, { autoAdvance: false });
		await control(sb).advance(successorOrderId, 'completed');
		const { output, hints } = await executeNodeWithHints(waitNode({ lookupBy: 'quoteId', quoteId: '={{ $json.quoteId }}', followBy: 'polling' }), [{ json: o }]);
		expect(output![0][0].json).toMatchObject({ id: successorOrderId, status: 'completed', originalOrderId: original, successorOrderId, waitedVia: 'polling' });
		// the quote's order was found at the first read: the hint names it
		expect(hints[0].message).toMatch(new RegExp(`^Item 0: order ${original} \\(replaced by order ${successorOrderId}\\) reached completed after [\\d.]+ s \\(polled\\)$`));
	});

	it("a client key's order-bound read token cannot read the successor: the error names both orders and the way around", async () => {
		const [q] = await run(orchestrationNode({ sb, key: CLIENT_ALL, parameters: bitcoinQuote() }));
		const [submitted] = await run(
			orchestrationNode({
				sb,
				key: CLIENT_ALL,
				parameters: { resource: 'order', operation: 'submit', quoteId: '={{ $json.quoteId }}', sourceReference: 'bitcoinTxid', bitcoinTxid: 'ab'.repeat(32), bitcoinVout: 0 },
			}),
			[{ json: q }],
		);
		const original = String(submitted.orderId);
		const { successorOrderId } = await post(`/sandbox/orders/${original}/replace`, { autoAdvance: false });
		const { error } = await executeNodeWithHints(waitNode({ readToken: '={{ $json.readToken }}' }, CLIENT_ALL), [{ json: submitted }]);
		expect(error?.message).toBe(`Order ${original} was replaced by order ${successorOrderId} (supersededByOperationId), which this key cannot read (HTTP 403)`);
		expect(String((error as any).description)).toMatch(/read the successor with a server key/);
	});
});

describe('a new price to approve ends a wait as action required', () => {
	it('awaiting_approval under a price lock of mode approval_required: reason repriceApproval, what to do', async () => {
		const o = await order();
		const orderId = String(o.orderId);
		await control(sb).advance(orderId, 'swapping');
		await control(sb).advance(orderId, 'awaiting_approval');
		await post(`/sandbox/orders/${orderId}/report`, { fields: { priceLock: { version: 1, mode: 'approval_required', lockedMinAmountOut: '99000' } } });
		const { output, hints } = await executeNodeWithHints(waitNode({ waitTimeoutSeconds: 600 }), [{ json: o }]);
		const out = output![0][0].json as any;
		expect(out).toMatchObject({ status: 'awaiting_approval', waitEndedBy: 'actionRequired', waitTimedOut: false, zeroconfOffer: null });
		expect(out.actionRequired).toMatchObject({ reason: 'repriceApproval', priceLockMode: 'approval_required', operations: ['Order > Approve Reprice', 'Order > Reject Reprice'] });
		expect(out.actionRequired.message).toMatch(/approval of the new price/);
		expect(hints[0]).toMatchObject({ type: 'warning', message: expect.stringContaining('needs an answer (awaiting_approval)') });
	});

	it('the error code reprice_approval_required ends it in any status that is not final', async () => {
		const o = await order();
		await control(sb).advance(String(o.orderId), 'swapping');
		await post(`/sandbox/orders/${String(o.orderId)}/report`, { fields: { errorCode: 'reprice_approval_required' } });
		const started = Date.now();
		const { output } = await executeNodeWithHints(waitNode({ waitTimeoutSeconds: 600 }), [{ json: o }]);
		expect(output![0][0].json).toMatchObject({ status: 'swapping', waitEndedBy: 'actionRequired', actionRequired: { reason: 'repriceApproval', errorCode: 'reprice_approval_required' } });
		expect(Date.now() - started).toBeLessThan(5000);
	});
});
