/* eslint-disable @typescript-eslint/no-explicit-any -- answers are arbitrary JSON that the tests assert on field by field */
/**
 * public-notes: `unfulfilled` (an unconfirmed or replaced deposit) is not terminal. A late deposit
 * resumes the order; an RBF-replaced Bitcoin deposit leaves the original `unfulfilled` with
 * `supersededByOperationId` naming a successor order (which carries `recoveredFromOperationId`), and
 * `order.superseded` goes to the partner's webhooks, signed like every delivery.
 */
import { createHmac } from 'node:crypto';
import { TRANSITIONS } from '../../sandbox/orchestration/transitions';
import { type Client, fundedOrder, receiver, type Received, SERVER, start, waitFor } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const BTC_SOURCE = { sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '100000', recipientAddress: '0x1111111111111111111111111111111111111111' };

const orderOf = async (id: string) => (await api.get(`/sandbox/orders/${id}`)).body;
async function until(id: string, want: string) {
	return await waitFor(async () => {
		const o = await orderOf(id);
		return o.order.status === want ? o : undefined;
	}, 5000, `order ${id} to reach ${want}`);
}

function expectAllowed(history: string[]): void {
	for (let i = 1; i < history.length; i++) {
		const [from, to] = [history[i - 1], history[i]] as [keyof typeof TRANSITIONS, string];
		expect({ from, to, allowed: (TRANSITIONS[from] as readonly string[]).includes(to) }).toEqual({ from, to, allowed: true });
	}
}

/** Independent check of the signature (spec §6), under the spec's header names or the live ones. */
function expectSigned(r: Received, secret: string): void {
	const ts = (r.headers['x-service-timestamp'] ?? r.headers['x-flashnet-timestamp']) as string;
	const signature = r.headers['x-service-signature'] ?? r.headers['x-flashnet-signature'];
	expect(signature).toBe(createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${ts}.`), r.raw])).digest('hex'));
}

const envelopes = (r: { received: Received[] }) => r.received.map((x) => JSON.parse(x.raw.toString('utf8')));

describe('unfulfilled resumes on a late deposit', () => {
	it('is not terminal in the state machine: it leads back to confirming and processing', () => {
		expect(TRANSITIONS.unfulfilled).toEqual(expect.arrayContaining(['confirming', 'processing']));
		for (const terminal of ['completed', 'failed', 'refunded'] as const) expect(TRANSITIONS[terminal]).toEqual([]);
	});

	it('a second deposit to the address of an unfulfilled order resumes it to completed, with its events', async () => {
		const hook = await receiver();
		try {
			const { secret } = (await api.post('/v1/webhooks', { url: hook.url }, { key: SERVER })).body;
			const { quote, orderId } = await fundedOrder(api, { outcome: 'unfulfilled' });
			await until(orderId, 'unfulfilled');
			// it stays there: nothing else is scheduled
			await new Promise((r) => setTimeout(r, 200));
			expect((await orderOf(orderId)).order.status).toBe('unfulfilled');
			const late = await api.post('/sandbox/deposits', { depositAddress: quote.depositAddress, amount: quote.amountIn });
			expect(late.status).toBe(201);
			expect(late.body.orderId).toBe(orderId);
			const done = await until(orderId, 'completed');
			expect(done.statusHistory).toEqual(['processing', 'unfulfilled', 'confirming', 'bridging', 'swapping', 'delivering', 'completed']);
			expectAllowed(done.statusHistory);
			expect(done.stages.map((s: any) => s.name)).toContain('deposit_confirmed');
			await waitFor(() => (envelopes(hook).some((e) => e.event === 'order.completed') ? true : undefined));
			const events = envelopes(hook).map((e) => e.event);
			expect(events.indexOf('order.unfulfilled')).toBeLessThan(events.indexOf('order.confirming'));
			for (const r of hook.received) expectSigned(r, secret);
		} finally {
			await hook.close();
		}
	});

	it('outcome late_deposit scripts the same path on the schedule', async () => {
		const { orderId } = await fundedOrder(api, { outcome: 'late_deposit' });
		const done = await until(orderId, 'completed');
		expect(done.statusHistory.slice(0, 3)).toEqual(['processing', 'unfulfilled', 'confirming']);
		expectAllowed(done.statusHistory);
	});

	it('the event stream stays open on unfulfilled and announces the resume', async () => {
		const { quote, orderId } = await fundedOrder(api, { autoAdvance: false });
		await api.post(`/sandbox/orders/${orderId}/advance`, { status: 'unfulfilled' });
		const abort = new AbortController();
		const res = await fetch(`${sb.orchestrationUrl}/v1/sse/operations/${orderId}?token=${SERVER}`, { signal: abort.signal });
		const reader = res.body!.getReader();
		let text = '';
		const read = async (until: string) => {
			while (!text.includes(until)) text += new TextDecoder().decode((await reader.read()).value);
		};
		try {
			await read('"unfulfilled"');
			await api.post('/sandbox/deposits', { depositAddress: quote.depositAddress, amount: quote.amountIn, autoAdvance: false });
			await read('"confirming"');
			expect(text.match(/event: status/g)).toHaveLength(2);
		} finally {
			abort.abort();
		}
	});
});

describe('an RBF replacement of a Bitcoin deposit', () => {
	it('the original stays unfulfilled naming its successor; order.superseded goes to the webhooks, signed', async () => {
		const hook = await receiver();
		try {
			const { secret } = (await api.post('/v1/webhooks', { url: hook.url }, { key: SERVER })).body;
			const { quote, orderId } = await fundedOrder(api, { autoAdvance: false }, BTC_SOURCE);
			const txHash = 'cd'.repeat(32);
			const r = await api.post(`/sandbox/orders/${orderId}/replace`, { txHash, autoAdvance: false });
			expect(r.status).toBe(201);
			const successor = r.body.successorOrderId as string;
			expect(successor).not.toBe(orderId);
			const original = await orderOf(orderId);
			expect(original.order).toMatchObject({ id: orderId, status: 'unfulfilled', supersededByOperationId: successor });
			expect(original.statusHistory).toEqual(['processing', 'unfulfilled']);
			const next = await orderOf(successor);
			expect(next.order).toMatchObject({ id: successor, status: 'processing', quoteId: quote.quoteId, recoveredFromOperationId: orderId });
			expect(next.depositTxHash).toBe(txHash);
			// the replacing transaction finds the successor; the quote still reads its first order
			const byTx = await api.get(`/v1/orchestration/status?txHash=${txHash}&sourceChain=bitcoin`, { key: SERVER });
			expect(byTx.body.order.id).toBe(successor);
			const byQuote = await api.get(`/v1/orchestration/status?quoteId=${quote.quoteId}`, { key: SERVER });
			expect(byQuote.body.order).toMatchObject({ id: orderId, status: 'unfulfilled', supersededByOperationId: successor });

			await waitFor(() => (envelopes(hook).some((e) => e.event === 'order.superseded') ? true : undefined));
			const all = envelopes(hook);
			const superseded = all.filter((e) => e.event === 'order.superseded');
			expect(superseded).toHaveLength(1);
			expect(superseded[0].data).toMatchObject({ id: orderId, status: 'unfulfilled', supersededByOperationId: successor });
			// the link is set before the original turns unfulfilled, so that event names the successor too
			expect(all.find((e) => e.event === 'order.unfulfilled').data).toMatchObject({ id: orderId, supersededByOperationId: successor });
			expect(all.find((e) => e.data.id === successor)).toMatchObject({ event: 'order.processing', data: { recoveredFromOperationId: orderId } });
			for (const x of hook.received) expectSigned(x, secret);
			const recorded = await api.get(`/sandbox/deliveries?orderId=${orderId}&event=order.superseded`);
			expect(recorded.body.deliveries).toHaveLength(1);
		} finally {
			await hook.close();
		}
	});

	it('an original already unfulfilled changes no status: only order.superseded is sent', async () => {
		const hook = await receiver();
		try {
			await api.post('/v1/webhooks', { url: hook.url }, { key: SERVER });
			const { orderId } = await fundedOrder(api, { autoAdvance: false }, BTC_SOURCE);
			await api.post(`/sandbox/orders/${orderId}/advance`, { status: 'unfulfilled' });
			await waitFor(() => (envelopes(hook).some((e) => e.event === 'order.unfulfilled') ? true : undefined));
			const r = await api.post(`/sandbox/orders/${orderId}/replace`, { autoAdvance: false });
			await waitFor(() => (envelopes(hook).some((e) => e.event === 'order.superseded') ? true : undefined));
			expect(envelopes(hook).filter((e) => e.data.id === orderId).map((e) => e.event)).toEqual(['order.processing', 'order.unfulfilled', 'order.superseded']);
			expect((await orderOf(orderId)).statusHistory).toEqual(['processing', 'unfulfilled']);
			expect((await orderOf(r.body.successorOrderId)).order.recoveredFromOperationId).toBe(orderId);
		} finally {
			await hook.close();
		}
	});

	it('the successor runs on to completed by itself; the replaced original never resumes', async () => {
		const { quote, orderId } = await fundedOrder(api, { autoAdvance: false }, BTC_SOURCE);
		const { successorOrderId } = (await api.post(`/sandbox/orders/${orderId}/replace`, { autoAdvance: true })).body;
		expectAllowed((await until(successorOrderId, 'completed')).statusHistory);
		const late = await api.post('/sandbox/deposits', { depositAddress: quote.depositAddress, amount: quote.amountIn });
		expect(late.status).toBe(409);
		expect(late.body.error.message).toMatch(new RegExp(`replaced by order ${successorOrderId}`));
		expect((await api.post(`/sandbox/orders/${orderId}/advance`, { status: 'confirming' })).body.error.code).toBe('invalid_state');
		expect((await orderOf(orderId)).order.status).toBe('unfulfilled');
	});

	it('refuses what cannot be replaced: not Bitcoin L1, already replaced, or past its confirmation', async () => {
		const evm = await fundedOrder(api, { autoAdvance: false });
		expect((await api.post(`/sandbox/orders/${evm.orderId}/replace`, {})).body.error).toMatchObject({ code: 'invalid_request' });
		const btc = await fundedOrder(api, { autoAdvance: false }, BTC_SOURCE);
		expect((await api.post(`/sandbox/orders/${btc.orderId}/replace`, {})).status).toBe(201);
		expect((await api.post(`/sandbox/orders/${btc.orderId}/replace`, {})).body.error.code).toBe('invalid_state');
		const done = await fundedOrder(api, { autoAdvance: false }, BTC_SOURCE);
		await api.post(`/sandbox/orders/${done.orderId}/advance`, { status: 'completed' });
		expect((await api.post(`/sandbox/orders/${done.orderId}/replace`, {})).body.error.code).toBe('invalid_state');
		expect((await api.post('/sandbox/orders/ord_unknown/replace', {})).status).toBe(404);
	});
});
