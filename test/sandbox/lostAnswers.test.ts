/**
 * The sandbox's lost-answer faults: `dropAnswer` runs the handler, then closes the connection
 * without an answer; `lateAnswer` runs the handler and answers only after `latencyMs`. The effect
 * happened either way, and a retry with the same idempotency key replays the first answer.
 */
import type { Sandbox } from '../../sandbox';
import { type Client, client, quoteBody, SERVER, start, waitFor } from './helpers';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start({ timeScale: 1 })));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const QUOTE = '/v1/orchestration/quote';

async function quotesWithKey(key: string): Promise<Array<{ quoteId: string }>> {
	return (await api.get(`/sandbox/quotes?idempotencyKey=${encodeURIComponent(key)}`)).body.quotes;
}

describe('dropAnswer: the handler acts, the answer never arrives', () => {
	it('creates the quote, drops the connection, and the retry with the same key replays it', async () => {
		await api.post('/sandbox/faults', { path: QUOTE, mode: 'dropAnswer' });
		await expect(api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'lost-1' })).rejects.toThrow();
		const created = await quotesWithKey('lost-1');
		expect(created).toHaveLength(1);

		const retry = await api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'lost-1' });
		expect(retry.status).toBe(200);
		expect(retry.headers.get('x-idempotency-replayed')).toBe('true');
		expect(retry.body.quoteId).toBe(created[0].quoteId);
		expect(await quotesWithKey('lost-1')).toHaveLength(1);
	});

	it('applies to `times` requests, then answers normally', async () => {
		await api.post('/sandbox/faults', { path: QUOTE, mode: 'dropAnswer', times: 2 });
		await expect(api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'a' })).rejects.toThrow();
		await expect(api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'a' })).rejects.toThrow();
		expect((await api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'a' })).status).toBe(200);
		expect(await quotesWithKey('a')).toHaveLength(1);
		expect((await api.get('/sandbox/faults')).body.faults).toEqual([]);
	});

	it('works on the gateway port too (service: "gateway")', async () => {
		await api.post('/sandbox/faults', { service: 'gateway', path: '/api/v1/network/info', mode: 'dropAnswer' });
		await expect(client(sb.gatewayUrl).get('/api/v1/network/info')).rejects.toThrow();
		expect((await client(sb.gatewayUrl).get('/api/v1/network/info')).status).toBe(200);
	});
});

describe('lateAnswer: the handler acts at once, the answer comes after latencyMs', () => {
	it('a client that gives up first sees no answer, but the quote exists and is replayed', async () => {
		await api.post('/sandbox/faults', { path: QUOTE, mode: 'lateAnswer', latencyMs: 1500 });
		const attempt = fetch(sb.orchestrationUrl + QUOTE, {
			method: 'POST',
			headers: { authorization: `Bearer ${SERVER}`, 'content-type': 'application/json', 'x-idempotency-key': 'late-1' },
			body: JSON.stringify(quoteBody()),
			signal: AbortSignal.timeout(200),
		});
		// The client's own deadline ended it (the answer comes 1.5 s after the handler ran, so never first).
		await expect(attempt).rejects.toMatchObject({ name: 'TimeoutError' });
		// The handler acts when the request arrives, which a loaded machine may delay past the client's deadline.
		const created = await waitFor(async () => ((await quotesWithKey('late-1')).length > 0 ? await quotesWithKey('late-1') : undefined), 10_000, 'the quote of the late answer');
		expect(created).toHaveLength(1);
		const retry = await api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'late-1' });
		expect(retry.headers.get('x-idempotency-replayed')).toBe('true');
		expect(retry.body.quoteId).toBe(created[0].quoteId);
	});

	it('a patient client gets the real answer after the delay', async () => {
		await api.post('/sandbox/faults', { path: QUOTE, mode: 'lateAnswer', latencyMs: 300 });
		const started = Date.now();
		const answer = await api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'late-2' });
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(answer.status).toBe(200);
		expect(answer.body.quoteId).toBe((await quotesWithKey('late-2'))[0].quoteId);
	});
});
