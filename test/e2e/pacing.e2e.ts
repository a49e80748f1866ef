/**
 * Issue 23 in a real n8n: a 200-item payout batch (client-key quote and submit per item) against
 * the sandbox's rate limits, scaled down, finishes green, paced instead of failing: every item's
 * quote distinct, one quote per item and one order per quote at the sandbox.
 */
import { closeEnv, createEnv, executeWorkflow, type E2eEnv } from './env';
import { nodeRuns, orchestrationBatch, tally } from './pacing.flows';

const ITEMS = 200;
let env: E2eEnv;

beforeAll(async () => {
	// Real time (quotes stay valid 2 min while the submits wait), windows of 1 s: 20 quotes and 10 submits per window and IP.
	env = await createEnv({ timeScale: 1 });
	await env.n8n.importWorkflows([orchestrationBatch('e2ePacedBatch', ITEMS, { submit: true })]);
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
});

it('200 quotes and submits under a low limit: green, distinct quotes, no extra effect', async () => {
	const state = env.sandbox.orchestration.ctx.state;
	await fetch(`${env.sandbox.orchestrationUrl}/sandbox/config`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ rateLimits: { enabled: true, windowMs: 1000, quote: { perKeyIp: 20 }, submit: { perKeyIp: 10 } } }),
	});
	const before = { quotes: state.quotes.size, orders: state.orders.size };
	const result = await executeWorkflow(env, 'e2ePacedBatch');
	if (!result.ok) throw new Error(result.raw.slice(-4000));
	const runs = nodeRuns(result.raw.slice(0, result.raw.lastIndexOf('\n}') + 3));
	const quotes = result.outputs.Quote;
	const orders = result.outputs.Submit;
	expect(quotes).toHaveLength(ITEMS);
	expect(orders).toHaveLength(ITEMS);
	expect(new Set(quotes.map((q) => q.quoteId)).size).toBe(ITEMS);
	expect(new Set(quotes.map((q) => q.amountIn)).size).toBe(ITEMS);
	expect(new Set(orders.map((o) => o.orderId)).size).toBe(ITEMS);
	expect(orders.map((o) => o.quoteId)).toEqual(quotes.map((q) => q.quoteId));
	const t = tally(state);
	expect(t.quotes - before.quotes).toBe(ITEMS);
	expect(t.orders - before.orders).toBe(ITEMS);
	expect(t.duplicateQuotes).toBe(0);
	expect(t.duplicateOrders).toBe(0);
	// 200 submits at 10 per 1 s window need at least 19 s: the batch was paced, not bounced.
	expect(runs.Submit.executionTime).toBeGreaterThanOrEqual(19_000);
	expect(runs.Submit.hints.map((h) => h.message)).toEqual([expect.stringMatching(/^200\/200 items in \d+ s; \d+ s of it waiting for the service's rate limit/)]);
	console.log(
		`paced batch: quotes ${runs.Quote.executionTime} ms, submits ${runs.Submit.executionTime} ms; denied by the sandbox: ${t.denied.quote} quotes, ${t.denied.submit} submits; ${runs.Submit.hints[0]?.message}`,
	);
});
