/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * Back-off from the service's headers is bounded, over real HTTP against the sandbox answering
 * such headers (its fault controls: a 429 with any Retry-After, extra headers on a real answer):
 * a zero or missing wait still backs off and counts, denials end an item after a bounded number
 * or its Max Rate Limit Wait, a wait beyond that maximum fails the item naming it, and no header
 * (on a denial or on a 200) holds the endpoint back for later executions. Pacers are one per
 * endpoint (path template, not per ID) and bounded in number.
 */
import type { INodeParameters } from 'n8n-workflow';
import { clearPacers, pacerCount, pacerFor, pacerSettings } from '../../../nodes/n8n/pacing';
import { endpointOf } from '../../../nodes/shared/endpoints';
import { clearNetworkInfoCache } from '../../../nodes/ExecutionGateway/helpers/gateway';
import type { Sandbox } from '../../../sandbox';
import { gatewayHarness, runError as gatewayError } from '../../harness/gateway';
import { control, executeNode, items, orchestrationNode, quoteParams, run, runError, startTestSandbox } from '../../harness/orchestration';

const QUOTE = '/v1/orchestration/quote';
const DEFAULTS = { ...pacerSettings };

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(async () => {
	clearPacers();
	await control(sb).clearFaults();
	await control(sb).clearRequests();
});
afterEach(() => Object.assign(pacerSettings, DEFAULTS));

const quotes = async () => await control(sb).requests({ path: QUOTE });
const quoteNode = (options: INodeParameters = {}, continueOnFail = false) =>
	orchestrationNode({ sb, continueOnFail, parameters: quoteParams({ amount: '={{ $json.amount }}', options }) });
const byAmount = (n: number) => items(n, (i) => ({ amount: String(100_000_000 + i) }));

/** The service refuses the next `times` quotes with 429 rate_limited and this Retry-After (none when undefined). */
async function denyQuotes(times: number, retryAfterSeconds?: number): Promise<void> {
	await control(sb).fault({ method: 'POST', path: QUOTE, mode: 'status', status: 429, code: 'rate_limited', times, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) });
}

describe('denials are bounded', () => {
	it('Retry-After: 0 on 200 denials: one item sends 3 requests (waits 1 s, then 2 s), then fails naming its Max Rate Limit Wait', async () => {
		await denyQuotes(200, 0);
		const started = Date.now();
		const error = await runError(quoteNode({ maxRateLimitWait: 5 }), byAmount(1));
		const took = Date.now() - started;
		// Before: 201 requests in a row, no pause, until the service stopped refusing.
		expect((await quotes()).map((r) => r.status)).toEqual([429, 429, 429]);
		expect(error.message).toMatch(/^rate_limited: .*\(after 3 attempts\)$/);
		expect(String(error.description)).toMatch(/^Rate limit: the next try would wait 4 s, past the item's Max Rate Limit Wait of 5 s \(already waited 3 s\)\. Nothing more was sent for this item\./);
		expect(took).toBeGreaterThanOrEqual(2_900);
		expect(took).toBeLessThan(6_000);
	}, 20_000);

	it.each([
		['Retry-After: 0', 0],
		['no Retry-After', undefined],
	])('%s on every answer: the item stops after 10 denials in a row, whatever its maximum', async (_name, retryAfter) => {
		// A short back-off to see the count end it quickly (the default is 1 s doubling to 30 s).
		Object.assign(pacerSettings, { denialWaitMs: 20, maxDenialWaitMs: 20 });
		await denyQuotes(200, retryAfter);
		const error = await runError(quoteNode({ maxRateLimitWait: 3600 }), byAmount(1));
		expect(await quotes()).toHaveLength(pacerSettings.maxDenials);
		expect(String(error.description)).toMatch(/^The service refused POST \/v1\/orchestration\/quote 10 times in a row \(429\)/);
	}, 20_000);

	it('a Retry-After of a day: the item fails at once naming the wait, and the next execution is not held back', async () => {
		await denyQuotes(1, 86_400);
		const error = await runError(quoteNode(), byAmount(1));
		expect(String(error.description)).toMatch(/^Rate limit: the service asks to wait 86400 s \(Retry-After\), past the item's Max Rate Limit Wait of 300 s \(already waited 0 s\)/);
		expect(await quotes()).toHaveLength(1);
		// Before: the pacer kept the day, and every later execution failed without sending anything.
		const started = Date.now();
		const [out] = await run(quoteNode(), byAmount(1));
		expect(out.quoteId).toEqual(expect.any(String));
		expect(Date.now() - started).toBeLessThan(3_000);
		expect((await quotes()).map((r) => r.status)).toEqual([429, 200]);
	}, 20_000);

	it('a Retry-After within the maximum is honoured by the item that got it', async () => {
		await denyQuotes(1, 2);
		const started = Date.now();
		const [out] = await run(quoteNode(), byAmount(1));
		expect(out.quoteId).toEqual(expect.any(String));
		expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
		const log = await quotes();
		expect(log.map((r) => r.status)).toEqual([429, 200]);
		expect(log[1].idempotencyKey).toBe(log[0].idempotencyKey);
	}, 20_000);
});

describe('calls outside a paced batch (the gateway, the trigger, dropdowns): their retry budget', () => {
	const info = () => gatewayHarness({ url: sb.gatewayUrl, signerKey: sb.keys.gateway.privateKeys[0] }, { resource: 'network', operation: 'getInfo' });
	beforeEach(() => clearNetworkInfoCache());
	afterEach(() => sb.gatewayFaults.clear());

	it('Retry-After: 0 still waits the back-off between attempts (0.5, 1, 2 s), 4 attempts in all', async () => {
		sb.gatewayFaults.add({ method: 'GET', path: '/api/v1/network/info', mode: 'status', status: 429, code: 'rate_limited', retryAfterSeconds: 0, times: 'always' });
		const started = Date.now();
		const error = await gatewayError(info());
		// Before: the 4 attempts went out back to back, within a few milliseconds.
		expect(Date.now() - started).toBeGreaterThanOrEqual(3_400);
		expect(error.message).toMatch(/^rate_limited: .*\(after 4 attempts\)$/);
	}, 20_000);

	it('a Retry-After beyond the budget: no retry, and the error names the wait', async () => {
		sb.gatewayFaults.add({ method: 'GET', path: '/api/v1/network/info', mode: 'status', status: 429, code: 'rate_limited', retryAfterSeconds: 3600, times: 'always' });
		const error = await gatewayError(info());
		expect(error.message).toBe('rate_limited: sandbox fault injected (status 429)');
		expect(String(error.description)).toMatch(/^The service asks to wait 3600 s \(Retry-After\), more than this call's retry budget of 30 s: it was not retried\./);
	});
});

describe('a far-future X-RateLimit-Reset on a 200', () => {
	it('(Remaining 0, reset a day ahead, on every answer) never holds the endpoint back: this batch and the next execution run', async () => {
		const reset = String(Date.now() + 86_400_000);
		await control(sb).fault({ method: 'POST', path: QUOTE, mode: 'headers', times: 'always', headers: { 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset } });
		const started = Date.now();
		const [first] = await executeNode(quoteNode({}, true), byAmount(3));
		// Before: the first answer's reset held the other two items (and every later execution) for a day.
		expect(first.map((i) => i.json.error ?? 'ok')).toEqual(['ok', 'ok', 'ok']);
		const second = await run(quoteNode(), byAmount(1));
		expect(second[0].quoteId).toEqual(expect.any(String));
		expect(Date.now() - started).toBeLessThan(5_000);
		expect((await quotes()).map((r) => r.status)).toEqual([200, 200, 200, 200]);
	}, 20_000);
});

describe('pacers', () => {
	it('are one per endpoint: a denial for one reference holds back the next reference of the same endpoint', async () => {
		const path = (ref: string) => `/v1/standing-deposit-addresses/${ref}`;
		await control(sb).fault({ method: 'GET', path: path('ref-a'), mode: 'status', status: 429, code: 'rate_limited', retryAfterSeconds: 1 });
		const node = orchestrationNode({ sb, continueOnFail: true, parameters: { resource: 'standingAddress', operation: 'get', reference: '={{ $json.ref }}', options: { concurrency: 2 } } });
		await executeNode(node, [{ json: { ref: 'ref-a' } }, { json: { ref: 'ref-b' } }]);
		const log = (await control(sb).requests()).filter((r: any) => String(r.path).startsWith('/v1/standing-deposit-addresses/'));
		const denied = log.find((r: any) => r.status === 429);
		const b = log.find((r: any) => r.path === path('ref-b'));
		expect(denied.path).toBe(path('ref-a'));
		// Before: ref-b had a pacer of its own and went at once, beside ref-a's denial.
		expect(Date.parse(b.at) - Date.parse(denied.at)).toBeGreaterThanOrEqual(900);
	}, 20_000);

	it('keys: method and path template, never the IDs in the path or the query', () => {
		expect(endpointOf('get', '/v1/affiliates/alpha/claims/clm_1')).toBe('GET /v1/affiliates/{id}/claims/{id}');
		expect(endpointOf('PUT', '/v1/standing-deposit-addresses/my%2Fref')).toBe('PUT /v1/standing-deposit-addresses/{id}');
		expect(endpointOf('GET', '/v1/standing-deposit-addresses/destinations')).toBe('GET /v1/standing-deposit-addresses/destinations');
		expect(endpointOf('GET', '/v1/orchestration/status?id=ord_1')).toBe('GET /v1/orchestration/status');
		expect(endpointOf('POST', '/v1/accumulation-addresses/0xabc/reindex')).toBe('POST /v1/accumulation-addresses/{id}/reindex');
	});

	it('are bounded in number: the least recently used go first', () => {
		for (let i = 0; i < 1000; i++) pacerFor(`https://a.example|cred|${i}|GET /v1/affiliates`);
		expect(pacerCount()).toBe(pacerSettings.maxPacers);
		const kept = pacerFor('https://a.example|cred|999|GET /v1/affiliates');
		pacerFor('https://a.example|cred|new|GET /v1/affiliates');
		expect(pacerFor('https://a.example|cred|999|GET /v1/affiliates')).toBe(kept);
		expect(pacerCount()).toBe(pacerSettings.maxPacers);
	});
});
