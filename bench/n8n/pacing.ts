/**
 * `npm run bench:pacing` (issue 23): payout batches in a real n8n 2.41.1, side by side in one run.
 * (a) With the sandbox's client-key limits on (public-notes numbers, 60 quotes and 10 submits per
 *     window and IP; windows scaled to BENCH_WINDOW_MS, default 1000): N quotes and N submits by the
 *     Orchestration node (defaults: On Rate Limit = Wait) and by n8n's HTTP Request node batching at
 *     the documented limit (60 and 10 items per window). Failed items, duplicate quotes and orders at
 *     the sandbox, and the total time against the floor the limits allow.
 * (b) Without limits: Quote > Create over N items against the HTTP Request node doing the same POSTs
 *     (the same bodies, one idempotency key per item, every item at once): items per second and
 *     their ratio, per round (side by side) and of the medians. Both nodes at the version and
 *     settings a user who adds them today gets; the Orchestration node also with Concurrency 5 (the
 *     default before the Quote operations' 50).
 * Time is the nodes' own run time from n8n's run data (not the CLI's start). A benchmark, not a
 * test: it prints, it asserts nothing. BENCH_N (default 1000), BENCH_ROUNDS for (b) (default 3).
 */
import { closeEnv, createEnv, type E2eEnv } from '../../test/e2e/env';
import { httpRequestBatch, nodeRuns, orchestrationBatch, tally, type NodeRun } from '../../test/e2e/pacing.flows';
import { pickSandboxKeys } from '../../scripts/lib/examples';
import { median, medianAndSpread } from '../stats';

const N = Number(process.env.BENCH_N ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 1000);
/** public-notes: per key and IP, quote 60 and submit 10 per window. */
const QUOTES_PER_WINDOW = 60;
const SUBMITS_PER_WINDOW = 10;

interface Leg {
	label: string;
	ms: number;
	failed: number;
	quotes: number;
	duplicateQuotes: number;
	orders: number;
	duplicateOrders: number;
	denied: string;
	note?: string;
}

async function sandboxCall(env: E2eEnv, path: string, body: unknown): Promise<void> {
	const res = await fetch(`${env.sandbox.orchestrationUrl}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (res.status >= 400) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

/** A fresh sandbox (no quotes, orders, counters), limits on or off. */
async function freshSandbox(env: E2eEnv, limited: boolean): Promise<void> {
	await sandboxCall(env, '/sandbox/reset', {});
	const rateLimits = limited
		? { enabled: true, windowMs: WINDOW_MS, quote: { perKey: 600, perKeyIp: QUOTES_PER_WINDOW }, submit: { perKey: 120, perKeyIp: SUBMITS_PER_WINDOW } }
		: { enabled: false };
	await sandboxCall(env, '/sandbox/config', { rateLimits });
}

/** `n8n execute` of one workflow and its run data (the CLI's own start is not counted). */
async function execute(env: E2eEnv, id: string, label: string): Promise<Record<string, NodeRun>> {
	const r = await env.n8n.cli(['execute', `--id=${id}`, '--rawOutput'], { N8N_RUNNERS_BROKER_PORT: String(env.brokerPort), N8N_LOG_OUTPUT: 'console', N8N_LOG_LEVEL: 'info' }, 600_000);
	try {
		if (r.code !== 0) throw new Error(`exit code ${r.code}`);
		const runs = nodeRuns(r.stdout.slice(0, r.stdout.lastIndexOf('\n}') + 3));
		if (Object.keys(runs).length === 0) throw new Error('no run data in the output');
		return runs;
	} catch (error) {
		throw new Error(`${label}: ${(error as Error).message}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
	}
}

async function runLeg(env: E2eEnv, id: string, label: string): Promise<{ leg: Leg; runs: Record<string, NodeRun> }> {
	const runs = await execute(env, id, label);
	const last = runs.Submit ?? runs.Quote;
	if (!last) throw new Error(`${label}: no run data`);
	const t = tally(env.sandbox.orchestration.ctx.state);
	const failed = N - last.items.filter((i) => i.error === undefined && (i.orderId ?? i.quoteId) !== undefined).length;
	return {
		runs,
		leg: {
			label,
			ms: (runs.Quote?.executionTime ?? 0) + (runs.Submit?.executionTime ?? 0),
			failed,
			quotes: t.quotes,
			duplicateQuotes: t.duplicateQuotes,
			orders: t.orders,
			duplicateOrders: t.duplicateOrders,
			denied: `${t.denied.quote} quote, ${t.denied.submit} submit`,
			note: [...(runs.Quote?.hints ?? []), ...(runs.Submit?.hints ?? [])].map((h) => h.message).join(' | ') || undefined,
		},
	};
}

function printLimited(legs: Leg[], floorMs: number): void {
	console.log(`\n(a) ${N} client-key quotes + ${N} submits, limits on: ${QUOTES_PER_WINDOW} quotes and ${SUBMITS_PER_WINDOW} submits per ${WINDOW_MS} ms window and IP`);
	console.log(`    floor the limits allow: (${Math.ceil(N / QUOTES_PER_WINDOW) - 1} + ${Math.ceil(N / SUBMITS_PER_WINDOW) - 1}) windows = ${(floorMs / 1000).toFixed(1)} s`);
	for (const l of legs) {
		console.log(
			`    ${l.label.padEnd(44)} ${(l.ms / 1000).toFixed(1).padStart(6)} s = ${(l.ms / floorMs).toFixed(3)}x floor; failed items ${l.failed}; quotes ${l.quotes} (duplicates ${l.duplicateQuotes}); orders ${l.orders} (duplicates ${l.duplicateOrders}); 429s ${l.denied}`,
		);
		if (l.note) console.log(`      hint: ${l.note}`);
	}
}

async function limitedComparison(env: E2eEnv): Promise<void> {
	const floorMs = ((Math.ceil(N / QUOTES_PER_WINDOW) - 1) + (Math.ceil(N / SUBMITS_PER_WINDOW) - 1)) * WINDOW_MS;
	const legs: Leg[] = [];
	await freshSandbox(env, true);
	legs.push((await runLeg(env, 'benchPacedOurs', 'Orchestration node (defaults, paced)')).leg);
	await freshSandbox(env, true);
	legs.push((await runLeg(env, 'benchPacedHttp', `HTTP Request node (batching ${QUOTES_PER_WINDOW}/${SUBMITS_PER_WINDOW} per window)`)).leg);
	printLimited(legs, floorMs);
}

async function unlimitedComparison(env: E2eEnv): Promise<void> {
	const targets = [
		{ id: 'benchFreeOurs', label: 'Orchestration Quote > Create (defaults)' },
		{ id: 'benchFreeOurs5', label: 'Orchestration Quote > Create (Concurrency 5)' },
		{ id: 'benchFreeHttp', label: 'HTTP Request node, same POSTs' },
	];
	const rates = new Map<string, number[]>(targets.map((t) => [t.id, []]));
	const failures = new Map<string, number>(targets.map((t) => [t.id, 0]));
	for (let round = 0; round < ROUNDS; round++) {
		for (const t of targets) {
			await freshSandbox(env, false);
			const { leg } = await runLeg(env, t.id, t.label);
			rates.get(t.id)!.push(N / (leg.ms / 1000));
			failures.set(t.id, failures.get(t.id)! + leg.failed + leg.duplicateQuotes);
		}
	}
	const http = rates.get('benchFreeHttp')!;
	console.log(`\n(b) ${N} quotes, no limits, ${ROUNDS} rounds, the targets alternating (node run time)`);
	for (const t of targets) {
		const r = rates.get(t.id)!;
		// Side by side: each round's ratio to the HTTP Request node's run of the same round.
		const perRound = r.map((x, i) => x / http[i]);
		console.log(
			`    ${t.label.padEnd(46)} ${medianAndSpread(r)} items/s (rounds ${r.map((x) => x.toFixed(0)).join(', ')}); ratio to HTTP Request per round ${medianAndSpread(perRound, 2)} (${perRound.map((x) => x.toFixed(2)).join(', ')}), of the medians ${(median(r) / median(http)).toFixed(2)}; failed or duplicate ${failures.get(t.id)}`,
		);
	}
}

async function main(): Promise<void> {
	const env = await createEnv({ timeScale: 1 });
	try {
		const { client } = pickSandboxKeys(env.sandbox);
		const http = { baseUrl: env.sandbox.orchestrationUrl, clientKey: client.key };
		await env.n8n.importWorkflows([
			orchestrationBatch('benchPacedOurs', N, { submit: true }),
			httpRequestBatch('benchPacedHttp', N, {
				...http,
				submit: true,
				quoteBatch: { batchSize: QUOTES_PER_WINDOW, batchInterval: WINDOW_MS },
				submitBatch: { batchSize: SUBMITS_PER_WINDOW, batchInterval: WINDOW_MS },
			}),
			orchestrationBatch('benchFreeOurs', N, { submit: false }),
			orchestrationBatch('benchFreeOurs5', N, { submit: false, concurrency: 5 }),
			httpRequestBatch('benchFreeHttp', N, { ...http, submit: false }),
		]);
		const only = process.env.BENCH_PART;
		if (only !== 'b') await limitedComparison(env);
		if (only !== 'a') await unlimitedComparison(env);
	} finally {
		await closeEnv(env);
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
