/**
 * The sandbox's rate limiters as public-notes ("Errors, idempotency, rate limits") describe them,
 * per limiter kind: key limiters (per key and per key+IP) send headers only on a denial, with
 * `Retry-After` in seconds; IP limiters send the three `X-RateLimit-*` headers on every answer and
 * never `Retry-After`; Reset is Unix milliseconds; the defaults are the notes' table.
 */
import { ALL_SCOPES, CHECKOUT, type Answer, type Client, quoteBody, SERVER, start } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
// Real time: a window is 60 s unless a test shortens it.
beforeAll(async () => ({ sb, api } = await start({ timeScale: 1 })));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const QUOTE = '/v1/orchestration/quote';
const SUBMIT = '/v1/orchestration/submit';
const LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;
const ESTIMATE = '/v1/orchestration/estimate?sourceChain=base&sourceAsset=USDC&destinationChain=bitcoin&destinationAsset=BTC&amount=100000000';

/** The limit headers of an answer, by name (null when absent). */
function limitHeaders(a: Answer): Record<string, string | null> {
	return Object.fromEntries([...LIMIT_HEADERS, 'retry-after'].map((h) => [h, a.headers.get(h)]));
}

const noHeaders = { 'x-ratelimit-limit': null, 'x-ratelimit-remaining': null, 'x-ratelimit-reset': null, 'retry-after': null };

/** A key limiter's denial: the denying limiter's three headers, Reset in Unix ms within the window, Retry-After in whole seconds. */
function expectKeyDenial(a: Answer, limit: number, windowMs = 60_000): void {
	expect([a.status, a.body.error?.code]).toEqual([429, 'rate_limited']);
	const h = limitHeaders(a);
	expect([h['x-ratelimit-limit'], h['x-ratelimit-remaining']]).toEqual([String(limit), '0']);
	const reset = Number(h['x-ratelimit-reset']);
	expect(h['x-ratelimit-reset']).toMatch(/^\d{13}$/);
	// The sandbox read its clock between sentAt and receivedAt: Reset lies ahead of that moment, within a window.
	expect(reset).toBeGreaterThan(a.sentAt);
	expect(reset).toBeLessThanOrEqual(a.receivedAt + windowMs);
	expect(h['retry-after']).toMatch(/^\d+$/);
	const retryAfter = Number(h['retry-after']);
	expect(retryAfter).toBeGreaterThanOrEqual(1);
	expect(retryAfter).toBeLessThanOrEqual(Math.ceil(windowMs / 1000));
	// Retry-After and Reset name the same moment (whole seconds, rounded up from the sandbox's clock)
	expect(reset - a.receivedAt).toBeLessThanOrEqual(retryAfter * 1000);
	expect(reset - a.sentAt).toBeGreaterThan((retryAfter - 1) * 1000);
}

async function limits(switches: Record<string, unknown>): Promise<void> {
	expect((await api.post('/sandbox/config', { rateLimits: { enabled: true, ...switches } })).status).toBe(200);
}

describe('the defaults are the notes\' table', () => {
	it('per key / per key+IP: quote 600/60, estimate and status 6000/1200, submit and onramp 120/10, addresses 60/5; per IP: routes and limits 60, estimate and order lookup 120, claims 30; stream 30', async () => {
		const { switches } = (await api.get('/sandbox/config')).body;
		expect(switches.rateLimits).toMatchObject({
			enabled: false,
			windowMs: 60_000,
			quote: { perKey: 600, perKeyIp: 60 },
			estimate: { perKey: 6000, perKeyIp: 1200 },
			status: { perKey: 6000, perKeyIp: 1200 },
			submit: { perKey: 120, perKeyIp: 10 },
			onramp: { perKey: 120, perKeyIp: 10 },
			addresses: { perKey: 60, perKeyIp: 5 },
			perIp: { routes: 60, limits: 60, estimate: 120, orderLookup: 120, claims: 30 },
			serverKeys: false,
		});
		expect(switches.sseConnections).toEqual({ enabled: true, perIp: 30, windowMs: 60_000 });
	});

	it('is off by default (the stream\'s IP limiter aside): no limit headers, no denial', async () => {
		for (let i = 0; i < 15; i++) {
			const submit = await api.post(SUBMIT, { quoteId: 'q_none', txHash: '0x1' }, { key: CHECKOUT });
			expect([submit.status, limitHeaders(submit)]).toEqual([404, noHeaders]);
		}
		expect(limitHeaders(await api.get('/v2/orchestration/routes'))).toEqual(noHeaders);
	});
});

describe('key limiters send headers only on a denial, with Retry-After in seconds', () => {
	it('quote per key+IP: admitted answers carry no limit header; the denial carries the three and Retry-After', async () => {
		await limits({ quote: { perKeyIp: 3 } });
		const answers: Answer[] = [];
		for (let i = 0; i < 4; i++) answers.push(await api.post(QUOTE, quoteBody(), { key: CHECKOUT }));
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
		for (const a of answers.slice(0, 3)) expect(limitHeaders(a)).toEqual(noHeaders);
		expectKeyDenial(answers[3], 3);
		// server keys are not limited (unless a partner override says so)
		for (let i = 0; i < 4; i++) {
			const server = await api.post(QUOTE, quoteBody(), { key: SERVER });
			expect([server.status, limitHeaders(server)]).toEqual([200, noHeaders]);
		}
	});

	it('the per-key limiter denies with its own limit; offramp counts as a quote', async () => {
		await limits({ quote: { perKey: 2, perKeyIp: 60 } });
		expect((await api.post(QUOTE, quoteBody(), { key: ALL_SCOPES })).status).toBe(200);
		const offramp = await api.post('/v1/orchestration/offramp', {}, { key: ALL_SCOPES });
		expect([offramp.status, limitHeaders(offramp)]).toEqual([400, noHeaders]);
		expectKeyDenial(await api.post(QUOTE, quoteBody(), { key: ALL_SCOPES }), 2);
	});

	it('submit and onramp each have their own limiter', async () => {
		await limits({ submit: { perKeyIp: 1 }, onramp: { perKeyIp: 1 } });
		const submit = () => api.post(SUBMIT, { quoteId: 'q_none', txHash: '0x1' }, { key: ALL_SCOPES });
		const onramp = () => api.post('/v1/orchestration/onramp', {}, { key: ALL_SCOPES });
		const first = await submit();
		expect([first.status, limitHeaders(first)]).toEqual([404, noHeaders]);
		expect((await onramp()).status).toBe(400);
		expectKeyDenial(await onramp(), 1);
		expectKeyDenial(await submit(), 1);
	});

	it('status and an estimate with a key are key-limited (served estimate and status)', async () => {
		await limits({ status: { perKeyIp: 2 }, estimate: { perKeyIp: 1 } });
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push(await api.get('/v1/orchestration/status?id=ord_none', { key: 'fnp_sandbox_orders_read', headers: { 'x-read-token': 'rt_none' } }));
		expect(statuses.map((a) => [a.status, limitHeaders(a)['x-ratelimit-limit']])).toEqual([[403, null], [403, null], [429, '2']]);
		expectKeyDenial(statuses[2], 2);
		const keyed = await api.get(ESTIMATE, { key: CHECKOUT });
		expect([keyed.status, limitHeaders(keyed)]).toEqual([200, noHeaders]);
		expectKeyDenial(await api.get(ESTIMATE, { key: CHECKOUT }), 1);
	});

	it('accumulation create, reindex and liquidation create: 5 per key+IP each, counted apart', async () => {
		await limits({ addresses: { perKeyIp: 1 } });
		const reindex = () => api.post('/v1/accumulation-addresses/acc_sandbox_usdc_base/reindex', undefined, { key: 'fnp_sandbox_accumulation_create' });
		const create = () => api.post('/v1/accumulation-addresses', {}, { key: 'fnp_sandbox_accumulation_create' });
		const liquidation = () => api.post('/v1/liquidation-addresses', {}, { key: 'fnp_sandbox_liquidation_create' });
		for (const call of [reindex, create, liquidation]) {
			const admitted = await call();
			expect(admitted.status).not.toBe(429);
			expect(limitHeaders(admitted)).toEqual(noHeaders);
		}
		for (const call of [reindex, create, liquidation]) expectKeyDenial(await call(), 1);
	});

	it('server keys too when a partner override says so', async () => {
		await limits({ serverKeys: true, quote: { perKeyIp: 2 } });
		const answers = [];
		for (let i = 0; i < 3; i++) answers.push(await api.post(QUOTE, quoteBody(), { key: SERVER }));
		expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
		expectKeyDenial(answers[2], 2);
	});

	it('a shorter windowMs opens the next window sooner (tests scale windows down)', async () => {
		// 5 s: long enough that the second request falls in the first window on a loaded machine too.
		await limits({ windowMs: 5000, quote: { perKeyIp: 1 } });
		expect((await api.post(QUOTE, quoteBody(), { key: CHECKOUT })).status).toBe(200);
		const denied = await api.post(QUOTE, quoteBody(), { key: CHECKOUT });
		expectKeyDenial(denied, 1, 5000);
		await new Promise((r) => setTimeout(r, Number(denied.headers.get('x-ratelimit-reset')) - Date.now() + 50));
		expect((await api.post(QUOTE, quoteBody(), { key: CHECKOUT })).status).toBe(200);
	});
});

describe('IP limiters send the three X-RateLimit-* headers on every answer and never Retry-After', () => {
	/** `count` answers of `call`, then one more: the last past the limit. */
	async function exhaust(call: () => Promise<Answer>, limit: number): Promise<Answer[]> {
		const answers: Answer[] = [];
		for (let i = 0; i <= limit; i++) answers.push(await call());
		return answers;
	}

	function expectIpAnswers(answers: Answer[], limit: number): void {
		answers.forEach((a, i) => {
			const h = limitHeaders(a);
			expect({ i, limit: h['x-ratelimit-limit'], remaining: h['x-ratelimit-remaining'], retryAfter: h['retry-after'] }).toEqual({
				i,
				limit: String(limit),
				remaining: String(Math.max(0, limit - i - 1)),
				retryAfter: null,
			});
			expect(h['x-ratelimit-reset']).toMatch(/^\d{13}$/);
			expect(Number(h['x-ratelimit-reset'])).toBeGreaterThan(a.sentAt);
		});
		const denied = answers[answers.length - 1];
		expect([denied.status, denied.body.error?.code]).toEqual([429, 'rate_limited']);
		expect(answers.slice(0, -1).every((a) => a.status !== 429)).toBe(true);
	}

	it('the defaults show in the headers: routes 60, limits 60, keyless estimate 120, order lookup 120, claims 30', async () => {
		await limits({});
		const routes = await api.get('/v2/orchestration/routes');
		const limitsAnswer = await api.get('/v1/orchestration/limits');
		const estimate = await api.get(ESTIMATE);
		const lookup = await api.get('/v1/orchestration/order?quoteId=q_none', { key: SERVER });
		const claim = await api.post('/v1/affiliates/aff_sandbox_alpha/claim', {}, { key: SERVER });
		expect([routes, limitsAnswer, estimate, lookup, claim].map((a) => [a.status, a.headers.get('x-ratelimit-limit'), a.headers.get('retry-after')])).toEqual([
			[200, '60', null],
			[200, '60', null],
			[200, '120', null],
			[404, '120', null],
			[400, '30', null],
		]);
		// v1 routes and the claims list are not in the table
		expect(limitHeaders(await api.get('/v1/orchestration/routes'))).toEqual(noHeaders);
		expect(limitHeaders(await api.get('/v1/affiliates/aff_sandbox_alpha/claims', { key: SERVER }))).toEqual(noHeaders);
	});

	it('v2 routes and limits: past the limit 429 with the headers, no Retry-After; each endpoint its own count', async () => {
		await limits({ perIp: { routes: 3, limits: 2 } });
		expectIpAnswers(await exhaust(() => api.get('/v2/orchestration/routes'), 3), 3);
		expectIpAnswers(await exhaust(() => api.get('/v1/orchestration/limits'), 2), 2);
	});

	it('a keyless estimate is IP-limited; the order lookup counts every attempt, keyless ones too', async () => {
		await limits({ perIp: { estimate: 2, orderLookup: 2 } });
		expectIpAnswers(await exhaust(() => api.get(ESTIMATE), 2), 2);
		const lookups = [await api.get('/v1/orchestration/order?quoteId=q_none'), await api.get('/v1/orchestration/order?quoteId=q_none', { key: SERVER }), await api.get('/v1/orchestration/order?quoteId=q_none', { key: SERVER })];
		expect(lookups.map((a) => a.status)).toEqual([401, 404, 429]);
		expectIpAnswers(lookups, 2);
	});

	it('affiliate claims: 429 past the limit, for every key of the IP', async () => {
		await limits({ perIp: { claims: 2 } });
		const claim = () => api.post('/v1/affiliates/aff_sandbox_alpha/claim', {}, { key: SERVER });
		expectIpAnswers(await exhaust(claim, 2), 2);
		const other = await api.post('/v1/affiliates/aff_sandbox_beta/claim', {}, { key: SERVER });
		expect([other.status, other.headers.get('retry-after')]).toEqual([429, null]);
	});
});
