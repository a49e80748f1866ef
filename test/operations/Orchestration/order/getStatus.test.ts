/**
 * Order > Get Status against the sandbox over HTTP: one shape for flat and nested answers, the read
 * token of a client key passed on, lookup by quote ID, waiting until final by polling, and exact
 * decimal amounts for the order, its fees and fee payouts.
 */
import type { IDataObject } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import {
	ADDR,
	CLIENT_ALL,
	CLIENT_CHECKOUT,
	control,
	createQuote,
	orchestrationNode,
	quoteParams,
	run,
	runError,
	serialized,
	SERVER_KEY,
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

/** getStatus with the node's defaults: the read token comes from the input item by expression. */
function statusNode(key: string, parameters: Record<string, unknown> = {}) {
	return orchestrationNode({
		sb,
		key,
		parameters: { resource: 'order', operation: 'getStatus', id: '={{ $json.orderId }}', ...parameters },
	});
}

const STATUS_KEYS = ['id', 'status', 'stages', 'stageDetails', 'isFinal'];

describe('Order > Get Status', () => {
	it('with a server key: one shape with id, status, stages, isFinal and the order fields', async () => {
		const order = await submit(await quote());
		await control(sb).advance(order.orderId as string, 'completed');
		const [out] = await run(statusNode(SERVER_KEY), [{ json: order }]);
		expect(out).toMatchObject({ id: order.orderId, status: 'completed', isFinal: true, quoteId: order.quoteId, amountIn: '100000000' });
		expect(out.stages).toEqual(expect.arrayContaining(['deposit_confirmed', 'delivered']));
		expect(out.readToken).toBeUndefined();
		const [get] = await control(sb).requests({ path: '/v1/orchestration/status' }).then((r) => r.slice(-1));
		expect(get.headers['x-read-token']).toBeUndefined();
	});

	it('gives the same shape whether the service answers nested or flat', async () => {
		const order = await submit(await quote());
		await control(sb).advance(order.orderId as string, 'bridging');
		const [nested] = await run(statusNode(SERVER_KEY), [{ json: order }]);
		await control(sb).config({ statusShape: 'flat' });
		try {
			const [flat] = await run(statusNode(SERVER_KEY), [{ json: order }]);
			expect(Object.keys(flat).sort()).toEqual(Object.keys(nested).sort());
			expect({ ...flat, stageDetails: undefined }).toEqual({ ...nested, stageDetails: undefined });
			expect(flat.stageDetails).toEqual(flat.stages);
			expect((nested.stageDetails as IDataObject[])[0]).toMatchObject({ name: 'deposit_confirmed' });
			for (const key of STATUS_KEYS) expect(flat).toHaveProperty(key);
			expect(flat).toMatchObject({ status: 'bridging', isFinal: false });
		} finally {
			await control(sb).config({ statusShape: 'nested' });
		}
	});

	it('with a client key: sends the read token from the previous node and passes it on', async () => {
		const order = await submit(await quote(CLIENT_CHECKOUT), CLIENT_CHECKOUT);
		const [out] = await run(statusNode(CLIENT_CHECKOUT), [{ json: order }]);
		expect(out).toMatchObject({ id: order.orderId, status: 'processing', isFinal: false, readToken: order.readToken });
		const [get] = await control(sb).requests({ path: '/v1/orchestration/status' }).then((r) => r.slice(-1));
		expect(get).toMatchObject({ status: 200, keyType: 'client', headers: { 'x-read-token': 'REDACTED' } });
		expect(serialized(out)).not.toContain(CLIENT_CHECKOUT);
	});

	it('by quote id with the quote-bound token: 404 before funding, the order after', async () => {
		const q = await quote(CLIENT_ALL);
		const node = () =>
			orchestrationNode({ sb, key: CLIENT_ALL, parameters: { resource: 'order', operation: 'getStatus', lookupBy: 'quoteId', quoteId: '={{ $json.quoteId }}' } });
		const before = await runError(node(), [{ json: q }]);
		expect(before.message).toMatch(/^not_found: /);
		// issue 21: the hint points to Get by Quote instead of saying nothing exists
		expect(before.description).toMatch(/^A quote has no order until its deposit is detected\. Use Order > Get by Quote/);
		await control(sb).deposit({ depositAddress: q.depositAddress, amount: q.amountIn });
		const [after] = await run(node(), [{ json: q }]);
		expect(after).toMatchObject({ quoteId: q.quoteId, status: 'processing', readToken: q.readToken });
	});
});

describe('Order > Get Status: waiting until final (polling)', () => {
	it('returns at once when the order is already final', async () => {
		const order = await submit(await quote());
		await control(sb).advance(order.orderId as string, 'refunded');
		const [out] = await run(statusNode(SERVER_KEY, { waitUntilFinal: true }), [{ json: order }]);
		expect(out).toMatchObject({ status: 'refunded', isFinal: true, waitTimedOut: false });
	});

	it('on timeout returns the last state when asked to, or fails', async () => {
		const order = await submit(await quote());
		const reads = async () => (await control(sb).requests({ path: '/v1/orchestration/status' })).length;
		const before = await reads();
		const [last] = await run(
			statusNode(SERVER_KEY, { waitUntilFinal: true, waitTimeoutSeconds: 1, onTimeout: 'returnLastState' }),
			[{ json: order }],
		);
		expect(last).toMatchObject({ status: 'processing', isFinal: false, waitTimedOut: true });
		const error = await runError(statusNode(SERVER_KEY, { waitUntilFinal: true, waitTimeoutSeconds: 1 }), [{ json: order }]);
		expect(error.message).toBe('The order is still "processing" after waiting 1 s (wait timeout)');
		// The 3 s poll interval does not fit in 1 s: no sleep, no second read (one read per run).
		expect((await reads()) - before).toBe(2);
	});

	it('polls with n8n sleep, never faster than every 3 s, until the order completes', async () => {
		const order = await submit(await quote());
		const reads = async () => (await control(sb).requests({ path: '/v1/orchestration/status' })).filter((r) => r.query?.id === order.orderId);
		const before = (await reads()).length;
		// Follow By: Polling (version 3 follows the event stream by default: getStatus.wait.test.ts); a
		// timeout far past the test's own, so only the completed order can end the wait in time.
		const waiting = run(statusNode(SERVER_KEY, { waitUntilFinal: true, followBy: 'polling', pollIntervalSeconds: 1, waitTimeoutSeconds: 600 }), [{ json: order }]);
		// precondition: the first read saw the order still processing
		while ((await reads()).length === before) await new Promise((r) => setTimeout(r, 20));
		await control(sb).advance(order.orderId as string, 'completed');
		const [out] = await waiting;
		expect(out).toMatchObject({ status: 'completed', isFinal: true, waitTimedOut: false });
		expect(out.stages).toEqual(expect.arrayContaining(['delivered']));
		// Two reads, the second 3 s after the first was answered (asked for 1 s), as the sandbox saw them
		const [first, second, ...more] = (await reads()).slice(before);
		expect(more).toEqual([]);
		expect(Date.parse(second.at) - Date.parse(first.at)).toBeGreaterThanOrEqual(3000);
	});
});

describe('Order > Get Status: amounts', () => {
	it('adds exact decimal amounts for the order, its fees and its fee payouts, each payout in its own asset', async () => {
		const [q] = await run(
			orchestrationNode({ sb, parameters: quoteParams({ options: { appFees: { fee: [{ recipient: ADDR.evm, feeBps: 25 }] } } }) }),
		);
		const order = await submit(q);
		await control(sb).advance(order.orderId as string, 'completed');
		const [out] = await run(statusNode(SERVER_KEY), [{ json: order }]);
		expect(out).toMatchObject({ status: 'completed', amountIn: '100000000', amountInFormatted: '100' });
		// USDC has 6 decimals, BTC 8: every formatted value is the integer shifted exactly.
		expect(out.feeAmountFormatted).toBe(shift(out.feeAmount as string, 6));
		expect(out.estimatedOutFormatted).toBe(shift(out.estimatedOut as string, 8));
		const entries = (out.feePayouts as IDataObject).entries as IDataObject[];
		expect(entries.map((e) => e.role).sort()).toEqual(['app_fee', 'platform_fee', 'recipient_payout']);
		// each entry in the asset it is paid in (public-notes): the recipient payout is the BTC delivery
		// (8 decimals), the fee entries are USDC (6)
		for (const e of entries) expect(e.amountFormatted).toBe(shift(e.amount as string, e.role === 'recipient_payout' ? 8 : 6));
		const payout = entries.find((e) => e.role === 'recipient_payout') as IDataObject;
		expect(payout.amount).toBe(out.estimatedOut);
		expect(payout.amountFormatted).toBe(out.estimatedOutFormatted);
	});
});

/** Independent decimal shift for the assertions: string slicing, no arithmetic. */
function shift(value: string, decimals: number): string {
	const padded = value.padStart(decimals + 1, '0');
	const int = padded.slice(0, padded.length - decimals);
	const frac = padded.slice(padded.length - decimals).replace(/0+$/, '');
	return frac ? `${int}.${frac}` : int;
}
