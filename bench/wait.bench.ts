/**
 * Order > Get Status with Wait Until Final (node version 3): how long after a status change at the
 * sandbox the node sees it, following the event stream vs polling every 3 s (public-notes.md: no
 * faster), side by side in one run. Each sample starts both waits on two orders, changes both to
 * `completed` at the same moment after a random delay, and takes the time until each node run ends
 * (the final /status read included). The node runs in the n8n-core harness over real HTTP.
 */
import { randomInt } from 'node:crypto';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { OrchestrationServerApi } from '../credentials/OrchestrationServerApi.credentials';
import type { Orchestration as OrchestrationNode } from '../nodes/Orchestration/Orchestration.node';
import { clearRoutesCache } from '../nodes/Orchestration/helpers/routes';
import { startSandbox, type Sandbox } from '../sandbox';
import { quoteParams } from '../test/e2e/orchestration.flows';
import { createHarness, executeNode } from '../test/harness/n8n';

// Under tsx, require('X.node') resolves the codex X.node.json before X.node.ts: name the file.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Orchestration } = require('../nodes/Orchestration/Orchestration.node.ts') as { Orchestration: typeof OrchestrationNode };

const SERVER_KEY = 'fn_sandbox_server_partner1';
const SAMPLES = Number(process.env.WAIT_BENCH_SAMPLES ?? 12);

function median(xs: number[]): number {
	const sorted = [...xs].sort((a, b) => a - b);
	return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
}

let executions = 0;

const sleep = async (ms: number) => await new Promise((r) => setTimeout(r, ms));

function node(sb: Sandbox, parameters: INodeParameters) {
	return createHarness({
		nodeType: new Orchestration(),
		credentialTypes: [new OrchestrationServerApi()],
		credentials: { orchestrationServerApi: { baseUrl: sb.orchestrationUrl, apiKey: SERVER_KEY } },
		parameters: { authentication: 'serverKey', ...parameters },
		// a new execution each time: quotes are not answered from an earlier idempotency key
		executionId: `bench-wait-${++executions}`,
	});
}

async function control(sb: Sandbox, path: string, body: unknown): Promise<IDataObject> {
	const res = await fetch(sb.orchestrationUrl + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	if (res.status >= 400) throw new Error(`${path} -> ${res.status} ${await res.text()}`);
	return (await res.json()) as IDataObject;
}

async function newOrder(sb: Sandbox): Promise<string> {
	const [[q]] = await executeNode(node(sb, quoteParams), [{ json: {} }]);
	const deposit = await control(sb, '/sandbox/deposits', { depositAddress: q.json.depositAddress, amount: q.json.amountIn });
	return String(deposit.orderId);
}

/** Ms from the change at the sandbox to the end of the node run, for one wait. */
async function timedWait(sb: Sandbox, orderId: string, followBy: 'stream' | 'polling', changedAt: Promise<number>): Promise<number> {
	const h = node(sb, { resource: 'order', operation: 'getStatus', lookupBy: 'id', id: orderId, waitUntilFinal: true, followBy, pollIntervalSeconds: 3, waitTimeoutSeconds: 60 });
	const [[out]] = await executeNode(h, [{ json: {} }]);
	const ended = Date.now();
	if (out.json.status !== 'completed' || out.json.waitedVia !== followBy) throw new Error(`unexpected end: ${JSON.stringify(out.json)}`);
	return ended - (await changedAt);
}

export async function run(): Promise<void> {
	clearRoutesCache();
	const sb = await startSandbox({ quiet: true, config: { switches: { autoAdvance: false } } });
	const latency: Record<'stream' | 'polling', number[]> = { stream: [], polling: [] };
	try {
		for (let i = 0; i < SAMPLES; i++) {
			const [streamOrder, pollOrder] = [await newOrder(sb), await newOrder(sb)];
			let changed!: (at: number) => void;
			const changedAt = new Promise<number>((resolve) => (changed = resolve));
			const waits = [timedWait(sb, streamOrder, 'stream', changedAt), timedWait(sb, pollOrder, 'polling', changedAt)];
			// a change at a random point of the poll cycle (the first read happens at once)
			await sleep(500 + randomInt(3000));
			const at = Date.now();
			await Promise.all([control(sb, `/sandbox/orders/${streamOrder}/advance`, { status: 'completed' }), control(sb, `/sandbox/orders/${pollOrder}/advance`, { status: 'completed' })]);
			changed(at);
			const [s, p] = await Promise.all(waits);
			latency.stream.push(s);
			latency.polling.push(p);
		}
	} finally {
		await sb.close();
	}
	const row = (name: string, xs: number[]) =>
		console.log(`${name.padEnd(28)} median ${median(xs).toFixed(0).padStart(5)} ms   min ${Math.min(...xs).toFixed(0).padStart(5)} ms   max ${Math.max(...xs).toFixed(0).padStart(5)} ms`);
	console.log(`status change -> node sees it (${SAMPLES} samples each, change at a random point of a 3 s poll cycle)`);
	row('event stream', latency.stream);
	row('polling every 3 s', latency.polling);
}
