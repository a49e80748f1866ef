import { type Client, quoteBody, SERVER, SERVER2, start } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const QUOTE = '/v1/orchestration/quote';

describe('X-Idempotency-Key (spec §4, public-notes)', () => {
	it('is required on quote, submit, onramp, offramp, sync, reindex and webhook creation', async () => {
		const paths = [
			QUOTE, '/v1/orchestration/submit', '/v1/orchestration/onramp', '/v1/orchestration/offramp',
			'/v1/accumulation-addresses/sync', '/v1/accumulation-addresses/acc_sandbox_usdc_base/reindex', '/v1/webhooks',
		];
		for (const path of paths) {
			const r = await api.post(path, {}, { key: SERVER, idem: '' });
			expect({ path, status: r.status, code: r.body.error.code }).toEqual({ path, status: 400, code: 'missing_idempotency_key' });
		}
	});

	it('must be 1 to 255 printable ASCII characters', async () => {
		for (const bad of ['x'.repeat(256), 'tab\there']) {
			const r = await api.post(QUOTE, quoteBody(), { key: SERVER, headers: { 'x-idempotency-key': bad } });
			expect(r.status).toBe(400);
			expect(r.body.error.code).toBe('invalid_idempotency_key');
			expect(r.body.error.message).not.toContain(bad);
		}
		expect((await api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'x'.repeat(255) })).status).toBe(200);
	});

	it('replays the stored answer for the same key and body, with X-Idempotency-Replayed', async () => {
		const first = await api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'replay-1' });
		expect(first.headers.get('x-idempotency-replayed')).toBeNull();
		// same body with another key order is the same request
		const reordered = Object.fromEntries(Object.entries(quoteBody()).reverse());
		const second = await api.post(QUOTE, reordered, { key: SERVER, idem: 'replay-1' });
		expect(second.status).toBe(200);
		expect(second.headers.get('x-idempotency-replayed')).toBe('true');
		expect(second.body).toEqual(first.body);
		const quotes = await api.get('/sandbox/quotes?idempotencyKey=replay-1');
		expect(quotes.body.quotes).toHaveLength(1);
		const recorded = await api.get('/sandbox/requests?idempotencyKey=replay-1');
		expect(recorded.body.requests.map((r: { replayed: boolean }) => r.replayed)).toEqual([false, true]);
	});

	it('answers 409 idempotency_conflict for the same key with another body', async () => {
		await api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'conflict-1' });
		const r = await api.post(QUOTE, quoteBody({ amount: '200000000' }), { key: SERVER, idem: 'conflict-1' });
		expect(r.status).toBe(409);
		expect(r.body.error.code).toBe('idempotency_conflict');
	});

	it('stores 4xx answers too, so a corrected request needs a new key', async () => {
		const bad = await api.post(QUOTE, quoteBody({ amount: 'abc' }), { key: SERVER, idem: 'bad-1' });
		expect(bad.status).toBe(400);
		const again = await api.post(QUOTE, quoteBody({ amount: 'abc' }), { key: SERVER, idem: 'bad-1' });
		expect(again.status).toBe(400);
		expect(again.headers.get('x-idempotency-replayed')).toBe('true');
		expect(again.body).toEqual(bad.body);
		expect((await api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'bad-1' })).body.error.code).toBe('idempotency_conflict');
	});

	it('scopes keys by partner and endpoint', async () => {
		const a = await api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'shared-key' });
		const b = await api.post(QUOTE, quoteBody(), { key: SERVER2, idem: 'shared-key' });
		expect(b.status).toBe(200);
		expect(b.headers.get('x-idempotency-replayed')).toBeNull();
		expect(b.body.quoteId).not.toBe(a.body.quoteId);
		const hook = await api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/x' }, { key: SERVER, idem: 'shared-key' });
		expect(hook.status).toBe(201);
	});

	it('answers 409 idempotency_in_progress with Retry-After while the first request runs', async () => {
		await api.post('/sandbox/config', { processingDelayMs: 300 });
		const first = api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'slow-1' });
		await new Promise((r) => setTimeout(r, 100));
		const second = await api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'slow-1' });
		expect(second.status).toBe(409);
		expect(second.body.error.code).toBe('idempotency_in_progress');
		expect(second.headers.get('retry-after')).toBe('1');
		expect((await first).status).toBe(200);
		const third = await api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'slow-1' });
		expect(third.headers.get('x-idempotency-replayed')).toBe('true');
	});
});
