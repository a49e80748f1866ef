/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are plain JSON */
/**
 * orchestration-service.md §6, delivery rules 2 and 4, asserted in full: a delivery that never gets
 * a 2xx is retried after 10 s, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h and 24 h; every attempt has a
 * fresh X-Service-Timestamp and a fresh signature over identical bytes. An injected virtual clock
 * lets the 33 hours pass at once and makes each delay exact.
 */
import { createHmac } from 'node:crypto';
import { SandboxClock, startSandbox, type Sandbox } from '../../sandbox';
import { receiver, waitFor } from './helpers';

/** Wall time that jumps to each timer's due time when the timer fires (timers run at once, in order). */
class VirtualClock extends SandboxClock {
	private virtual = Date.parse('2026-01-01T00:00:00Z');
	readonly scheduled: number[] = [];

	now(): number {
		return this.virtual;
	}

	schedule(specMs: number, fn: () => void): NodeJS.Timeout {
		this.scheduled.push(specMs);
		const due = this.virtual + specMs;
		return super.schedule(0, () => {
			this.virtual = Math.max(this.virtual, due);
			fn();
		});
	}
}

const SPEC_DELAYS_MS = [10_000, 30_000, 120_000, 600_000, 1_800_000, 7_200_000, 21_600_000, 86_400_000];
const SECRET = 'whsec_retry_schedule_test_secret';

let sb: Sandbox;
let clock: VirtualClock;
beforeAll(async () => {
	clock = new VirtualClock();
	sb = await startSandbox({ clock, quiet: true });
});
afterAll(() => sb.close());

async function control(path: string, body?: unknown): Promise<any> {
	const res = await fetch(sb.orchestrationUrl + path, {
		method: body === undefined ? 'GET' : 'POST',
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return res.json();
}

it('retries a failing endpoint after exactly 10 s, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h and 24 h, then gives up', async () => {
	const sink = await receiver(() => 500);
	try {
		const hook = await control('/sandbox/webhooks', { url: sink.url, secret: SECRET });
		const rawBody = '{"event":"order.completed","data":{"id":"ord_retry","status":"completed","updatedAt":"2026-01-01T00:00:00.000Z"}}';
		const delivery = await control(`/sandbox/webhooks/${hook.webhookId}/deliveries`, { rawBody, event: 'order.completed' });
		const final = await waitFor(async () => {
			const [d] = (await control(`/sandbox/deliveries?webhookId=${hook.webhookId}`)).deliveries;
			return d?.state === 'failed' ? d : undefined;
		}, 10_000, 'the delivery to fail');

		expect(final.deliveryId).toBe(delivery.deliveryId);
		expect(sink.received).toHaveLength(1 + SPEC_DELAYS_MS.length);
		expect(final.attempts).toHaveLength(1 + SPEC_DELAYS_MS.length);
		expect(clock.scheduled).toEqual(SPEC_DELAYS_MS);

		const timestamps = sink.received.map((r) => Number(r.headers['x-service-timestamp']));
		const gaps = timestamps.slice(1).map((t, i) => t - timestamps[i]);
		expect(gaps).toEqual(SPEC_DELAYS_MS);

		for (const r of sink.received) {
			expect(r.raw.toString('utf8')).toBe(rawBody); // the same snapshot bytes every time
			const ts = String(r.headers['x-service-timestamp']);
			const expected = createHmac('sha256', SECRET).update(`${ts}.`).update(r.raw).digest('hex');
			expect(r.headers['x-service-signature']).toBe(expected);
		}
		const signatures = new Set(sink.received.map((r) => r.headers['x-service-signature']));
		expect(signatures.size).toBe(sink.received.length); // fresh timestamp, fresh signature
		expect(final.attempts.map((a: any) => a.status)).toEqual(Array(9).fill(500));
	} finally {
		await sink.close();
	}
});

it('stops retrying at the first 2xx', async () => {
	clock.scheduled.length = 0;
	const sink = await receiver((n) => (n < 3 ? 503 : 204));
	try {
		const hook = await control('/sandbox/webhooks', { url: sink.url, secret: SECRET });
		await control(`/sandbox/webhooks/${hook.webhookId}/deliveries`, { rawBody: '{"event":"order.processing"}' });
		const final = await waitFor(async () => {
			const [d] = (await control(`/sandbox/deliveries?webhookId=${hook.webhookId}`)).deliveries;
			return d?.state === 'delivered' ? d : undefined;
		}, 10_000, 'the delivery to succeed');
		expect(final.attempts.map((a: any) => a.status)).toEqual([503, 503, 204]);
		expect(clock.scheduled).toEqual(SPEC_DELAYS_MS.slice(0, 2));
	} finally {
		await sink.close();
	}
});
