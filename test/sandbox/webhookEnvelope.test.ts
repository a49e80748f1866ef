/**
 * The webhook envelope as the live service sends it (public-notes, fourth harvest): `{event,
 * timestamp, data}` with `timestamp` the delivery time, new on a retry, and `data` without `updatedAt`
 * as the docs' examples. Both are switches (`webhookEnvelope`): the spec's defaults stay (§6 rule 2:
 * every retry carries the same payload; `data.updatedAt` is in its duplicate key). A redelivery with a
 * new timestamp lets a test deliver one event twice with two timestamps.
 */
import { webhookSignature, type Sandbox } from '../../sandbox';
import { LiveWebhookEnvelopeSchema } from '../../sandbox/orchestration/responses';
import { type Client, fundedOrder, receiver, type Received, SERVER, sleep, start, waitFor } from './helpers';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const envelopeOf = (r: Received) => JSON.parse(r.raw.toString('utf8')) as { event: string; timestamp: string; data: Record<string, unknown> };
const signedOk = (r: Received, secret: string) => r.headers['x-service-signature'] === webhookSignature(secret, r.headers['x-service-timestamp'] as string, r.raw.toString('utf8'));

describe('the envelope timestamp', () => {
	it('by default: the event time, the same bytes on every attempt (spec §6 rule 2), data with updatedAt', async () => {
		const rec = await receiver((n) => (n === 1 ? 503 : 200));
		try {
			await api.post('/v1/webhooks', { url: rec.url }, { key: SERVER });
			await fundedOrder(api, { autoAdvance: false });
			await waitFor(() => (rec.received.length >= 2 ? true : undefined));
			const [first, retry] = rec.received;
			expect(retry.raw.equals(first.raw)).toBe(true);
			const env = envelopeOf(first);
			expect(env.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
			expect(env.data.updatedAt).toEqual(expect.any(String));
		} finally {
			await rec.close();
		}
	});

	it('switched to delivery: each attempt stamps its own time (the signature header\'s instant); the data stays the same', async () => {
		await api.post('/sandbox/config', { webhookEnvelope: { timestamp: 'delivery' } });
		const rec = await receiver((n) => (n <= 2 ? 500 : 200));
		try {
			const hook = (await api.post('/v1/webhooks', { url: rec.url }, { key: SERVER })).body;
			const { orderId } = await fundedOrder(api, { autoAdvance: false });
			await waitFor(() => (rec.received.length >= 3 ? true : undefined));
			const envs = rec.received.map(envelopeOf);
			expect(new Set(envs.map((e) => e.timestamp)).size).toBe(3);
			for (const [n, r] of rec.received.entries()) {
				expect(signedOk(r, hook.secret)).toBe(true);
				expect(Date.parse(envs[n].timestamp)).toBe(Number(r.headers['x-service-timestamp']));
				expect(envs[n]).toEqual({ ...envs[0], timestamp: envs[n].timestamp });
				expect(Object.keys(envs[n])).toEqual(['event', 'timestamp', 'data']);
				expect(LiveWebhookEnvelopeSchema.safeParse(envs[n]).success).toBe(true);
			}
			const [d] = (await api.get(`/sandbox/deliveries?orderId=${orderId}`)).body.deliveries;
			expect(d.attempts.map((a: { body: string }) => a.body)).toEqual(rec.received.map((r) => r.raw.toString('utf8')));
			expect(d.body).toBe(d.attempts[0].body);
		} finally {
			await rec.close();
		}
	});
});

describe('data without updatedAt (the docs\' examples)', () => {
	it('leaves updatedAt out of data when switched off, in order and recovery events', async () => {
		await api.post('/sandbox/config', { webhookEnvelope: { updatedAt: false } });
		const rec = await receiver();
		try {
			await api.post('/v1/webhooks', { url: rec.url }, { key: SERVER });
			await api.post('/v1/webhooks/recovery', { url: rec.url }, { key: SERVER });
			const { orderId } = await fundedOrder(api, { autoAdvance: false });
			await api.post(`/sandbox/orders/${orderId}/recovery-required`, {});
			const envs = await waitFor(() => (rec.received.length >= 2 ? rec.received.map(envelopeOf) : undefined));
			expect(envs.map((e) => e.event).sort()).toEqual(['order.processing', 'order.recovery_required']);
			for (const env of envs) {
				expect(env.data.id).toBe(orderId);
				expect(env.data).not.toHaveProperty('updatedAt');
				expect(LiveWebhookEnvelopeSchema.safeParse(env).success).toBe(true);
			}
		} finally {
			await rec.close();
		}
	});
});

describe('redelivering one delivered event (POST /sandbox/deliveries/{id}/redeliver)', () => {
	it('restamp: the same event and data with a new delivery timestamp and signature time', async () => {
		const rec = await receiver();
		try {
			const hook = (await api.post('/v1/webhooks', { url: rec.url }, { key: SERVER })).body;
			const { orderId } = await fundedOrder(api, { autoAdvance: false });
			const [original] = await waitFor(async () => {
				const list = (await api.get(`/sandbox/deliveries?orderId=${orderId}`)).body.deliveries;
				return list[0]?.state === 'delivered' ? list : undefined;
			});
			await sleep(5);
			const again = await api.post(`/sandbox/deliveries/${original.deliveryId}/redeliver`, { restamp: true });
			expect(again.status).toBe(201);
			expect(again.body.delivery).toMatchObject({ duplicateOf: original.deliveryId, event: 'order.processing', state: 'delivered' });
			expect(rec.received).toHaveLength(2);
			const [one, two] = rec.received.map(envelopeOf);
			expect(two.event).toBe(one.event);
			expect(two.data).toEqual(one.data);
			expect(Date.parse(two.timestamp)).toBeGreaterThan(Date.parse(one.timestamp));
			expect(Number(rec.received[1].headers['x-service-timestamp'])).toBeGreaterThan(Number(rec.received[0].headers['x-service-timestamp']));
			expect(rec.received.every((r) => signedOk(r, hook.secret))).toBe(true);
			// without restamp (and the spec's envelope) the same bytes go again
			await api.post(`/sandbox/deliveries/${original.deliveryId}/redeliver`, {});
			expect(rec.received[2].raw.equals(rec.received[0].raw)).toBe(true);
		} finally {
			await rec.close();
		}
	});

	it('refuses to restamp a body that is not a JSON object', async () => {
		const rec = await receiver();
		try {
			const hook = (await api.post('/sandbox/webhooks', { url: rec.url })).body;
			const raw = (await api.post(`/sandbox/webhooks/${hook.webhookId}/deliveries`, { rawBody: 'not json' })).body;
			await waitFor(() => (rec.received.length === 1 ? true : undefined));
			const r = await api.post(`/sandbox/deliveries/${raw.deliveryId}/redeliver`, { restamp: true });
			expect([r.status, r.body.error.code]).toEqual([400, 'invalid_request']);
			expect(rec.received).toHaveLength(1);
		} finally {
			await rec.close();
		}
	});
});
