/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * Order > Get Status's Wait Until Final (node version 3) on the one wait of both nodes: it follows
 * the event stream, falls back to polling when the stream is refused or silent past the heartbeat
 * gap, ends at once on awaiting_approval, stops on Stop, reports its outcome as an execution hint,
 * and never shows the key it puts in the stream's URL.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { streamTiming } from '../../../../nodes/n8n/wait';
import type { Sandbox } from '../../../../sandbox';
import { executeNodeWithHints } from '../../../harness/n8n';
import { control, orchestrationNode, quoteParams, run, SERVER_KEY, serialized, startTestSandbox } from '../../../harness/orchestration';

const NO_STREAM = 'fnp_sandbox_no_stream';

let sb: Sandbox;
beforeAll(async () => {
	// timeScale 40: heartbeats every 375 ms; orders move only when the test moves them
	sb = await startTestSandbox({ timeScale: 40, config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
afterEach(async () => {
	streamTiming.heartbeatGapMs = 45_000;
	await control(sb).clearFaults();
	await control(sb).config({ sseHeartbeatMs: 15_000 });
});

async function order(key = SERVER_KEY): Promise<IDataObject> {
	const [q] = await run(orchestrationNode({ sb, key, parameters: quoteParams() }));
	const { orderId } = await control(sb).deposit({ depositAddress: q.depositAddress, amount: q.amountIn });
	return { ...q, orderId };
}

function waitNode(parameters: INodeParameters = {}, key = SERVER_KEY, typeVersion?: number) {
	return orchestrationNode({
		sb,
		key,
		typeVersion,
		parameters: { resource: 'order', operation: 'getStatus', id: '={{ $json.orderId }}', waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 30, ...parameters },
	});
}

const sleep = async (ms: number) => await new Promise((r) => setTimeout(r, ms));

async function statusReads(orderId: unknown): Promise<number> {
	return (await control(sb).requests({ path: '/v1/orchestration/status' })).filter((r: any) => JSON.stringify(r).includes(String(orderId))).length;
}

/** Until the node is on the stream (it read the order's status first): the sandbox has a listener for status changes. */
async function onStream(): Promise<void> {
	while (sb.orchestration.ctx.events.listenerCount('status') === 0) await sleep(20);
}

/** Until the sandbox answered `path` (a request of the node it logged). */
async function requested(path: string): Promise<void> {
	while ((await control(sb).requests({ path })).length === 0) await sleep(20);
}

/** Moves the order through `steps`, `gapMs` apart, once the node's stream is open. */
async function moveAlong(orderId: string, steps: string[], gapMs: number): Promise<void> {
	await onStream();
	for (const step of steps) {
		await sleep(gapMs);
		await control(sb).advance(orderId, step);
	}
}

describe('Wait Until Final follows the event stream (version 3)', () => {
	it('follows three changes to completed on the stream, reading /status once per change, and says so in a hint', async () => {
		const o = await order();
		const waiting = executeNodeWithHints(waitNode(), [{ json: o }]);
		await moveAlong(String(o.orderId), ['confirming', 'bridging', 'delivering', 'completed'], 150);
		const { output, error, hints } = await waiting;
		expect(error).toBeUndefined();
		const [out] = output![0].map((i) => i.json);
		expect(out).toMatchObject({ id: o.orderId, status: 'completed', isFinal: true, waitEndedBy: 'final', waitTimedOut: false, waitedVia: 'stream' });
		expect(out.waitFallback).toBeUndefined();
		// the first read, then one per announced change: no polling in between
		expect(await statusReads(o.orderId)).toBe(5);
		expect(hints).toEqual([expect.objectContaining({ type: 'info', message: expect.stringMatching(/^Item 0: order \S+ reached completed after [\d.]+ s \(followed on the event stream\)$/) })]);
	});

	it('falls back to polling when the stream is refused (a client key without orders:sse)', async () => {
		const o = await order(NO_STREAM);
		const waiting = executeNodeWithHints(waitNode({ readToken: '={{ $json.readToken }}' }, NO_STREAM), [{ json: o }]);
		// precondition: the stream was refused before the order completed
		await requested(`/v1/sse/operations/${String(o.orderId)}`);
		await control(sb).advance(String(o.orderId), 'completed');
		const { output, error, hints } = await waiting;
		expect(error).toBeUndefined();
		const [out] = output![0].map((i) => i.json);
		expect(out).toMatchObject({ status: 'completed', waitEndedBy: 'final', waitedVia: 'polling', waitFallback: 'the event stream was refused (HTTP 403 scope_required)' });
		expect(hints[0]).toMatchObject({ type: 'warning', message: expect.stringContaining('polled: the event stream was refused (HTTP 403 scope_required)') });
		expect(serialized({ out, hints })).not.toContain(NO_STREAM);
	});

	it('a stream silent past the heartbeat gap counts as dropped: polling finds what the stream never announced', async () => {
		const o = await order();
		await control(sb).config({ sseHeartbeatMs: 3_600_000 });
		streamTiming.heartbeatGapMs = 400;
		const waiting = executeNodeWithHints(waitNode(), [{ json: o }]);
		await onStream();
		// /status answers completed, the stream says nothing
		await fetch(`${sb.orchestrationUrl}/sandbox/orders/${String(o.orderId)}/report`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'completed' }) });
		const { output } = await waiting;
		expect(output![0][0].json).toMatchObject({ status: 'completed', waitedVia: 'polling', waitFallback: 'the event stream was silent for 0.4 s (no heartbeat)' });
	});

	it('by Quote ID: polls while the quote is unpaid, then follows the order that appears on its stream', async () => {
		const [q] = await run(orchestrationNode({ sb, parameters: quoteParams() }));
		const params = { lookupBy: 'quoteId', quoteId: '={{ $json.quoteId }}', id: undefined };
		await control(sb).clearRequests();
		const waiting = executeNodeWithHints(waitNode(params), [{ json: q }]);
		// precondition: a read found no order for the unpaid quote
		await requested('/v1/orchestration/status');
		expect((await control(sb).requests({ path: '/v1/orchestration/status' }))[0].status).toBe(404);
		const { orderId } = await control(sb).deposit({ depositAddress: q.depositAddress, amount: q.amountIn });
		await moveAlong(String(orderId), ['confirming', 'completed'], 100);
		const { output, hints } = await waiting;
		expect(output![0][0].json).toMatchObject({ id: orderId, status: 'completed', waitEndedBy: 'final', waitedVia: 'stream' });
		expect(hints[0].message).toMatch(new RegExp(`^Item 0: quote ${String(q.quoteId)} reached completed after`));
	});

	it('ends at once on awaiting_approval without an offer (an operator hold) with what to do; the timeout is not waited for', async () => {
		const o = await order();
		const waiting = executeNodeWithHints(waitNode({ waitTimeoutSeconds: 600 }), [{ json: o }]);
		await moveAlong(String(o.orderId), ['swapping', 'awaiting_approval'], 100);
		const { output, hints } = await waiting;
		const out = output![0][0].json as any;
		expect(out).toMatchObject({ status: 'awaiting_approval', waitEndedBy: 'actionRequired', waitTimedOut: false, waitedVia: 'stream', zeroconfOffer: null });
		expect(out.actionRequired).toMatchObject({ reason: 'operatorHold', operations: [] });
		expect(hints[0]).toMatchObject({ type: 'warning', message: expect.stringContaining('needs an answer (awaiting_approval)') });
	});

	it('ends at once on a ZeroConf offer with the operations that answer it', async () => {
		// A Bitcoin deposit to a ZeroConf opt-in quote whose order gets an offer on entering awaiting_approval.
		const [q] = await run(orchestrationNode({ sb, parameters: { ...quoteParams({ sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '100000', recipientAddress: '0x1111111111111111111111111111111111111111' }), options: { zeroconfEnabled: 'optIn' } } }));
		const { orderId } = await control(sb).deposit({ depositAddress: q.depositAddress, amount: q.amountIn, outcome: 'zeroconf_offer', autoAdvance: false });
		const waiting = executeNodeWithHints(waitNode({ waitTimeoutSeconds: 600 }), [{ json: { ...q, orderId } }]);
		await moveAlong(String(orderId), ['awaiting_approval'], 100);
		const { output, error } = await waiting;
		expect(error).toBeUndefined();
		const out = output![0][0].json as any;
		expect(out).toMatchObject({ status: 'awaiting_approval', waitEndedBy: 'actionRequired', waitTimedOut: false, waitedVia: 'stream' });
		expect(out.zeroconfOffer).toMatchObject({ status: 'pending' });
		expect(out.actionRequired).toMatchObject({ reason: 'zeroconfOffer', operations: ['Order > Accept ZeroConf Offer', 'Order > Decline ZeroConf Offer'] });
	});

	it('version 2 keeps polling through awaiting_approval until its timeout (old versions unchanged)', async () => {
		const o = await order();
		await control(sb).advance(String(o.orderId), 'awaiting_approval');
		const { output } = await executeNodeWithHints(waitNode({ waitTimeoutSeconds: 1, onTimeout: 'returnLastState' }, SERVER_KEY, 2), [{ json: o }]);
		const out = output![0][0].json;
		expect(out).toMatchObject({ status: 'awaiting_approval', waitEndedBy: 'timeout', waitTimedOut: true });
		expect(out.waitedVia).toBeUndefined();
		expect(await control(sb).requests({ path: `/v1/sse/operations/${String(o.orderId)}` })).toHaveLength(0);
	});

	it('Stop ends a wait at once, between two polls as on the stream', async () => {
		for (const followBy of ['polling', 'stream']) {
			const o = await order();
			const stop = new AbortController();
			const reads = await statusReads(o.orderId);
			const waiting = executeNodeWithHints(waitNode({ followBy, pollIntervalSeconds: 60, waitTimeoutSeconds: 120 }), [{ json: o }], stop.signal);
			// precondition: the wait began (its first read answered; on the stream, the stream open)
			while ((await statusReads(o.orderId)) === reads) await sleep(20);
			if (followBy === 'stream') await onStream();
			stop.abort();
			const { error } = await waiting;
			expect(error?.message).toBe('The wait was stopped: the execution was cancelled');
			// the poll sleeps 60 s and the stream's heartbeat gap is 45 s: neither can be waited out within the test's timeout
			expect(await statusReads(o.orderId)).toBe(reads + 1);
		}
	});

	it('the key in the stream URL appears in no fallback reason, output, hint or error', async () => {
		const o = await order();
		const orderId = String(o.orderId);
		const body = JSON.stringify({ error: { code: SERVER_KEY, message: `refused /v1/sse/operations/${orderId}?token=${SERVER_KEY}` } });
		await control(sb).fault({ path: `/v1/sse/operations/${orderId}`, mode: 'status', status: 400, body, contentType: 'application/json', times: 'always' });
		const refused = await executeNodeWithHints(waitNode({ waitTimeoutSeconds: 1, onTimeout: 'returnLastState' }), [{ json: o }]);
		expect(refused.output![0][0].json.waitFallback).toBe('the event stream was refused (HTTP 400 [redacted])');
		const failed = await executeNodeWithHints(waitNode({ waitTimeoutSeconds: 1 }), [{ json: o }]);
		expect(failed.error?.message).toMatch(/still "processing" after waiting 1 s/);
		await control(sb).clearFaults();
		await control(sb).fault({ path: `/v1/sse/operations/${orderId}`, mode: 'drop', times: 'always' });
		const dropped = await executeNodeWithHints(waitNode({ waitTimeoutSeconds: 1, onTimeout: 'returnLastState' }), [{ json: o }]);
		expect(dropped.output![0][0].json.waitFallback).toMatch(/^the event stream was refused \(the connection failed/);
		const everything = serialized([refused, failed, dropped]);
		expect(everything).not.toContain(SERVER_KEY);
		expect(everything).not.toContain(SERVER_KEY.slice(3));
	});
});
