import { createHmac } from 'node:crypto';
import { WebhookEnvelopeSchema } from '../../sandbox/orchestration/responses';
import { type Client, fundedOrder, receiver, type Received, SERVER, SERVER2, start, waitFor } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

/** When this file's tests began: every delivery they see was stamped after it. */
const FILE_STARTED = Date.now();

/** Independent check of spec §6: hex(HMAC_SHA256(secret, timestamp + "." + raw_body)). */
function expectSigned(r: Received, secret: string): void {
	const ts = r.headers['x-service-timestamp'] as string;
	expect(ts).toMatch(/^[0-9]{13}$/);
	// The delivery's own time (one clock: the sandbox runs in this process): stamped before it arrived.
	expect(Number(ts)).toBeGreaterThanOrEqual(FILE_STARTED);
	expect(Number(ts)).toBeLessThanOrEqual(r.at);
	const expected = createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${ts}.`), r.raw])).digest('hex');
	expect(r.headers['x-service-signature']).toBe(expected);
	expect(r.headers['content-type']).toBe('application/json');
}

const register = async (url: string, key = SERVER) => {
	const r = await api.post('/v1/webhooks', { url }, { key });
	expect(r.status).toBe(201);
	return r.body as { webhookId: string; secret: string };
};

describe('webhook registration (spec §2.9)', () => {
	it('returns webhookId and a secret once; the registry never shows the secret', async () => {
		const hook = await register('https://example.test/hook');
		expect(hook.webhookId).toMatch(/^wh_/);
		expect(hook.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
		const list = await api.get('/sandbox/webhooks');
		expect(list.body.webhooks).toEqual([expect.objectContaining({ webhookId: hook.webhookId, url: 'https://example.test/hook', partnerId: 'partner_sandbox_1' })]);
		expect(list.text).not.toContain(hook.secret);
		const bad = await api.post('/v1/webhooks', { url: 'ftp://x' }, { key: SERVER });
		expect(bad.status).toBe(400);
		expect(bad.body.error.message).toMatch(/^url:/);
	});
});

describe('webhook delivery (spec §6)', () => {
	it('delivers every public status change, signed, to every endpoint of the partner only', async () => {
		const a = await receiver();
		const b = await receiver();
		const other = await receiver();
		try {
			const hookA = await register(a.url);
			const hookB = await register(b.url);
			await register(other.url, SERVER2);
			const { orderId } = await fundedOrder(api);
			const expected = ['order.processing', 'order.confirming', 'order.bridging', 'order.swapping', 'order.delivering', 'order.completed'];
			await waitFor(() => (a.received.length >= expected.length && b.received.length >= expected.length ? true : undefined));
			for (const [rec, hook] of [[a, hookA], [b, hookB]] as const) {
				const envelopes = rec.received.map((r) => {
					expectSigned(r, hook.secret);
					const env = JSON.parse(r.raw.toString('utf8'));
					expect(WebhookEnvelopeSchema.safeParse(env).success).toBe(true);
					expect(Object.keys(env).sort()).toEqual(['data', 'event', 'timestamp']);
					expect(env.data.id).toBe(orderId);
					expect(env.event).toBe(`order.${env.data.status}`);
					return env;
				});
				expect(envelopes.map((e) => e.event).sort()).toEqual([...expected].sort());
			}
			expect(other.received).toHaveLength(0);
		} finally {
			await Promise.all([a.close(), b.close(), other.close()]);
		}
	});

	it('retries non-2xx answers with the spec delays (scaled), fresh timestamps and the same bytes', async () => {
		const rec = await receiver((n) => (n <= 2 ? 500 : 204));
		try {
			const hook = await register(rec.url);
			const { orderId } = await fundedOrder(api, { autoAdvance: false });
			await waitFor(() => (rec.received.length >= 3 ? true : undefined));
			const [first, second, third] = rec.received;
			for (const r of rec.received) expectSigned(r, hook.secret);
			expect(second.raw.equals(first.raw)).toBe(true);
			expect(third.raw.equals(first.raw)).toBe(true);
			const stamps = rec.received.map((r) => r.headers['x-service-timestamp']);
			expect(new Set(stamps).size).toBe(3);
			expect(second.headers['x-service-signature']).not.toBe(first.headers['x-service-signature']);
			// 10 s and 30 s at time scale 100: about 100 ms and 300 ms
			expect(second.at - first.at).toBeGreaterThanOrEqual(90);
			expect(third.at - second.at).toBeGreaterThanOrEqual(280);
			const deliveries = await waitFor(async () => {
				const d = (await api.get(`/sandbox/deliveries?orderId=${orderId}`)).body.deliveries;
				return d[0]?.state === 'delivered' ? d : undefined;
			});
			expect(deliveries).toHaveLength(1);
			expect(deliveries[0].attempts.map((x: { status: number }) => x.status)).toEqual([500, 500, 204]);
			expect(deliveries[0].event).toBe('order.processing');
		} finally {
			await rec.close();
		}
	});

	it('gives up after the last delay and records network errors', async () => {
		const fast = await start({ timeScale: 200_000 }); // all eight delays in about 0.6 s
		const rec = await receiver(() => 503);
		try {
			const hook = await fast.api.post('/v1/webhooks', { url: rec.url }, { key: SERVER });
			await fast.api.post('/v1/webhooks', { url: 'http://127.0.0.1:1/closed' }, { key: SERVER });
			// quotes expire within a millisecond at this scale, so the order comes from a standing address
			const d = await fast.api.post('/sandbox/deposits', { depositAddress: '0x00000000000000000000000000000000acc0ba5e', amount: '250000000', autoAdvance: false });
			expect(d.status).toBe(201);
			const deliveries = await waitFor(async () => {
				const list = (await fast.api.get('/sandbox/deliveries')).body.deliveries;
				return list.length === 2 && list.every((x: { state: string }) => x.state === 'failed') ? list : undefined;
			}, 5000, 'deliveries to give up');
			for (const dl of deliveries) expect(dl.attempts).toHaveLength(9);
			const mine = deliveries.find((x: { webhookId: string }) => x.webhookId === hook.body.webhookId);
			expect(mine.attempts.every((x: { status: number }) => x.status === 503)).toBe(true);
			const closed = deliveries.find((x: { webhookId: string }) => x.webhookId !== hook.body.webhookId);
			expect(closed.attempts.every((x: { status: number | null; error?: string }) => x.status === null && typeof x.error === 'string')).toBe(true);
			expect(rec.received).toHaveLength(9);
		} finally {
			await rec.close();
			await fast.sb.close();
		}
	});

	it('sends every successful delivery twice when duplicates are switched on', async () => {
		const rec = await receiver();
		try {
			const hook = await register(rec.url);
			await api.post('/sandbox/config', { duplicateDeliveries: true });
			await fundedOrder(api, { autoAdvance: false });
			await waitFor(() => (rec.received.length >= 2 ? true : undefined));
			const [one, two] = rec.received;
			expectSigned(one, hook.secret);
			expectSigned(two, hook.secret);
			expect(two.raw.equals(one.raw)).toBe(true);
			const deliveries = (await api.get('/sandbox/deliveries')).body.deliveries;
			expect(deliveries).toHaveLength(2);
			expect(deliveries[1].duplicateOf).toBe(deliveries[0].deliveryId);
		} finally {
			await rec.close();
		}
	});
});
