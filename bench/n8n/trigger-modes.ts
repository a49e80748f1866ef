/**
 * `npm run bench:trigger-modes`: executions created per second by a real n8n 2.41.1 (counted in its
 * database, not answers) for the Orchestration Trigger (signed, distinct events, n8n's processed-data
 * store prefilled with 10,000 events: the run-time duplicate check reads and rewrites it), a minimal
 * community webhook trigger (bench/n8n/minimal-trigger, loaded as a custom extension like ours) and
 * n8n's own Webhook node, side by side in one run, in single mode and in queue mode (two webhook
 * processes, requests alternated), plus the single-mode ratio with N8N_EXPRESSION_ENGINE=legacy as
 * a diagnostic. A benchmark, not a test: it prints, it asserts nothing. Loopback only, bounded loops.
 * BENCH_N (deliveries per target and round, default 300), BENCH_ROUNDS (default 3),
 * BENCH_CONCURRENCY (default 8), BENCH_MODES (default "single,queue,single-legacy"), BENCH_MEMORY_KEYS
 * (events prefilled in the processed-data store, default 10000; the issue measures 10,000).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { computeWebhookSignature } from '../../nodes/shared/orchestration/webhooks';
import { REPO_ROOT, ensureN8nInstalled } from '../../scripts/lib/n8n-instance';
import { QueueStack } from '../../scripts/lib/queue-stack';
import { linearWorkflow, T } from '../../test/e2e/workflows';
import { median } from '../stats';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { bundle } = require('../../scripts/bundle.js');

const N = Number(process.env.BENCH_N ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const MODES = (process.env.BENCH_MODES ?? 'single,queue,single-legacy').split(',');
const MEMORY_KEYS = Number(process.env.BENCH_MEMORY_KEYS ?? 10_000);
const SECRET = 'whsec_bench_trigger_modes_0123456789abcdef';
const TRIGGER_NODE = 'Order events';

interface Target {
	id: string;
	label: string;
	webhookId: string;
	signed: boolean;
}

const TARGETS: Target[] = [
	{ id: 'benchOrchestration', label: 'Orchestration Trigger', webhookId: 'bench-orchestration-trigger', signed: true },
	{ id: 'benchMinimal', label: 'minimal community trigger', webhookId: 'bench-minimal-trigger', signed: false },
	{ id: 'benchWebhook', label: "n8n's Webhook node", webhookId: 'bench-n8n-webhook', signed: false },
];

function workflows(): Array<Record<string, unknown>> {
	const noop = { name: 'Received', type: T.noop, executeOnce: false };
	const ours = linearWorkflow(TARGETS[0].id, 'bench orchestration', [
		{
			name: TRIGGER_NODE, type: T.trigger, webhookId: TARGETS[0].webhookId,
			parameters: { registration: 'existingEndpoint', webhookSecret: SECRET, options: { deduplicationWindow: 2 * MEMORY_KEYS } },
		},
		noop,
	]);
	const minimal = linearWorkflow(TARGETS[1].id, 'bench minimal', [
		{ name: 'Minimal', type: 'CUSTOM.minimalWebhookTrigger', webhookId: TARGETS[1].webhookId }, noop,
	]);
	const webhook = linearWorkflow(TARGETS[2].id, 'bench webhook', [
		{ name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: TARGETS[2].webhookId, parameters: { httpMethod: 'POST', path: TARGETS[2].webhookId, options: {} } },
		noop,
	]);
	return [ours, minimal, webhook];
}

/**
 * n8n's processed-data row of the trigger holding `events` events (a key and an owner mark each, as
 * MD5 base64 like n8n's own hashes), written in its table before the run starts.
 */
async function prefillStore(stack: QueueStack, events: number): Promise<void> {
	const id = TARGETS[0].id;
	await stack.pg.sql(
		`insert into processed_data ("workflowId", context, value, "createdAt", "updatedAt") select '${id}', 'n:${id}-0', ` +
			`json_build_object('mode', 'entries', 'data', (select json_agg(encode(decode(md5('prefill' || i), 'hex'), 'base64')) from generate_series(1, ${2 * events}) i))::text, now(), now()`,
	);
}

function urlOf(target: Target, base: string): string {
	// n8n's Webhook node serves its `path`; webhook nodes of packages serve <webhookId>/<path>.
	return target.id === 'benchWebhook' ? `${base}/webhook/${target.webhookId}` : `${base}/webhook/${target.webhookId}/webhook`;
}

let serial = 0;

/** A distinct order event (distinct duplicate key), signed now when the target verifies. */
function delivery(target: Target): { body: string; headers: Record<string, string> } {
	const n = serial++;
	const now = Date.now();
	const body = JSON.stringify({
		event: 'order.completed',
		timestamp: new Date(now).toISOString(),
		data: { id: `ord_bench${n.toString(36)}`, status: 'completed', updatedAt: new Date(now).toISOString(), amountIn: '25000000', feeAmount: '75000' },
	});
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (target.signed) {
		headers['x-service-timestamp'] = String(now);
		headers['x-service-signature'] = computeWebhookSignature(SECRET, String(now), body);
	}
	return { body, headers };
}

async function executionCount(stack: QueueStack, workflowId: string): Promise<number> {
	const [n] = await stack.pg.sql(`select count(*) from execution_entity where "workflowId" = '${workflowId}'`);
	return Number(n);
}

/**
 * `count` deliveries, `CONCURRENCY` in flight, alternating over the processes; executions created
 * per second: from the first request until n8n's database holds an execution for each.
 */
async function measure(stack: QueueStack, target: Target, bases: string[], count: number): Promise<{ rate: number; failed: number; sample?: string }> {
	const before = await executionCount(stack, target.id);
	let next = 0;
	let failed = 0;
	let sample: string | undefined;
	const t0 = performance.now();
	await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
		while (next < count) {
			const i = next++;
			const d = delivery(target);
			const res = await fetch(urlOf(target, bases[i % bases.length]), { method: 'POST', headers: d.headers, body: d.body });
			const text = await res.text();
			if (res.status !== 200) {
				failed++;
				sample ??= `${res.status} ${text.slice(0, 200)}`;
			}
		}
	}));
	const deadline = Date.now() + 600_000;
	while ((await executionCount(stack, target.id)) < before + count - failed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
	return { rate: (count - failed) / ((performance.now() - t0) / 1000), failed, sample };
}

/** n8n answers readiness before every workflow's webhooks are active: wait until the URL is not 404. */
async function untilRegistered(target: Target, base: string, timeoutMs = 120_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await fetch(urlOf(target, base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		await res.arrayBuffer();
		if (res.status !== 404) return;
		if (Date.now() > deadline) throw new Error(`${target.label} is not registered at ${base} after ${timeoutMs} ms`);
		await new Promise((r) => setTimeout(r, 500));
	}
}

async function settle(stack: QueueStack): Promise<void> {
	for (const t of TARGETS) await stack.settledRuns(t.id, 1500, 600_000);
}

/** Each target's rate per round, in round order (the rounds interleave the targets). */
type Rates = Record<string, number[]>;

async function benchMode(mode: string, installDir: string, extensions: string): Promise<Rates> {
	const legacy = mode.endsWith('-legacy');
	const stack = await QueueStack.create({
		installDir, extensions, mode: mode.startsWith('queue') ? 'queue' : 'single',
		extraEnv: { N8N_LOG_LEVEL: 'warn', ...(legacy ? { N8N_EXPRESSION_ENGINE: 'legacy' } : {}) },
	});
	let failed = false;
	try {
		await stack.importAndPublish([], workflows(), TARGETS.map((t) => t.id));
		await prefillStore(stack, MEMORY_KEYS);
		await stack.startN8n();
		const bases = stack.balancer.backends;
		for (const t of TARGETS) for (const base of bases) await untilRegistered(t, base);
		for (const t of TARGETS) {
			const warm = await measure(stack, t, bases, 30);
			if (warm.failed) throw new Error(`${mode}: ${t.label} answered ${warm.sample} during warm-up`);
		}
		await settle(stack);
		const rates: Rates = {};
		for (let r = 0; r < ROUNDS; r++) {
			// Interleaved rounds, each after the previous backlog ran, so drift hits every target alike.
			for (const t of TARGETS) {
				const { rate, failed, sample } = await measure(stack, t, bases, N);
				if (failed) console.log(`  ${mode} ${t.label}: ${failed} of ${N} answers were not 200 (${sample})`);
				(rates[t.id] ??= []).push(rate);
				await settle(stack);
			}
		}
		return rates;
	} catch (error) {
		console.error(`${mode} failed; n8n logs kept: ${stack.logs().join(' ')}`);
		failed = true;
		throw error;
	} finally {
		await stack.stop(failed);
	}
}

/**
 * One folder with the package's dist and the minimal trigger: n8n 2.41 keys custom-extension loaders
 * by the package name "CUSTOM", so a second folder in N8N_CUSTOM_EXTENSIONS replaces the first.
 */
function extensionFolder(dist: string): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-bench-ext-'));
	fs.cpSync(dist, dir, { recursive: true });
	fs.cpSync(path.join(__dirname, 'minimal-trigger'), path.join(dir, 'minimal-trigger'), { recursive: true });
	return dir;
}

export async function run(): Promise<void> {
	const installDir = ensureN8nInstalled();
	const dist = path.join(REPO_ROOT, 'dist');
	await bundle({ outdir: dist });
	const extensions = extensionFolder(dist);
	console.log(`executions created/s (median of ${ROUNDS} interleaved rounds of ${N}, lowest to highest round in brackets; ${CONCURRENCY} in flight; processed-data store prefilled with ${MEMORY_KEYS} events)`);
	const rows: string[] = [];
	try {
		for (const mode of MODES) {
			const r = await benchMode(mode, installDir, extensions);
			const [ours, minimal, webhook] = TARGETS.map((t) => r[t.id]);
			// Side by side: each round's ratio (the targets of one round ran back to back).
			const perRound = (other: number[]) => ours.map((x, i) => x / other[i]);
			const cell = (xs: number[], digits: number) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
			const ofMedians = (other: number[]) => (median(ours) / median(other)).toFixed(2);
			rows.push(`| ${mode} | ${cell(ours, 1)} | ${cell(minimal, 1)} | ${cell(webhook, 1)} | ${cell(perRound(minimal), 2)}; ${ofMedians(minimal)} | ${cell(perRound(webhook), 2)}; ${ofMedians(webhook)} |`);
			console.log(rows.at(-1));
		}
	} finally {
		fs.rmSync(extensions, { recursive: true, force: true });
	}
	console.log('\n| mode | Orchestration Trigger | minimal community trigger | n8n Webhook node | ours / minimal: per round; of the medians | ours / Webhook: per round; of the medians |');
	console.log('|---|---|---|---|---|---|');
	for (const row of rows) console.log(row);
}

if (require.main === module) {
	run().then(() => process.exit(0), (error) => {
		console.error(error);
		process.exit(1);
	});
}
