import { request as httpRequest } from 'node:http';
import { CHECKOUT, type Client, client, quoteBody, SERVER, start } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start({ timeScale: 1 })));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const QUOTE = '/v1/orchestration/quote';

describe('fault injection (per route)', () => {
	it('adds latency', async () => {
		await api.post('/sandbox/faults', { path: QUOTE, mode: 'latency', latencyMs: 250 });
		const t0 = Date.now();
		expect((await api.post(QUOTE, quoteBody(), { key: SERVER })).status).toBe(200);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
		// `times` defaults to 1: the rule is spent, so the next request is not delayed
		expect((await api.get('/sandbox/faults')).body.faults).toEqual([]);
	});

	it('answers a status for the next `times` requests, with Retry-After', async () => {
		const added = await api.post('/sandbox/faults', { method: 'get', path: '/v2/orchestration/routes', mode: 'status', status: 503, times: 2, retryAfterSeconds: 7 });
		expect(added.status).toBe(201);
		const a = await api.get('/v2/orchestration/routes');
		expect(a.status).toBe(503);
		expect(a.headers.get('retry-after')).toBe('7');
		expect(a.body.error.code).toBe('service_unavailable');
		expect((await api.get('/v2/orchestration/routes')).status).toBe(503);
		expect((await api.get('/v2/orchestration/routes')).status).toBe(200);
		await api.post('/sandbox/faults', { path: '/v1/orchestration/status', mode: 'status', status: 502, code: 'bad_gateway', times: 'always' });
		for (let i = 0; i < 3; i++) expect((await api.get('/v1/orchestration/status?id=x', { key: SERVER })).body.error.code).toBe('bad_gateway');
		expect((await api.get('/sandbox/faults')).body.faults).toHaveLength(1);
		await api.del('/sandbox/faults');
		expect((await api.get('/v1/orchestration/status?id=x', { key: SERVER })).status).toBe(404);
	});

	it('matches parameterised routes by their route path', async () => {
		await api.post('/sandbox/faults', { path: '/v1/accumulation-addresses/:idOrAddress/reindex', mode: 'status', status: 500 });
		expect((await api.post('/v1/accumulation-addresses/acc_sandbox_usdc_base/reindex', undefined, { key: SERVER })).status).toBe(500);
	});

	it('drops the connection', async () => {
		await api.post('/sandbox/faults', { path: QUOTE, mode: 'drop' });
		await expect(api.post(QUOTE, quoteBody(), { key: SERVER })).rejects.toThrow();
		expect((await api.post(QUOTE, quoteBody(), { key: SERVER })).status).toBe(200);
	});

	it('sends the body slowly after prompt headers', async () => {
		await api.post('/sandbox/faults', { path: '/v2/orchestration/routes', mode: 'slowBody', latencyMs: 2000 });
		const t0 = Date.now();
		const res = await fetch(`${sb.orchestrationUrl}/v2/orchestration/routes`);
		// The headers came with the first of 10 chunks sent 0.2 s apart: the first read holds part of the body only.
		const reader = res.body!.getReader();
		const chunks: Uint8Array[] = [];
		for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
		const bodyAt = Date.now() - t0;
		const total = Buffer.concat(chunks);
		const body = JSON.parse(total.toString('utf8')) as { assets: unknown[] };
		expect(res.status).toBe(200);
		expect(body.assets.length).toBeGreaterThan(50);
		expect(chunks[0].length).toBeLessThan(total.length);
		expect(bodyAt).toBeGreaterThanOrEqual(1500);
	});

	it('adds headers to the handler\'s own answer (mode headers) or to a status fault', async () => {
		const reset = String(Date.now() + 86_400_000);
		await api.post('/sandbox/faults', { path: '/v2/orchestration/routes', mode: 'headers', headers: { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset } });
		const lying = await api.get('/v2/orchestration/routes');
		expect(lying.status).toBe(200);
		expect(lying.body.assets.length).toBeGreaterThan(50);
		expect([lying.headers.get('x-ratelimit-remaining'), lying.headers.get('x-ratelimit-reset')]).toEqual(['0', reset]);
		expect((await api.get('/v2/orchestration/routes')).headers.get('x-ratelimit-reset')).toBeNull();
		await api.post('/sandbox/faults', { path: '/v2/orchestration/routes', mode: 'status', status: 429, code: 'rate_limited', retryAfterSeconds: 0, headers: { 'X-RateLimit-Reset': reset } });
		const denied = await api.get('/v2/orchestration/routes');
		expect([denied.status, denied.headers.get('retry-after'), denied.headers.get('x-ratelimit-reset')]).toEqual([429, '0', reset]);
		expect((await api.post('/sandbox/faults', { path: QUOTE, mode: 'headers', headers: { 'bad header': 'x' } })).status).toBe(400);
	});

	it('applies faults to the gateway with service "gateway"', async () => {
		const gw = client(sb.gatewayUrl);
		expect((await gw.get('/api/v1/network/info')).status).toBe(200);
		expect((await api.post('/sandbox/faults', { service: 'gateway', path: '/api/v1/network/info', mode: 'status', status: 503 })).status).toBe(201);
		expect((await gw.get('/api/v1/network/info')).status).toBe(503);
		expect((await gw.get('/api/v1/network/info')).status).toBe(200);
		expect((await api.post('/sandbox/faults', { service: 'nowhere', path: '/x', mode: 'drop' })).status).toBe(400);
	});

	it('validates fault rules', async () => {
		expect((await api.post('/sandbox/faults', { path: QUOTE, mode: 'explode' })).status).toBe(400);
	});
});

describe('transport errors (public-notes)', () => {
	it('answers 413 over 1 MiB, 415 for non-JSON bodies, 404 not_found for unknown routes and invalid JSON as 400', async () => {
		const big = await api.post(QUOTE, undefined, { key: SERVER, raw: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }) });
		expect(big.status).toBe(413);
		expect(big.body.error.code).toBe('payload_too_large');
		const text = await api.post(QUOTE, undefined, { key: SERVER, raw: 'hello', headers: { 'content-type': 'text/plain' } });
		expect(text.status).toBe(415);
		expect(text.body.error.code).toBe('unsupported_media_type');
		const missing = await api.get('/v1/nothing-here');
		expect(missing.status).toBe(404);
		expect(missing.body.error.code).toBe('not_found');
		const broken = await api.post(QUOTE, undefined, { key: SERVER, raw: '{"oops":' });
		expect(broken.status).toBe(400);
		expect(broken.body.error.code).toBe('invalid_request');
	});

	it('answers CORS preflight requests', async () => {
		const status = await new Promise<number>((resolve, reject) => {
			const req = httpRequest(`${sb.orchestrationUrl}${QUOTE}`, { method: 'OPTIONS', headers: { origin: 'https://app.sandbox.test', 'access-control-request-method': 'POST' } }, (res) => {
				res.resume();
				resolve(res.statusCode ?? 0);
			});
			req.on('error', reject);
			req.end();
		});
		expect(status).toBe(204);
	});
});

describe('request recording', () => {
	it('records what arrived with secrets redacted, and not the control endpoints', async () => {
		await api.post(QUOTE, quoteBody(), { key: CHECKOUT, idem: 'rec-1', headers: { 'x-read-token': 'rt_secret', 'cf-turnstile-response': 'tok' } });
		const { requests } = (await api.get(`/sandbox/requests?path=${QUOTE}`)).body;
		expect(requests).toHaveLength(1);
		const [r] = requests;
		expect(r).toMatchObject({ method: 'POST', path: QUOTE, route: QUOTE, status: 200, idempotencyKey: 'rec-1', replayed: false, keyType: 'client', partnerId: 'partner_sandbox_1' });
		expect(r.headers).toMatchObject({ authorization: 'REDACTED', 'x-read-token': 'REDACTED', 'cf-turnstile-response': 'REDACTED' });
		expect(r.body).toMatchObject({ sourceChain: 'base' });
		expect(JSON.stringify(requests)).not.toContain(CHECKOUT);
		expect((await api.get('/sandbox/requests?path=/sandbox/requests')).body.requests).toHaveLength(0);
		await api.del('/sandbox/requests');
		expect((await api.get('/sandbox/requests')).body.requests).toHaveLength(0);
	});

	it('a repeated method filter is answered, not a crash', async () => {
		await api.post(QUOTE, quoteBody(), { key: SERVER, idem: 'rec-2' });
		const res = await api.get('/sandbox/requests?method=get&method=post');
		expect(res.status).toBe(200);
		expect(res.body.requests).toEqual([]);
		expect((await api.get('/sandbox/requests?method=post')).body.requests).toHaveLength(1);
	});
});
