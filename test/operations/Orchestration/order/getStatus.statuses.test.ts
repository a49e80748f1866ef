/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * Order statuses as the live service answers them (issue 10): any case, kinds the spec does not
 * list, `expired`, no `stages`; and Wait Until Final by quote ID through not_found answers until
 * the quote's expiresAt plus a grace period or the wait timeout, whichever comes first.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { CLIENT_ALL, control, orchestrationNode, quoteParams, run, runError, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	// timeScale 40: a quote is firm for 3 s, an order step takes 75 ms
	sb = await startTestSandbox({ timeScale: 40, config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());

async function post(path: string, body: unknown): Promise<any> {
	const res = await fetch(sb.orchestrationUrl + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	if (res.status >= 400) throw new Error(`${path} -> ${res.status} ${await res.text()}`);
	return await res.json();
}

async function quote(key = SERVER_KEY): Promise<IDataObject> {
	const [q] = await run(orchestrationNode({ sb, key, parameters: quoteParams() }));
	return q;
}

async function order(): Promise<IDataObject> {
	const q = await quote();
	const { orderId } = await control(sb).deposit({ depositAddress: q.depositAddress, amount: q.amountIn });
	return { ...q, orderId };
}

const report = (orderId: unknown, body: Record<string, unknown>) => post(`/sandbox/orders/${String(orderId)}/report`, body);

function statusNode(parameters: INodeParameters = {}, key = SERVER_KEY) {
	return orchestrationNode({ sb, key, parameters: { resource: 'order', operation: 'getStatus', id: '={{ $json.orderId }}', ...parameters } });
}

describe('statuses in any spelling', () => {
	it('COMPLETED is completed and final; the output uses the spec spelling, nested and flat', async () => {
		const o = await order();
		await control(sb).advance(o.orderId as string, 'completed');
		await report(o.orderId, { status: 'COMPLETED' });
		const [nested] = await run(statusNode({ waitUntilFinal: true }), [{ json: o }]);
		expect(nested).toMatchObject({ status: 'completed', isFinal: true, waitTimedOut: false, waitEndedBy: 'final' });
		await control(sb).config({ statusShape: 'flat' });
		try {
			const [flat] = await run(statusNode(), [{ json: o }]);
			expect(flat).toMatchObject({ status: 'completed', isFinal: true });
		} finally {
			await control(sb).config({ statusShape: 'nested' });
		}
	});

	it('Bridging in mixed case is bridging, not final', async () => {
		const o = await order();
		await report(o.orderId, { status: 'Bridging' });
		const [out] = await run(statusNode(), [{ json: o }]);
		expect(out).toMatchObject({ status: 'bridging', isFinal: false });
	});

	it('an unknown status never fails the item: passed on as received, not final', async () => {
		const o = await order();
		await report(o.orderId, { status: 'Recovery_Required' });
		const [out] = await run(statusNode(), [{ json: o }]);
		expect(out).toMatchObject({ id: o.orderId, status: 'Recovery_Required', isFinal: false });
	});

	it('expired (any case) is final: waiting returns at once', async () => {
		const o = await order();
		await report(o.orderId, { status: 'EXPIRED' });
		// A wait that went on would poll every 3 s for 10 minutes, past the test's timeout.
		const [out] = await run(statusNode({ waitUntilFinal: true, followBy: 'polling', waitTimeoutSeconds: 600 }), [{ json: o }]);
		expect(out).toMatchObject({ status: 'expired', isFinal: true, waitTimedOut: false });
		// one read: the first answer ended the wait
		expect((await control(sb).requests({ path: '/v1/orchestration/status' })).filter((r) => r.query?.id === o.orderId)).toHaveLength(1);
	});

	it('an answer without stages is valid (empty list), nested and flat', async () => {
		const o = await order();
		await report(o.orderId, { omitStages: true });
		const [nested] = await run(statusNode(), [{ json: o }]);
		expect(nested).toMatchObject({ status: 'processing', stages: [], stageDetails: [], isFinal: false });
		await control(sb).config({ statusShape: 'flat' });
		try {
			const [flat] = await run(statusNode(), [{ json: o }]);
			expect(flat).toMatchObject({ status: 'processing', stages: [], stageDetails: [] });
		} finally {
			await control(sb).config({ statusShape: 'nested' });
		}
	});
});

describe('hostile response fields (issue 14 point 6)', () => {
	it.each([100_000, 1_000_000])('a %i-character amountIn is refused by its length', async (n) => {
		const o = await order();
		await report(o.orderId, { amountIn: `${'0'.repeat(n)}1` });
		// No pattern scans it: test/unit/orchestration/redos.test.ts; the time the whole run takes: `npm run bench -- bounds`.
		const error = await runError(statusNode(), [{ json: o }]);
		expect(error.message).toBe('The status response has an unexpected shape');
		expect(String(error.description)).toContain('order.amountIn: must be an integer string of digits in smallest units (at most 100)');
	});
});

describe('Wait Until Final by quote ID', () => {
	const byQuote = (extra: INodeParameters = {}, key = SERVER_KEY) =>
		orchestrationNode({
			sb,
			key,
			parameters: { resource: 'order', operation: 'getStatus', lookupBy: 'quoteId', quoteId: '={{ $json.quoteId }}', waitUntilFinal: true, pollIntervalSeconds: 3, ...extra },
		});

	it('keeps polling through not_found while the quote is unpaid, then follows the order to its final status', async () => {
		const q = await quote(CLIENT_ALL);
		await control(sb).clearRequests();
		const running = run(byQuote({}, CLIENT_ALL), [{ json: q }]);
		// the deposit arrives while the node is already waiting: after its first read found no order
		while ((await control(sb).requests({ path: '/v1/orchestration/status' })).length === 0) await new Promise((r) => setTimeout(r, 20));
		await control(sb).deposit({ depositAddress: q.depositAddress, amount: q.amountIn, autoAdvance: true });
		const [out] = await running;
		expect(out).toMatchObject({ quoteId: q.quoteId, status: 'completed', isFinal: true, waitTimedOut: false, waitEndedBy: 'final', readToken: q.readToken });
		const reads = await control(sb).requests({ path: '/v1/orchestration/status' });
		expect(reads[0]).toMatchObject({ status: 404 });
		expect(reads.at(-1)).toMatchObject({ status: 200 });
		// expiresAt learned from the quote (public-notes: GET /v1/orchestration/order?quoteId=)
		expect(await control(sb).requests({ path: '/v1/orchestration/order' })).toHaveLength(1);
	});

	it('an unpaid quote ends at expiresAt plus the grace period, and says so', async () => {
		const q = await quote();
		const started = Date.now();
		const error = await runError(byQuote({ quoteGraceSeconds: 0, waitTimeoutSeconds: 60 }), [{ json: q }]);
		expect(error.message).toBe(
			`Quote ${String(q.quoteId)} expired at ${String(q.expiresAt)} and no order appeared within the grace period: its deposit was not paid`,
		);
		// not before the quote's expiry (the wait timeout, 60 s, would have said so instead)
		expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
		const [last] = await run(byQuote({ quoteGraceSeconds: 0, onTimeout: 'returnLastState' }), [{ json: q }]);
		expect(last).toMatchObject({ quoteId: q.quoteId, id: null, status: null, orderFound: false, quoteExpiresAt: q.expiresAt, waitTimedOut: true, waitEndedBy: 'quoteExpired' });
	});

	it('the wait timeout, when it comes first, ends the wait and is named', async () => {
		const q = await quote();
		const error = await runError(byQuote({ waitTimeoutSeconds: 4 }), [{ json: q }]);
		expect(error.message).toBe(`Quote ${String(q.quoteId)} still has no order (not paid yet) after waiting 4 s (wait timeout)`);
		const [last] = await run(byQuote({ waitTimeoutSeconds: 1, onTimeout: 'returnLastState' }), [{ json: q }]);
		expect(last).toMatchObject({ orderFound: false, waitTimedOut: true, waitEndedBy: 'timeout' });
	});

	it('a quote that does not exist fails at once with not_found', async () => {
		const error = await runError(byQuote(), [{ json: { quoteId: 'q_does_not_exist' } }]);
		expect(error.message).toMatch(/^not_found: /);
	});
});
