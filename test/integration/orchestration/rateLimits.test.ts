/**
 * Pacing by the service's rate limits, over real HTTP against the sandbox's limiters as public-notes
 * describe them: an IP limiter (Order > Get by Quote, "authenticated order lookup") reports
 * `X-RateLimit-*` on every answer, so a batch stays under it without a denial; a key limiter (quote)
 * reports only on a denial (`Retry-After` in seconds, with the three headers), so a batch learns the
 * limit from its first denial and waits each one out with the same idempotency key. Fail the Item
 * fails at once, Stop stops a wait at once.
 */
import type { INodeParameters, NodeExecutionHint } from 'n8n-workflow';
import { clearPacers } from '../../../nodes/n8n/pacing';
import type { Sandbox } from '../../../sandbox';
import { CLIENT_ALL, control, executeNode, items, orchestrationNode, quoteParams, run, SERVER_KEY, startTestSandbox } from '../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());

/** The sandbox runs 20x faster: a spec window of `realMs * 20` lasts `realMs`. */
async function limitQuotes(perKeyIp: number, realWindowMs: number): Promise<void> {
	await control(sb).reset();
	await control(sb).config({ rateLimits: { enabled: true, windowMs: realWindowMs * 20, quote: { perKey: 600, perKeyIp } } });
}

/** The order lookup's IP limiter at `perIp` per window (quotes unlimited). */
async function limitLookups(perIp: number, realWindowMs: number): Promise<void> {
	await control(sb).reset();
	await control(sb).config({ rateLimits: { enabled: true, windowMs: realWindowMs * 20, perIp: { orderLookup: perIp } } });
}

beforeEach(async () => {
	clearPacers();
	await control(sb).clearRequests();
});

const quotes = async () => await control(sb).requests({ path: '/v1/orchestration/quote' });
const lookups = async () => await control(sb).requests({ path: '/v1/orchestration/order' });
const byAmount = (n: number) => items(n, (i) => ({ amount: String(100_000_000 + i) }));
const node = (options: INodeParameters = {}, continueOnFail = false) =>
	orchestrationNode({ sb, key: CLIENT_ALL, continueOnFail, parameters: quoteParams({ amount: '={{ $json.amount }}', options }) });
const lookupNode = (options: INodeParameters = {}, continueOnFail = false) =>
	orchestrationNode({ sb, key: SERVER_KEY, continueOnFail, parameters: { resource: 'order', operation: 'getByQuote', quoteId: '={{ $json.quoteId }}', options } });

/** `n` quotes of the server key, made outside the node (their ids are the lookups' input). */
async function quoteIds(n: number): Promise<Array<{ json: { quoteId: string } }>> {
	const [out] = await executeNode(orchestrationNode({ sb, key: SERVER_KEY, parameters: quoteParams({ amount: '={{ $json.amount }}' }) }), byAmount(n));
	await control(sb).clearRequests();
	return out.map((i) => ({ json: { quoteId: i.json.quoteId as string } }));
}

describe('a batch paced by an IP limiter\'s X-RateLimit-* (order lookup)', () => {
	it('20 lookups at 5 per 1 s window: all green, no request denied, about 3 windows', async () => {
		await limitLookups(5, 1000);
		const input = await quoteIds(20);
		const hints: NodeExecutionHint[] = [];
		const started = Date.now();
		const [out] = await executeNode(lookupNode(), input, 'manual', { hints });
		const took = Date.now() - started;
		expect(out.map((i) => i.json.quoteId)).toEqual(input.map((i) => i.json.quoteId));
		const log = await lookups();
		// Paced, not bouncing: the service never had to deny one.
		expect(log.map((r) => r.status)).toEqual(Array(20).fill(200));
		// The sandbox did send the IP limiter's headers (precondition of the pacing).
		expect(log.every((r) => r.limitHeaders['x-ratelimit-limit'] === '5')).toBe(true);
		// 20 requests at 5 per window: the fourth window opens 3 windows after the first (how close to
		// 3 s a run comes is `npm run bench -- bounds`).
		expect(took).toBeGreaterThanOrEqual(3000);
		expect(new Set(log.map((r) => r.limitHeaders['x-ratelimit-reset'])).size).toBeGreaterThanOrEqual(4);
		expect(hints).toEqual([expect.objectContaining({ type: 'info', message: expect.stringMatching(/^20\/20 items in \d+ s; \d+ s of it waiting for the service's rate limit/) })]);
	}, 20_000);
});

describe('a batch against a key limiter (headers only on a denial: quote)', () => {
	it('20 quotes at 5 per 1 s window: all green, one quote each, every denial retried with its item\'s key, paced once the limit is known', async () => {
		await limitQuotes(5, 1000);
		const hints: NodeExecutionHint[] = [];
		const started = Date.now();
		const [out] = await executeNode(node(), byAmount(20), 'manual', { hints });
		const took = Date.now() - started;
		expect(out.map((i) => i.json.amountIn)).toEqual(Array.from({ length: 20 }, (_, i) => String(100_000_000 + i)));
		const log = await quotes();
		const accepted = log.filter((r) => r.status === 200);
		const denied = log.filter((r) => r.status === 429);
		expect(accepted.length + denied.length).toBe(log.length);
		// One quote per item at the service, each under its own key.
		expect(accepted).toHaveLength(20);
		expect(new Set(accepted.map((r) => r.idempotencyKey)).size).toBe(20);
		expect(new Set(out.map((i) => i.json.quoteId)).size).toBe(20);
		// Admitted answers carried no limit header; the denials did (precondition: a key limiter).
		expect(accepted.every((r) => r.limitHeaders['x-ratelimit-limit'] === undefined)).toBe(true);
		expect(denied.length).toBeGreaterThan(0);
		expect(denied.every((r) => r.limitHeaders['x-ratelimit-limit'] === '5' && /^\d+$/.test(String(r.limitHeaders['retry-after'])))).toBe(true);
		// Every denied request was sent again with the same key and accepted.
		const acceptedKeys = new Set(accepted.map((r) => r.idempotencyKey));
		expect(denied.every((r) => acceptedKeys.has(r.idempotencyKey))).toBe(true);
		// Before the first denial nothing tells the node the limit (Quote runs 50 items at once): the
		// first window's overflow is denied. From then on the batch is paced by the limit the denial
		// named: in each later window at most one request (the one that finds out the window is still
		// open) is denied. Denials are grouped by the window (Reset) they name.
		const byWindow = new Map<string, number>();
		for (const r of denied) byWindow.set(r.limitHeaders['x-ratelimit-reset'], (byWindow.get(r.limitHeaders['x-ratelimit-reset']) ?? 0) + 1);
		const [first, ...later] = [...byWindow.values()];
		expect(first).toBeLessThanOrEqual(15);
		expect(later.every((n) => n === 1)).toBe(true);
		// 20 quotes at 5 per window: four windows, with a back-off of a second after each denial (the
		// time it takes: `npm run bench -- bounds`).
		expect(took).toBeGreaterThanOrEqual(3000);
		expect(hints).toEqual([expect.objectContaining({ type: 'info', message: expect.stringMatching(/^20\/20 items in \d+ s; \d+ s of it waiting for the service's rate limit/) })]);
	}, 30_000);

	it('a denial (another user of the key) is waited out by Retry-After, with the same idempotency key', async () => {
		await limitQuotes(2, 1000);
		// Someone else spends the window first.
		await run(node(), byAmount(2));
		clearPacers();
		await control(sb).clearRequests();
		const [out] = await executeNode(node(), byAmount(1));
		const log = await quotes();
		expect(log.map((r) => r.status)).toEqual([429, 200]);
		expect(log[1].idempotencyKey).toBe(log[0].idempotencyKey);
		expect(await control(sb).quotes({ idempotencyKey: log[0].idempotencyKey })).toEqual([expect.objectContaining({ quoteId: out[0].json.quoteId })]);
	}, 20_000);
});

describe('On Rate Limit', () => {
	/** A window of an hour: an item that waited for it could not end within the test's timeout. */
	const HOUR_MS = 3_600_000;

	it('Fail the Item: the first 429 fails the item at once, nothing waits', async () => {
		await limitQuotes(2, HOUR_MS);
		const hints: NodeExecutionHint[] = [];
		const [out] = await executeNode(node({ onRateLimit: 'fail', concurrency: 1 }, true), byAmount(4), 'manual', { hints });
		expect(out.map((i) => i.json.errorCode ?? 'ok')).toEqual(['ok', 'ok', 'rate_limited', 'rate_limited']);
		expect((await quotes()).map((r) => r.status)).toEqual([200, 200, 429, 429]);
		// The batch's own account: no time spent waiting for the limit (it adds a hint when there was).
		expect(hints).toEqual([]);
	});

	it('Wait with a maximum shorter than the window (a key limiter): the denied item fails at once naming the wait, nothing more is sent', async () => {
		await limitQuotes(2, HOUR_MS);
		const hints: NodeExecutionHint[] = [];
		// A maximum of 30 min: an item that waited it out before failing could not end within the test's timeout.
		const [out] = await executeNode(node({ maxRateLimitWait: 1800, concurrency: 1 }, true), byAmount(3), 'manual', { hints });
		// Nothing told the node the window was spent before the denial: the third quote was sent once.
		expect(out[2].json).toMatchObject({ errorCode: 'rate_limited' });
		expect(JSON.stringify(out[2].json)).toMatch(/the service asks to wait 3[56]\d\d s \(Retry-After\), past the item's Max Rate Limit Wait of 1800 s \(already waited 0 s\)/);
		expect((await quotes()).map((r) => r.status)).toEqual([200, 200, 429]);
		expect(hints).toEqual([]);
	});

	it('Stop ends a wait for the limit at once; nothing more is sent', async () => {
		await limitQuotes(2, HOUR_MS);
		const stop = new AbortController();
		const running = executeNode(node({ concurrency: 1, maxRateLimitWait: 7200 }), byAmount(5), 'manual', { abortSignal: stop.signal });
		// The third item is denied (a key limiter says nothing before) and waits for a window that opens in an hour.
		while ((await quotes()).length < 3) await new Promise((r) => setTimeout(r, 50));
		await new Promise((r) => setTimeout(r, 200));
		stop.abort();
		// Only Stop can end this run within the test's timeout.
		await expect(running).rejects.toThrow(/stopped/);
		expect((await quotes()).map((r) => r.status)).toEqual([200, 200, 429]);
	});
});
