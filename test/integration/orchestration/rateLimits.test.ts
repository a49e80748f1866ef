/**
 * Pacing by the service's rate limits, over real HTTP against the sandbox's client-key limiters
 * (public-notes: 429 rate_limited, Retry-After, X-RateLimit-*): a batch stays under the limit, the
 * same idempotency key crosses every wait, Fail the Item fails at once, Stop stops a wait at once.
 */
import type { INodeParameters, NodeExecutionHint } from 'n8n-workflow';
import { clearPacers } from '../../../nodes/n8n/pacing';
import type { Sandbox } from '../../../sandbox';
import { CLIENT_ALL, control, executeNode, items, orchestrationNode, quoteParams, run, startTestSandbox } from './helpers';

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

beforeEach(async () => {
	clearPacers();
	await control(sb).clearRequests();
});

const quotes = async () => await control(sb).requests({ path: '/v1/orchestration/quote' });
const byAmount = (n: number) => items(n, (i) => ({ amount: String(100_000_000 + i) }));
const node = (options: INodeParameters = {}, continueOnFail = false) =>
	orchestrationNode({ sb, key: CLIENT_ALL, continueOnFail, parameters: quoteParams({ amount: '={{ $json.amount }}', options }) });

describe('a batch paced by X-RateLimit-*', () => {
	it('20 quotes at 5 per 1 s window: all green, one quote each, no request denied, about 3 windows', async () => {
		await limitQuotes(5, 1000);
		const hints: NodeExecutionHint[] = [];
		const started = Date.now();
		const [out] = await executeNode(node(), byAmount(20), 'manual', { hints });
		const took = Date.now() - started;
		expect(out.map((i) => i.json.amountIn)).toEqual(Array.from({ length: 20 }, (_, i) => String(100_000_000 + i)));
		const log = await quotes();
		// Paced, not bouncing: the service never had to deny one.
		expect(log.map((r) => r.status)).toEqual(Array(20).fill(200));
		expect(new Set(log.map((r) => r.idempotencyKey)).size).toBe(20);
		expect(new Set(out.map((i) => i.json.quoteId)).size).toBe(20);
		// 20 requests at 5 per window: the fourth window opens 3 windows after the first.
		expect(took).toBeGreaterThanOrEqual(3000);
		expect(took).toBeLessThan(6000);
		expect(hints).toEqual([expect.objectContaining({ type: 'info', message: expect.stringMatching(/^20\/20 items in \d+ s; \d+ s of it waiting for the service's rate limit/) })]);
	}, 20_000);

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
	it('Fail the Item: the first 429 fails the item at once, nothing waits', async () => {
		await limitQuotes(2, 30_000);
		const started = Date.now();
		const [out] = await executeNode(node({ onRateLimit: 'fail', concurrency: 1 }, true), byAmount(4));
		expect(Date.now() - started).toBeLessThan(3000);
		expect(out.map((i) => i.json.errorCode ?? 'ok')).toEqual(['ok', 'ok', 'rate_limited', 'rate_limited']);
		expect((await quotes()).map((r) => r.status)).toEqual([200, 200, 429, 429]);
	});

	it('Wait with a maximum shorter than the window: the item fails at once and sends nothing', async () => {
		await limitQuotes(2, 30_000);
		const started = Date.now();
		const [out] = await executeNode(node({ maxRateLimitWait: 5, concurrency: 1 }, true), byAmount(3));
		expect(Date.now() - started).toBeLessThan(3000);
		expect(out[2].json.error).toMatch(/allowed again in \d+ s, past the item's Max Rate Limit Wait of 5 s/);
		expect((await quotes()).map((r) => r.status)).toEqual([200, 200]);
	});

	it('Stop ends a wait for the limit at once; nothing more is sent', async () => {
		await limitQuotes(2, 30_000);
		const stop = new AbortController();
		const started = Date.now();
		const running = executeNode(node({ concurrency: 1 }), byAmount(5), 'manual', { abortSignal: stop.signal });
		// The third item waits for a window that opens in 30 s.
		for (let i = 0; i < 100 && (await quotes()).length < 2; i++) await new Promise((r) => setTimeout(r, 50));
		await new Promise((r) => setTimeout(r, 200));
		stop.abort();
		await expect(running).rejects.toThrow(/stopped/);
		expect(Date.now() - started).toBeLessThan(5000);
		expect((await quotes()).map((r) => r.status)).toEqual([200, 200]);
	});
});
