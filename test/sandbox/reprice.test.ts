/**
 * Price re-approval (public-notes, fourth harvest): an order whose locked price can no longer be
 * honoured waits in awaiting_approval with `error`, `priceLock` and `reprice`; the partner approves a
 * new minimum, rejects, or has a Bitcoin deposit refunded, with a server key and an idempotency key.
 */
import { NestedStatusResponseSchema, RepriceAnswerSchema } from '../../sandbox/orchestration/responses';
import { TRANSITIONS } from '../../sandbox/orchestration/transitions';
import { webhookSignature } from '../../sandbox';
import { ALL_SCOPES, type Client, fundedOrder, receiver, SERVER, SERVER2, start, waitFor } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const APPROVE = '/v1/orchestration/reprice/approve';
const REJECT = '/v1/orchestration/reprice/reject';
const REFUND = '/v1/orchestration/reprice/refund';
const BTC_REFUND = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const EVM = '0x1111111111111111111111111111111111111111';
const BTC_SOURCE = { sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '100000', recipientAddress: EVM };

const orderOf = async (id: string) => (await api.get(`/sandbox/orders/${id}`)).body;
async function until(id: string, want: string) {
	return waitFor(async () => {
		const o = await orderOf(id);
		return o.order.status === want ? o : undefined;
	}, 5000, `order ${id} to reach ${want}`);
}
const statusOf = async (id: string) => (await api.get(`/v1/orchestration/status?id=${id}`, { key: SERVER })).body;

function expectAllowed(history: string[]): void {
	for (let i = 1; i < history.length; i++) {
		const [from, to] = [history[i - 1], history[i]] as [keyof typeof TRANSITIONS, string];
		expect({ from, to, allowed: (TRANSITIONS[from] as readonly string[]).includes(to) }).toEqual({ from, to, allowed: true });
	}
}

/** A funded order that stops for a re-approval (the `reprice` outcome), waiting in awaiting_approval. */
async function repricedOrder(quote: Record<string, unknown> = {}) {
	const funded = await fundedOrder(api, { outcome: 'reprice' }, quote);
	const waiting = await until(funded.orderId, 'awaiting_approval');
	return { ...funded, waiting };
}

describe('an order that needs a re-approval (public-notes, fourth harvest)', () => {
	it('stops at its swap in awaiting_approval with error, priceLock and reprice in status, webhooks and the stream', async () => {
		const rec = await receiver();
		try {
			const hook = (await api.post('/v1/webhooks', { url: rec.url }, { key: SERVER })).body;
			const { orderId, quote, waiting } = await repricedOrder();
			expect(waiting.statusHistory).toEqual(['processing', 'confirming', 'bridging', 'swapping', 'awaiting_approval']);
			// the swap did not execute
			expect(waiting.stages.map((s: { name: string }) => s.name)).not.toContain('swapped');
			const status = await statusOf(orderId);
			expect(NestedStatusResponseSchema.safeParse(status).success).toBe(true);
			const { order } = status;
			expect(order.error).toEqual({ code: 'reprice_approval_required', message: expect.any(String) });
			expect(order.errorCode).toBe('reprice_approval_required');
			expect(order.priceLock).toEqual({
				version: 1, mode: 'approval_required', amountIn: quote.amountIn, quotedAmountOut: quote.estimatedOut,
				lockedMinAmountOut: quote.lockedMinAmountOut, slippageBps: 100, createdAt: expect.any(String), expiresAt: quote.expiresAt,
			});
			expect(Date.parse(order.priceLock.createdAt)).toBeLessThan(Date.parse(order.priceLock.expiresAt));
			expect(order.reprice).toEqual({
				version: 1, status: 'awaiting_approval', previousLockedMinAmountOut: quote.lockedMinAmountOut,
				proposedMinAmountOut: expect.stringMatching(/^[0-9]+$/), latestExpectedAmountOut: expect.stringMatching(/^[0-9]+$/),
				requestedAt: expect.any(String), resolvedAt: null, reason: 'insufficient_input',
			});
			expect(BigInt(order.reprice.proposedMinAmountOut)).toBeLessThan(BigInt(order.reprice.previousLockedMinAmountOut));
			expect(BigInt(order.reprice.proposedMinAmountOut)).toBeLessThanOrEqual(BigInt(order.reprice.latestExpectedAmountOut));

			const delivery = await waitFor(() => rec.received.map((r) => ({ r, env: JSON.parse(r.raw.toString('utf8')) })).find((x) => x.env.event === 'order.awaiting_approval'));
			const ts = delivery.r.headers['x-service-timestamp'] as string;
			expect(delivery.r.headers['x-service-signature']).toBe(webhookSignature(hook.secret, ts, delivery.r.raw.toString('utf8')));
			expect(delivery.env.data).toMatchObject({ id: orderId, status: 'awaiting_approval', error: order.error, priceLock: order.priceLock, reprice: order.reprice });

			const stream = await fetch(`${sb.orchestrationUrl}/v1/sse/operations/${orderId}?token=${SERVER}`);
			const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
			const first = new TextDecoder().decode((await reader.read()).value);
			await reader.cancel();
			expect(first).toMatch(/event: status\ndata: \{"status":"awaiting_approval"\}/);
		} finally {
			await rec.close();
		}
	});

	it('approve: swapping at once, then completes delivering at least the approved minimum; the same key replays', async () => {
		const { orderId, waiting } = await repricedOrder();
		const proposed = waiting.order.reprice.proposedMinAmountOut as string;
		const approve = await api.post(APPROVE, { orderId, approvedMinAmountOut: proposed }, { key: SERVER, idem: 'rp-approve-1' });
		expect([approve.status, approve.body]).toEqual([200, { orderId, status: 'swapping' }]);
		expect(RepriceAnswerSchema.safeParse(approve.body).success).toBe(true);
		const replay = await api.post(APPROVE, { orderId, approvedMinAmountOut: proposed }, { key: SERVER, idem: 'rp-approve-1' });
		expect([replay.body, replay.headers.get('x-idempotency-replayed')]).toEqual([approve.body, 'true']);
		expect((await api.post(APPROVE, { orderId, approvedMinAmountOut: proposed }, { key: SERVER, idem: 'rp-approve-1b' })).body.error.code).toBe('invalid_state');

		const done = await until(orderId, 'completed');
		expect(BigInt(done.order.amountOut)).toBeGreaterThanOrEqual(BigInt(proposed));
		expect(done.order.reprice).toMatchObject({ status: 'approved', approvedMinAmountOut: proposed, resolvedAt: expect.any(String) });
		expect(done.order.priceLock).toMatchObject({ version: 2, lockedMinAmountOut: proposed });
		expect(done.order.error).toBeNull();
		expect(done.stages.map((s: { name: string }) => s.name)).toContain('swapped');
		expect(done.statusHistory).toEqual(['processing', 'confirming', 'bridging', 'swapping', 'awaiting_approval', 'swapping', 'delivering', 'completed']);
		expectAllowed(done.statusHistory);
	});

	it('approve refuses a minimum above the previous lock, and invalid amounts, naming the field', async () => {
		const { orderId, waiting } = await repricedOrder();
		const above = (BigInt(waiting.order.reprice.previousLockedMinAmountOut) + 1n).toString();
		for (const approvedMinAmountOut of [above, '1.5', 12, '0']) {
			const r = await api.post(APPROVE, { orderId, approvedMinAmountOut }, { key: SERVER });
			expect({ approvedMinAmountOut, status: r.status, code: r.body.error.code, message: r.body.error.message })
				.toEqual({ approvedMinAmountOut, status: 400, code: 'invalid_request', message: expect.stringMatching(/^approvedMinAmountOut/) });
		}
		// the previous minimum itself is allowed
		const at = await api.post(APPROVE, { orderId, approvedMinAmountOut: waiting.order.reprice.previousLockedMinAmountOut }, { key: SERVER });
		expect(at.body).toEqual({ orderId, status: 'swapping' });
		expect(BigInt((await until(orderId, 'completed')).order.amountOut)).toBeGreaterThanOrEqual(BigInt(waiting.order.reprice.previousLockedMinAmountOut));
	});

	it('reject: failed, with the reason kept', async () => {
		const { orderId } = await repricedOrder();
		const r = await api.post(REJECT, { orderId, reason: 'price moved too far' }, { key: SERVER });
		expect([r.status, r.body]).toEqual([200, { orderId, status: 'failed' }]);
		expect(RepriceAnswerSchema.safeParse(r.body).success).toBe(true);
		const { order } = await statusOf(orderId);
		expect(order.status).toBe('failed');
		expect(order.reprice).toMatchObject({ status: 'rejected', resolvedAt: expect.any(String), rejectReason: 'price moved too far' });
		expect(order.errorCode).toBe('reprice_rejected');
		expectAllowed((await orderOf(orderId)).statusHistory);
	});

	it('refund: Bitcoin sources only, to the quote\'s refund address unless one is given; refunding, then refunded', async () => {
		const evm = await repricedOrder();
		const notBtc = await api.post(REFUND, { orderId: evm.orderId }, { key: SERVER });
		expect([notBtc.status, notBtc.body.error.code, notBtc.body.error.message]).toEqual([400, 'invalid_request', expect.stringMatching(/Bitcoin/)]);

		const fromQuote = await repricedOrder({ ...BTC_SOURCE, refundAddress: BTC_REFUND });
		const r = await api.post(REFUND, { orderId: fromQuote.orderId, reason: 'customer asked' }, { key: SERVER });
		expect([r.status, r.body]).toEqual([200, { orderId: fromQuote.orderId, status: 'refunding' }]);
		expect(RepriceAnswerSchema.safeParse(r.body).success).toBe(true);
		const refunded = await until(fromQuote.orderId, 'refunded');
		expect(refunded.order.refund).toEqual({ asset: 'BTC', amount: fromQuote.quote.amountIn, address: BTC_REFUND, txHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
		expect(refunded.order.reprice).toMatchObject({ status: 'refund_requested', refundReason: 'customer asked', resolvedAt: expect.any(String) });
		expect(refunded.stages.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['refund_requested', 'refunded']));
		expect(refunded.statusHistory.slice(-3)).toEqual(['awaiting_approval', 'refunding', 'refunded']);
		expectAllowed(refunded.statusHistory);

		const noAddress = await repricedOrder(BTC_SOURCE);
		expect((await api.post(REFUND, { orderId: noAddress.orderId }, { key: SERVER })).body.error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^refundAddress/) });
		expect((await api.post(REFUND, { orderId: noAddress.orderId, refundAddress: EVM }, { key: SERVER })).body.error.code).toBe('invalid_address');
		const given = await api.post(REFUND, { orderId: noAddress.orderId, refundAddress: BTC_REFUND }, { key: SERVER });
		expect(given.body.status).toBe('refunding');
		expect((await statusOf(noAddress.orderId)).order.refund.address).toBe(BTC_REFUND);
	});

	it('exact-out orders carry the paymentIntent of the docs', async () => {
		const target = '50000000';
		const { orderId, quote, waiting } = await repricedOrder({ ...BTC_SOURCE, amount: target, amountMode: 'exact_out', refundAddress: BTC_REFUND });
		expect(waiting.order.paymentIntent).toEqual(expect.objectContaining({
			version: 1, amountMode: 'exact_out', targetAmountOut: target, requiredAmountIn: quote.amountIn,
			maxAcceptedAmountIn: expect.stringMatching(/^[0-9]+$/), inputBufferBps: expect.any(Number), actualAmountIn: quote.amountIn,
			refundAddress: BTC_REFUND, exactOutExecution: null,
		}));
		expect(BigInt(waiting.order.paymentIntent.maxAcceptedAmountIn)).toBeGreaterThanOrEqual(BigInt(quote.amountIn));
		await api.post(APPROVE, { orderId, approvedMinAmountOut: waiting.order.reprice.proposedMinAmountOut }, { key: SERVER });
		expect((await until(orderId, 'completed')).order.paymentIntent.exactOutExecution).toMatchObject({ amountOut: expect.stringMatching(/^[0-9]+$/) });
	});

	it('invalid_state without a pending re-approval of the partner; 404, server keys only, an idempotency key', async () => {
		const { orderId } = await repricedOrder();
		expect((await api.post(APPROVE, { orderId, approvedMinAmountOut: '1' }, { key: SERVER2 })).body.error).toMatchObject({ code: 'invalid_state', message: expect.stringMatching(/another partner/) });
		expect((await api.post(REJECT, { orderId }, { key: ALL_SCOPES })).body.error.code).toBe('forbidden');
		expect((await api.post(REJECT, { orderId })).status).toBe(401);
		expect((await api.post(REJECT, { orderId }, { key: SERVER, idem: '' })).body.error.code).toBe('missing_idempotency_key');
		expect((await api.post(REJECT, {}, { key: SERVER })).body.error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^orderId/) });
		expect((await api.post(REJECT, { orderId: 'ord_missing' }, { key: SERVER })).status).toBe(404);
		// a ZeroConf offer, an operator hold and a moving order have no re-approval; a re-approval has no ZeroConf offer
		expect((await api.post('/v1/orchestration/zeroconf/accept', { orderId }, { key: SERVER })).body.error.code).toBe('invalid_state');
		const hold = await fundedOrder(api, { outcome: 'awaiting_approval' });
		await until(hold.orderId, 'awaiting_approval');
		const offer = await fundedOrder(api, {}, { ...BTC_SOURCE, zeroconfEnabled: true });
		await until(offer.orderId, 'awaiting_approval');
		const moving = await fundedOrder(api, { autoAdvance: false });
		for (const id of [hold.orderId, offer.orderId, moving.orderId]) {
			const r = await api.post(APPROVE, { orderId: id, approvedMinAmountOut: '1' }, { key: SERVER });
			expect({ id, code: r.body.error.code }).toEqual({ id, code: 'invalid_state' });
		}
	});

	it('a test can ask for a re-approval by hand, with its own numbers, from processing or swapping only', async () => {
		const { orderId } = await fundedOrder(api, { autoAdvance: false });
		// connected (headers and the first frame sent) before the order moves
		const stream = await fetch(`${sb.orchestrationUrl}/v1/sse/operations/${orderId}?token=${SERVER}`);
		const asked = await api.post(`/sandbox/orders/${orderId}/reprice`, { latestExpectedAmountOut: '90000', proposedMinAmountOut: '89000', reason: 'price_moved' });
		expect(asked.status).toBe(200);
		expect(asked.body.order).toMatchObject({ status: 'awaiting_approval', reprice: { latestExpectedAmountOut: '90000', proposedMinAmountOut: '89000', reason: 'price_moved' } });
		expect((await api.post(`/sandbox/orders/${orderId}/reprice`, {})).body.error.code).toBe('invalid_state');
		await api.post(APPROVE, { orderId, approvedMinAmountOut: '89000' }, { key: SERVER });
		expect((await api.post(`/sandbox/orders/${orderId}/advance`, { status: 'completed' })).status).toBe(200);
		const text = await stream.text();
		const statuses = [...text.matchAll(/data: \{"status":"([a-z_]+)"\}/g)].map((m) => m[1]);
		expect(statuses).toEqual(['processing', 'awaiting_approval', 'swapping', 'completed']);
		expect((await orderOf(orderId)).order.amountOut).toBe('90000');

		const confirming = await fundedOrder(api, { autoAdvance: false });
		await api.post(`/sandbox/orders/${confirming.orderId}/advance`, { status: 'confirming' });
		expect((await api.post(`/sandbox/orders/${confirming.orderId}/reprice`, {})).body.error).toMatchObject({ code: 'invalid_state', message: expect.stringMatching(/processing or swapping/) });
	});
});
