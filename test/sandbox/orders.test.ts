import { FlatStatusResponseSchema, NestedStatusResponseSchema, OrderByQuoteResponseSchema } from '../../sandbox/orchestration/responses';
import { STAGES } from '../../sandbox/orchestration/spec';
import { ALL_SCOPES, type Client, fundedOrder, quoteBody, SERVER, start, waitFor } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const status = async (id: string) => (await api.get(`/v1/orchestration/status?id=${id}`, { key: SERVER })).body;
const names = (s: { stages: Array<{ name: string }> }) => s.stages.map((x) => x.name);
/** Waits until the order reaches `want`; every poll checks that stages only ever grow (spec §3: monotonic). */
async function until(id: string, want: string) {
	let previous: string[] = [];
	return waitFor(async () => {
		const s = await status(id);
		const now = names(s);
		expect(now.slice(0, previous.length)).toEqual(previous);
		expect(new Set(now).size).toBe(now.length);
		for (const n of now) expect(STAGES).toContain(n);
		previous = now;
		return s.order.status === want ? s : undefined;
	}, 5000, `order ${id} to reach ${want}`);
}

describe('orders from deposits (spec §2.10, §3)', () => {
	it('moves a paid quote through the public statuses to completed, recording monotonic stages', async () => {
		const { orderId, quote } = await fundedOrder(api);
		const done = await until(orderId, 'completed');
		expect(NestedStatusResponseSchema.safeParse(done).success).toBe(true);
		expect(names(done)).toEqual(['deposit_confirmed', 'bridged', 'swapped', 'delivered']);
		expect(done.stages.every((s: { status: string; completedAt: string }) => s.status === 'completed' && !Number.isNaN(Date.parse(s.completedAt)))).toBe(true);
		expect(done.order).toMatchObject({ id: orderId, quoteId: quote.quoteId, amountIn: quote.amountIn, amountOut: quote.estimatedOut, status: 'completed' });
		expect(done.order.swap.execution.amountOut).toBe(quote.estimatedOut);
		const byQuote = await api.get(`/v1/orchestration/status?quoteId=${quote.quoteId}`, { key: SERVER });
		expect(byQuote.body.order.id).toBe(orderId);
	});

	it('answers 404 for a quote-based status before funding, and order-by-quote gives order null', async () => {
		const q = await api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER });
		const s = await api.get(`/v1/orchestration/status?quoteId=${q.body.quoteId}`, { key: SERVER });
		expect(s.status).toBe(404);
		expect(s.body.error).toMatchObject({ code: 'not_found' });
		expect(s.body.error.message).toMatch(/no order yet/);
		const o = await api.get(`/v1/orchestration/order?quoteId=${q.body.quoteId}`, { key: SERVER });
		expect(OrderByQuoteResponseSchema.safeParse(o.body).success).toBe(true);
		expect(o.body).toMatchObject({ quoteId: q.body.quoteId, depositAddress: q.body.depositAddress, order: null });
		await api.post('/sandbox/deposits', { depositAddress: q.body.depositAddress, amount: q.body.amountIn });
		expect((await api.get(`/v1/orchestration/order?quoteId=${q.body.quoteId}`, { key: SERVER })).body.order.status).toBeDefined();
		expect((await api.get('/v1/orchestration/status?quoteId=q_unknown', { key: SERVER })).status).toBe(404);
		expect((await api.get('/v1/orchestration/status', { key: SERVER })).body.error.code).toBe('invalid_query');
	});

	it('records amount_reconciled and updates amountIn and feeAmount when the paid amount differs', async () => {
		const { orderId } = await fundedOrder(api, { amount: '200000000' });
		const done = await until(orderId, 'completed');
		expect(names(done)).toContain('amount_reconciled');
		expect(done.order).toMatchObject({ amountIn: '200000000', feeAmount: '600000', estimatedOut: '199400' });
		const same = await fundedOrder(api);
		expect(names(await until(same.orderId, 'completed'))).not.toContain('amount_reconciled');
	});

	it.each([
		['failed', ['deposit_confirmed', 'bridged']],
		['refunded', ['deposit_confirmed', 'refund_requested', 'refunded']],
		// an unconfirmed or replaced deposit never confirms (processing -> unfulfilled, public-notes)
		['unfulfilled', []],
	])('scripts the %s outcome', async (outcome, stages) => {
		const { orderId } = await fundedOrder(api, { outcome });
		const s = await until(orderId, outcome);
		expect(names(s)).toEqual(stages);
	});

	it('waits in awaiting_approval until advanced by hand, then continues', async () => {
		const { orderId } = await fundedOrder(api, { outcome: 'awaiting_approval' });
		await until(orderId, 'awaiting_approval');
		await new Promise((r) => setTimeout(r, 150));
		expect((await status(orderId)).order.status).toBe('awaiting_approval');
		const moved = await api.post(`/sandbox/orders/${orderId}/advance`, { status: 'swapping' });
		expect(moved.status).toBe(200);
		const done = await until(orderId, 'completed');
		expect(names(done)).toEqual(['deposit_confirmed', 'swapped', 'delivered']);
	});

	it('shows a paused spell as processing without an event, then resumes', async () => {
		const hook = await api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/unreachable' }, { key: SERVER });
		expect(hook.status).toBe(201);
		const { orderId } = await fundedOrder(api, { outcome: 'paused' });
		const seen = new Set<string>();
		let pausedSeen = false;
		await waitFor(async () => {
			const o = await api.get(`/sandbox/orders/${orderId}`);
			seen.add(o.body.order.status);
			if (o.body.paused) {
				pausedSeen = true;
				expect(o.body.order.status).toBe('processing');
			}
			return o.body.order.status === 'completed' ? true : undefined;
		}, 5000, 'paused order to complete');
		expect(pausedSeen).toBe(true);
		const events = (await api.get(`/sandbox/deliveries?orderId=${orderId}`)).body.deliveries.map((d: { event: string }) => d.event);
		expect(events).toEqual(['order.processing', 'order.confirming', 'order.bridging', 'order.swapping', 'order.delivering', 'order.completed']);
	});

	it('records the ZeroConf markers for Bitcoin deposits', async () => {
		const btc = { sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '100000', recipientAddress: '0x1111111111111111111111111111111111111111' };
		const { orderId } = await fundedOrder(api, { outcome: 'zeroconf' }, btc);
		const done = await until(orderId, 'completed');
		expect(names(done)).toEqual(['zeroconf_offer_pending', 'zeroconf_offer_accepted', 'zeroconf_accepted', 'deposit_claimed', 'deposit_confirmed', 'swept', 'bridged', 'swapped', 'delivered']);
		expect(done.order.zeroconfOffer.status).toBe('accepted');
		const declined = await fundedOrder(api, { outcome: 'zeroconf_declined' }, btc);
		expect(names(await until(declined.orderId, 'completed'))).toContain('zeroconf_offer_declined');
		const notBtc = await api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER });
		const r = await api.post('/sandbox/deposits', { depositAddress: notBtc.body.depositAddress, amount: '100000000', outcome: 'zeroconf' });
		expect(r.status).toBe(400);
	});

	it('moves orders by hand only forward and never out of a final status', async () => {
		const { orderId } = await fundedOrder(api, { autoAdvance: false });
		const advance = (s: string) => api.post(`/sandbox/orders/${orderId}/advance`, { status: s });
		expect((await advance('confirming')).status).toBe(200);
		expect((await advance('processing')).body.error.code).toBe('invalid_state');
		expect((await advance('confirming')).body.error.code).toBe('invalid_state');
		const done = await advance('completed');
		expect(done.body.order.status).toBe('completed');
		expect(names(done.body)).toEqual(['deposit_confirmed', 'bridged', 'swapped', 'delivered']);
		expect((await advance('refunded')).body.error.code).toBe('invalid_state');
		expect((await advance('bogus')).status).toBe(400);
		expect((await api.post('/sandbox/orders/ord_missing/advance', { status: 'completed' })).status).toBe(404);
	});

	it('refuses a second deposit to the same address and unknown addresses', async () => {
		const { quote } = await fundedOrder(api);
		expect((await api.post('/sandbox/deposits', { depositAddress: quote.depositAddress, amount: '1' })).body.error.code).toBe('conflict');
		expect((await api.post('/sandbox/deposits', { depositAddress: 'nowhere', amount: '1' })).status).toBe(404);
	});

	it('keeps fee plans and records fee payouts with the 20/80 split', async () => {
		const appFees = [{ recipient: '0x2222222222222222222222222222222222222222', feeBps: 70 }];
		const { orderId } = await fundedOrder(api, {}, { appFees });
		const done = await until(orderId, 'completed');
		expect(done.order.feePlan).toEqual({ platformFeeBps: 30, totalFeeBps: 100, appFees: [{ recipient: appFees[0].recipient, feeBps: 70 }] });
		const entries = done.order.feePayouts.entries;
		const app = entries.find((e: { role: string }) => e.role === 'app_fee');
		expect(app).toEqual({ role: 'app_fee', leg: 'full', amount: '700000', platformCutAmount: '140000', recipientAmount: '560000' });
		const payout = entries.find((e: { role: string }) => e.role === 'recipient_payout');
		expect(payout).toMatchObject({ platformCutAmount: null, recipientAmount: null, amount: done.order.amountOut });
		const aff = await fundedOrder(api, {}, { affiliateId: 'aff_sandbox_alpha' }, ALL_SCOPES);
		const affDone = await until(aff.orderId, 'completed');
		const affEntry = affDone.order.feePayouts.entries.find((e: { role: string }) => e.role === 'app_fee');
		expect(affEntry).toMatchObject({ affiliateId: 'aff_sandbox_alpha', leg: 'holdback', amount: '500000', platformCutAmount: '100000', recipientAmount: '400000' });
		const plain = await fundedOrder(api);
		expect((await status(plain.orderId)).order.feePlan).toBeUndefined();
	});

	it('creates orders with quoteId null from accumulation and liquidation deposits', async () => {
		const acc = await api.post('/sandbox/deposits', { depositAddress: '0x00000000000000000000000000000000acc0ba5e', amount: '250000000' });
		expect(acc.status).toBe(201);
		expect(acc.body.order).toMatchObject({ quoteId: null, sourceChain: 'base', destinationChain: 'spark', destinationAsset: 'BTC' });
		expect(names(await until(acc.body.orderId, 'completed'))).toContain('swept');
		const liq = await api.post('/sandbox/deposits', { depositAddress: 'bc1qsandboxliquidation0000000000000000000000', amount: '100000' });
		expect(liq.body.order).toMatchObject({ quoteId: null, sourceChain: 'bitcoin', destinationChain: 'base', destinationAsset: 'USDC' });
		const disabled = await api.post('/sandbox/deposits', { depositAddress: 'SandboxAccumu1ation11111111111111111111111', amount: '1000000000' });
		expect(disabled.body.error.code).toBe('invalid_state');
	});

	it('answers the flat status shape when switched', async () => {
		await api.post('/sandbox/config', { statusShape: 'flat' });
		const { orderId } = await fundedOrder(api, { autoAdvance: false });
		await api.post(`/sandbox/orders/${orderId}/advance`, { status: 'swapping' });
		const flat = await status(orderId);
		expect(FlatStatusResponseSchema.safeParse(flat).success).toBe(true);
		expect(flat).toMatchObject({ id: orderId, status: 'swapping', stages: ['deposit_confirmed', 'bridged'] });
		expect(flat.order).toBeUndefined();
	});
});

describe('onramp (spec §4.6)', () => {
	it('creates a Lightning onramp whose order waits for the invoice to be paid', async () => {
		const r = await api.post('/v1/orchestration/onramp', { destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: '0x1111111111111111111111111111111111111111', amountFiatUsd: '25.50' }, { key: ALL_SCOPES });
		expect(r.status).toBe(200);
		expect(r.body.depositAddress).toMatch(/^lnbc/);
		expect(r.body.amountIn).toBe('25500'); // 25.50 USD at 100,000 USD/BTC
		expect(r.body.readToken).toMatch(/^rt_/);
		const read = () => api.get(`/v1/orchestration/status?id=${r.body.orderId}&readToken=${r.body.readToken}`, { key: ALL_SCOPES });
		const before = await read();
		expect(before.body.order).toMatchObject({ status: 'processing', amountFiatUsd: '25.50', amountFiatCurrency: 'USD', spotUsdPerBtc: '100000' });
		expect(before.body.order.paymentIntent).toBeDefined();
		expect(before.body.stages).toEqual([]);
		await api.post('/sandbox/deposits', { depositAddress: r.body.depositAddress, amount: r.body.amountIn });
		await waitFor(async () => ((await read()).body.order.status === 'completed' ? true : undefined));
		const both = await api.post('/v1/orchestration/onramp', { destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: '0x1111111111111111111111111111111111111111', amount: '1', amountFiatUsd: '1' }, { key: SERVER });
		expect(both.status).toBe(400);
	});

	it('an onramp order moved by hand before payment goes on forward once paid, never back', async () => {
		const r = await api.post('/v1/orchestration/onramp', { destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: '0x1111111111111111111111111111111111111111', amount: '25000' }, { key: SERVER });
		expect((await api.post(`/sandbox/orders/${r.body.orderId}/advance`, { status: 'delivering' })).status).toBe(200);
		// the hand-moved order may finish on its own before this read on a loaded machine: never back
		expect(['delivering', 'completed']).toContain((await status(r.body.orderId)).order.status);
		await api.post('/sandbox/deposits', { depositAddress: r.body.depositAddress, amount: r.body.amountIn });
		const seen: string[] = [];
		await waitFor(async () => {
			const s = (await status(r.body.orderId)).order.status as string;
			if (seen[seen.length - 1] !== s) seen.push(s);
			return s === 'completed' || s === 'confirming' ? true : undefined;
		}, 5000, 'the onramp order to move on');
		// A loaded machine's first poll may already see `completed`; what must never show is a step back.
		expect(seen[seen.length - 1]).toBe('completed');
		expect(seen.every((s) => s === 'delivering' || s === 'completed')).toBe(true);
	});

	it('fails an offramp to an unavailable recipient after funding (spec §1)', async () => {
		const q = await api.post('/v1/orchestration/offramp', { sourceChain: 'base', sourceAsset: 'USDC', amount: '25000000', recipientAddress: '$unavailable', refundAddress: '0x1111111111111111111111111111111111111111' }, { key: SERVER });
		const d = await api.post('/sandbox/deposits', { depositAddress: q.body.depositAddress, amount: q.body.amountIn });
		await until(d.body.orderId, 'failed');
	});
});
