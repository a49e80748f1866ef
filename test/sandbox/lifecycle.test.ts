import { TRANSITIONS } from '../../sandbox/orchestration/transitions';
import { type Client, fundedOrder, quoteBody, SERVER, SERVER2, start, waitFor } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const BTC_SOURCE = { sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '100000', recipientAddress: '0x1111111111111111111111111111111111111111' };

const orderOf = async (id: string) => (await api.get(`/sandbox/orders/${id}`)).body;
async function until(id: string, want: string) {
	return waitFor(async () => {
		const o = await orderOf(id);
		return o.order.status === want ? o : undefined;
	}, 5000, `order ${id} to reach ${want}`);
}

/** Every step of a status history is an edge of the state machine (public-notes). */
function expectAllowed(history: string[]): void {
	for (let i = 1; i < history.length; i++) {
		const [from, to] = [history[i - 1], history[i]] as [keyof typeof TRANSITIONS, string];
		expect({ from, to, allowed: (TRANSITIONS[from] as readonly string[]).includes(to) }).toEqual({ from, to, allowed: true });
	}
}

/** A Bitcoin L1 deposit of a quote that opted into ZeroConf, waiting in awaiting_approval. */
async function offeredOrder() {
	const { orderId } = await fundedOrder(api, {}, { ...BTC_SOURCE, zeroconfEnabled: true });
	const waiting = await until(orderId, 'awaiting_approval');
	return { orderId, waiting };
}

describe('the state machine (public-notes transitions)', () => {
	it.each(['completed', 'failed', 'refunded', 'unfulfilled', 'paused', 'zeroconf', 'zeroconf_declined'])('scripts %s along allowed edges only', async (outcome) => {
		const { orderId } = await fundedOrder(api, { outcome }, outcome.startsWith('zeroconf') ? BTC_SOURCE : {});
		const final = outcome === 'paused' || outcome.startsWith('zeroconf') ? 'completed' : outcome;
		const done = await until(orderId, final);
		expect(done.statusHistory[0]).toBe('processing');
		expect(done.statusHistory.at(-1)).toBe(final);
		expectAllowed(done.statusHistory);
	});

	it('refuses a move by hand that is not an edge, and accepts one that is', async () => {
		const { orderId } = await fundedOrder(api, { autoAdvance: false });
		const advance = (s: string) => api.post(`/sandbox/orders/${orderId}/advance`, { status: s });
		expect((await advance('refunding')).body.error).toMatchObject({ code: 'invalid_state', message: expect.stringMatching(/from processing to refunding/) });
		expect((await advance('bridging')).status).toBe(200);
		expect((await advance('confirming')).body.error.code).toBe('invalid_state');
		expect((await advance('awaiting_approval')).body.error.code).toBe('invalid_state');
		expect((await advance('swapping')).status).toBe(200);
		expect((await advance('awaiting_approval')).status).toBe(200);
		expect((await advance('refunding')).status).toBe(200);
		expect((await advance('delivering')).body.error.code).toBe('invalid_state');
		expect((await advance('refunded')).status).toBe(200);
		expectAllowed((await orderOf(orderId)).statusHistory);
	});
});

describe('ZeroConf offers (public-notes)', () => {
	it('puts an opted-in Bitcoin L1 deposit in awaiting_approval with a pending offer of the documented shape', async () => {
		const { waiting } = await offeredOrder();
		const offer = waiting.order.zeroconfOffer;
		expect(offer).toMatchObject({ version: 1, status: 'pending', quoteId: expect.stringMatching(/^zc_/), vout: 0, resolvedAt: null });
		for (const f of ['depositSats', 'instantSats', 'holdbackSats', 'feeSats']) expect(offer[f]).toMatch(/^[0-9]+$/);
		expect(BigInt(offer.instantSats) + BigInt(offer.holdbackSats) + BigInt(offer.feeSats)).toBe(BigInt(offer.depositSats));
		expect(Date.parse(offer.expiresAt)).toBeGreaterThan(Date.parse(offer.offeredAt));
		expect(offer.txid).toBe(waiting.depositTxHash);
		expect(waiting.stages.map((s: { name: string }) => s.name)).toContain('zeroconf_offer_pending');
	});

	it('accept: processing at once, then completes without waiting for a confirmation; the same key replays', async () => {
		const { orderId } = await offeredOrder();
		const accept = await api.post('/v1/orchestration/zeroconf/accept', { orderId }, { key: SERVER, idem: 'zc-accept-1' });
		expect(accept.status).toBe(200);
		expect(accept.body).toEqual({ orderId, status: 'processing' });
		const replay = await api.post('/v1/orchestration/zeroconf/accept', { orderId }, { key: SERVER, idem: 'zc-accept-1' });
		expect(replay.body).toEqual(accept.body);
		expect(replay.headers.get('x-idempotency-replayed')).toBe('true');
		const again = await api.post('/v1/orchestration/zeroconf/accept', { orderId }, { key: SERVER, idem: 'zc-accept-2' });
		expect(again.status).toBe(400);
		expect(again.body.error).toMatchObject({ code: 'invalid_state', message: expect.stringMatching(/not awaiting_approval|already accepted/) });
		const done = await until(orderId, 'completed');
		expect(done.order.zeroconfOffer).toMatchObject({ status: 'accepted', resolvedAt: expect.any(String) });
		expect(done.stages.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['zeroconf_offer_accepted', 'zeroconf_accepted', 'deposit_claimed']));
		expect(done.statusHistory).not.toContain('confirming');
		expectAllowed(done.statusHistory);
	});

	it('decline: confirming with the reason kept, then completes', async () => {
		const { orderId } = await offeredOrder();
		const decline = await api.post('/v1/orchestration/zeroconf/decline', { orderId, reason: 'treasury policy' }, { key: SERVER });
		expect(decline.body).toEqual({ orderId, status: 'confirming' });
		const done = await until(orderId, 'completed');
		expect(done.order.zeroconfOffer).toMatchObject({ status: 'declined', declineReason: 'treasury policy' });
		expect(done.statusHistory).toContain('confirming');
		expectAllowed(done.statusHistory);
	});

	it('invalid_state: no offer, another partner, an expired offer; 404 for an unknown order; server keys only, with a key', async () => {
		const plain = await fundedOrder(api, { autoAdvance: false });
		const noOffer = await api.post('/v1/orchestration/zeroconf/accept', { orderId: plain.orderId }, { key: SERVER });
		expect(noOffer.body.error).toMatchObject({ code: 'invalid_state', message: expect.stringMatching(/not awaiting_approval/) });
		const hold = await fundedOrder(api, { outcome: 'awaiting_approval' });
		await until(hold.orderId, 'awaiting_approval');
		expect((await api.post('/v1/orchestration/zeroconf/decline', { orderId: hold.orderId }, { key: SERVER })).body.error.message).toMatch(/operator hold/);

		const { orderId } = await offeredOrder();
		expect((await api.post('/v1/orchestration/zeroconf/accept', { orderId }, { key: SERVER2 })).body.error.code).toBe('invalid_state');
		expect((await api.post('/v1/orchestration/zeroconf/accept', { orderId }, { key: 'fnp_sandbox_all_scopes' })).status).toBe(403);
		expect((await api.post('/v1/orchestration/zeroconf/accept', { orderId }, { key: SERVER, idem: '' })).body.error.code).toBe('missing_idempotency_key');
		expect((await api.post('/v1/orchestration/zeroconf/accept', {}, { key: SERVER })).body.error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/orderId/) });
		expect((await api.post('/v1/orchestration/zeroconf/accept', { orderId: 'ord_missing' }, { key: SERVER })).status).toBe(404);

		await api.post('/sandbox/config', { zeroconfOfferMs: 50 });
		await api.post('/sandbox/config', { autoAdvance: false });
		const short = await fundedOrder(api, { autoAdvance: true }, { ...BTC_SOURCE, zeroconfEnabled: true });
		const expired = await until(short.orderId, 'confirming');
		expect(expired.order.zeroconfOffer.status).toBe('expired');
		expect(expired.statusHistory).toEqual(['processing', 'awaiting_approval', 'confirming']);
		expect((await api.post('/v1/orchestration/zeroconf/accept', { orderId: short.orderId }, { key: SERVER })).body.error.code).toBe('invalid_state');
	});
});

describe('finding an order again (public-notes)', () => {
	it('status by txHash + sourceChain finds the order a deposit created; partner-bound; both parameters needed', async () => {
		const q = await api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER });
		const txHash = `0x${'ab'.repeat(32)}`;
		const d = await api.post('/sandbox/deposits', { depositAddress: q.body.depositAddress, amount: q.body.amountIn, txHash });
		expect(d.body).toMatchObject({ txHash, sourceChain: 'base' });
		const found = await api.get(`/v1/orchestration/status?txHash=${txHash.toUpperCase().replace('0X', '0x')}&sourceChain=base`, { key: SERVER });
		expect(found.status).toBe(200);
		expect(found.body.order.id).toBe(d.body.orderId);
		expect((await api.get(`/v1/orchestration/status?txHash=${txHash}&sourceChain=ethereum`, { key: SERVER })).status).toBe(404);
		expect((await api.get(`/v1/orchestration/status?txHash=${txHash}&sourceChain=base`, { key: SERVER2 })).status).toBe(404);
		expect((await api.get(`/v1/orchestration/status?txHash=${txHash}`, { key: SERVER })).body.error.code).toBe('invalid_query');
		// submit records the reference it was given
		const q2 = await api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER });
		const submitted = await api.post('/v1/orchestration/submit', { quoteId: q2.body.quoteId, txHash: '0xfeed' }, { key: SERVER });
		expect((await api.get('/v1/orchestration/status?txHash=0xfeed&sourceChain=base', { key: SERVER })).body.order.id).toBe(submitted.body.orderId);
	});
});
