/**
 * The package inside a real n8n 2.41.1: every operation of both action nodes through `n8n execute`,
 * the trigger with real signed deliveries (duplicates, retries, forgeries), a restart, the example
 * workflows, and a search of every execution and n8n's logs for secrets.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { webhookSignature } from '../../sandbox';
import { CUSTOM_PREFIX, withNodePrefix } from '../../scripts/lib/n8n-instance';
import { forSandbox, loadExamples, pickSandboxKeys } from '../../scripts/lib/examples';
import { OWNER, closeEnv, createEnv, executeWorkflow, type E2eEnv } from './env';
import { gatewayWorkflows } from './gateway.flows';
import { lostAnswerWorkflows } from './lostAnswers.flows';
import { orchestrationWorkflows, type Flow } from './orchestration.flows';
import { SandboxClient, until, type Delivery } from './sandbox-client';
import { withSlackStandIns } from './slackStandIns';
import { CREDS, T, linearWorkflow } from './workflows';

const TRIGGER_WORKFLOW = 'e2eTrigger';
const TRIGGER_WEBHOOK_ID = 'e2e-order-events';
/** Examples that run through `n8n execute` (the others use n8n's Data Tables, which only a running n8n loads: test/e2e/unattended.e2e.ts). */
const CLI_EXAMPLES = ['exGatewayDeposit', 'exApprovedPayout'];

let env: E2eEnv;
let sandbox: SandboxClient;
let apiKey: string;
let flows: Flow[];
const cliOutputs: string[] = [];

interface Execution {
	id: string;
	workflowId: string;
	status: string;
	data?: unknown;
}

async function executions(workflowId: string, includeData = false): Promise<Execution[]> {
	const out: Execution[] = [];
	let cursor: string | undefined;
	do {
		const q = new URLSearchParams({ workflowId, limit: '250', includeData: String(includeData), ...(cursor ? { cursor } : {}) });
		const page = await env.n8n.api<{ data: Execution[]; nextCursor?: string | null }>(apiKey, 'GET', `/executions?${q}`);
		out.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return out;
}

/** Executions in which the node after the trigger ran (a copy's execution stops at the trigger). */
async function effectiveRuns(workflowId: string): Promise<Execution[]> {
	const all = await executions(workflowId, true);
	return all.filter((e) => {
		const runData = (e.data as { resultData?: { runData?: Record<string, unknown> } } | undefined)?.resultData?.runData ?? {};
		return Object.keys(runData).some((name) => name !== 'Order events');
	});
}

/** "order event" of each effective run, read from what "Received" got: one entry per run. */
function ranEvents(runs: Execution[]): string[] {
	type Run = { data?: { main?: Array<Array<{ json?: { event?: string; data?: { id?: string } } }> | null> } };
	return runs.flatMap((e) => {
		const received = (e.data as { resultData?: { runData?: Record<string, Run[]> } }).resultData?.runData?.Received ?? [];
		return received.flatMap((r) => (r.data?.main?.[0] ?? []).map((i) => `${String(i.json?.data?.id)} ${String(i.json?.event)}`));
	});
}

function triggerWorkflow() {
	return linearWorkflow(TRIGGER_WORKFLOW, 'E2E order events', [
		{
			name: 'Order events',
			type: T.trigger,
			parameters: { registration: 'automatic', options: {} },
			credentials: CREDS.server,
			webhookId: TRIGGER_WEBHOOK_ID,
		},
		{ name: 'Received', type: T.noop, executeOnce: false },
	]);
}

function triggerUrl(): string {
	return `${env.n8n.url}/webhook/${TRIGGER_WEBHOOK_ID}/webhook`;
}

/** Distinct (order, event) pairs the sandbox delivered to the trigger's endpoint. */
async function deliveredEvents(orderIds: string[]): Promise<Set<string>> {
	const hook = (await sandbox.webhooks()).find((w) => w.url === triggerUrl());
	if (!hook) return new Set();
	const all = await sandbox.deliveries({ webhookId: hook.webhookId });
	return new Set(all.filter((d) => orderIds.includes(d.orderId) && d.state === 'delivered').map((d) => `${d.orderId} ${d.event}`));
}

async function settledDeliveries(orderId: string): Promise<Delivery[]> {
	const hook = (await sandbox.webhooks()).find((w) => w.url === triggerUrl());
	return await until(`deliveries of ${orderId} to settle`, async () => {
		const list = await sandbox.deliveries({ webhookId: hook!.webhookId, orderId });
		const final = (await sandbox.orderStatus(orderId)) === 'completed';
		return final && list.length > 0 && list.every((d) => d.state === 'delivered') ? list : undefined;
	}, 180_000, 1000);
}

beforeAll(async () => {
	env = await createEnv();
	sandbox = new SandboxClient(env.sandbox);
	flows = [
		...orchestrationWorkflows(env.sandbox.orchestrationUrl),
		...gatewayWorkflows(env.sandbox.gatewayUrl, env.sandbox.keys.gateway.chainId),
		...lostAnswerWorkflows(env.sandbox.orchestrationUrl, env.sandbox.gatewayUrl),
	];
	const examples = loadExamples()
		.filter((e) => CLI_EXAMPLES.includes(e.workflow.id))
		.map((e) => forSandbox(withNodePrefix(withSlackStandIns(e.workflow as never), CUSTOM_PREFIX), env.sandbox));
	await env.n8n.importWorkflows([...flows.map((f) => f.workflow), triggerWorkflow(), ...examples]);
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
});

describe('action nodes through n8n execute', () => {
	it('runs every flow: each operation of both nodes, and a failing one', async () => {
		for (const flow of flows) {
			const result = await executeWorkflow(env, flow.id);
			cliOutputs.push(result.raw);
			try {
				flow.check(result, env);
			} catch (error) {
				throw new Error(`${flow.title}: ${(error as Error).message}`);
			}
		}
	});

	it('example 4 (gateway deposit) finishes green', async () => {
		const deposit = await executeWorkflow(env, 'exGatewayDeposit');
		cliOutputs.push(deposit.raw);
		if (!deposit.ok) throw new Error(deposit.raw.slice(-4000));
		expect(deposit.outputs['Deposit intent'][0]).toMatchObject({ status: 'FINALIZED' });
	});
});

describe('example 6: approved payout with a QR code (Slack steps replaced by stand-ins, test/e2e/slackStandIns.ts)', () => {
	it('estimates, creates the quote with its payment URI and QR, posts them, and follows the order to completed', async () => {
		const run = await executeWorkflow(env, 'exApprovedPayout');
		cliOutputs.push(run.raw);
		if (!run.ok) throw new Error(run.raw.slice(-4000));
		expect(run.outputs.Estimate[0]).toMatchObject({ amountInFormatted: '250' });
		const quote = run.outputs['Create quote'][0];
		const uri = /^ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=250000000$/;
		expect(quote).toMatchObject({ replayed: false, amountIn: '250000000', paymentUri: expect.stringMatching(uri) });
		expect(uri.exec(quote.paymentUri as string)?.[1]).toBe(quote.depositAddress);
		const posted = run.outputs['Post deposit and QR in Slack'][0];
		expect(posted).toMatchObject({ qrMimeType: 'image/png', slackFileName: `deposit-${quote.quoteId as string}.png` });
		expect(String(posted.qrFileSize)).toMatch(/^\d+(\.\d+)? ?[kM]?B$/);
		expect(posted.slackComment).toContain(`Pay *250 USDC* on Base to \`${quote.depositAddress as string}\` (no memo needed) before ${quote.expiresAt as string}`);
		expect(posted.slackComment).toContain(`Wallet link: ${quote.paymentUri as string}`);
		expect(run.outputs.Summary[0]).toMatchObject({ invoice: 'INV-2026-0042', status: 'completed', paidUsdc: '250' });
	});
});

describe('Orchestration Trigger in a running n8n', () => {
	const orders: string[] = [];
	let replayBody = '';

	beforeAll(async () => {
		const r = await env.n8n.cli(['publish:workflow', `--id=${TRIGGER_WORKFLOW}`]);
		if (r.code !== 0) throw new Error(`publish ${TRIGGER_WORKFLOW}: ${r.stderr || r.stdout}`);
		await env.n8n.start();
		const cookie = await env.n8n.setupOwner(OWNER);
		apiKey = await env.n8n.createApiKey(cookie);
	}, 300_000);

	it('n8n serves the output schemas to the editor, for the action nodes and the trigger (issue 22)', async () => {
		const get = async (p: string) => await fetch(`${env.n8n.url}/schemas/${p}.json`);
		const quote = await get('CUSTOM.orchestration/3.0.0/quote/create');
		expect(quote.status).toBe(200);
		expect(await quote.json()).toMatchObject({ type: 'object', properties: { paymentUri: { type: ['null', 'string'] }, replayed: { type: 'boolean' } } });
		const trigger = await (await get('CUSTOM.orchestrationTrigger/1.1.0')).json();
		expect(trigger).toMatchObject({ type: 'object', properties: { event: { type: 'string' }, data: { type: 'object' } } });
		expect((await get('CUSTOM.executionGateway/1.1.0/intent/execute')).status).toBe(200);
		expect((await get('CUSTOM.orchestration/3.0.0/quote/nothing')).status).toBe(404);
	});

	it('activation registered one endpoint for the trigger workflow', async () => {
		// n8n activates published workflows just after it reports ready.
		const urls = await until('the registration', async () => {
			const list = (await sandbox.webhooks()).map((w) => w.url).filter((u) => u.startsWith(env.n8n.url));
			return list.length >= 1 ? list : undefined;
		});
		await new Promise((r) => setTimeout(r, 1000));
		expect(urls).toEqual([triggerUrl()]);
		expect((await sandbox.webhooks()).map((w) => w.url).filter((u) => u.startsWith(env.n8n.url))).toEqual([triggerUrl()]);
	});

	it('real signed deliveries with injected duplicates start exactly one run per distinct event', async () => {
		await sandbox.setSwitches({ duplicateDeliveries: true });
		orders.push(await sandbox.paidOrder());
		const list = await settledDeliveries(orders[0]);
		expect(list.some((d) => d.duplicateOf)).toBe(true);
		const distinct = await deliveredEvents(orders);
		expect(distinct.size).toBeGreaterThanOrEqual(3);
		const runs = await until('one run per event', async () => {
			const ex = await effectiveRuns(TRIGGER_WORKFLOW);
			return ex.length >= distinct.size ? ex : undefined;
		});
		await new Promise((r) => setTimeout(r, 2000));
		// A copy that arrives while the first run has not reached the trigger yet gets an execution
		// that stops at the trigger; every event runs downstream once.
		expect(await effectiveRuns(TRIGGER_WORKFLOW)).toHaveLength(distinct.size);
		expect(runs.every((e) => e.status === 'success')).toBe(true);
		replayBody = list[0].body;
	});

	it('forged, tampered, stale, future, unsigned and malformed deliveries are refused and start nothing', async () => {
		const before = (await executions(TRIGGER_WORKFLOW)).length;
		const secret = sandbox.webhookSecrets().get(triggerUrl())!;
		const now = Date.now();
		const sign = (body: string, ts: number, key = secret) => ({
			'x-service-timestamp': String(ts),
			'x-service-signature': webhookSignature(key, String(ts), body),
		});
		const tampered = replayBody.replace('"status":"', '"status":"x');
		const cases: Array<{ name: string; body: string; headers: Record<string, string>; status: number[] }> = [
			{ name: 'no headers', body: replayBody, headers: {}, status: [401] },
			{ name: 'wrong secret', body: replayBody, headers: sign(replayBody, now, 'whsec_wrong'), status: [401] },
			{ name: 'tampered body', body: tampered, headers: { ...sign(replayBody, now) }, status: [401] },
			{ name: 'stale', body: replayBody, headers: sign(replayBody, now - 301_000), status: [401] },
			// A minute past the 300 s tolerance: the cases before it take a while on a busy machine, and a
			// timestamp 301 s ahead at `now` is within the tolerance a second later.
			{ name: 'future', body: replayBody, headers: sign(replayBody, now + 360_000), status: [401] },
			{ name: 'seconds timestamp', body: replayBody, headers: sign(replayBody, Math.floor(now / 1000)), status: [401] },
			{ name: 'short signature', body: replayBody, headers: { ...sign(replayBody, now), 'x-service-signature': 'abc' }, status: [401] },
			{ name: 'signed non-JSON', body: 'not json', headers: sign('not json', now), status: [400, 422] },
		];
		for (const c of cases) {
			const res = await fetch(triggerUrl(), { method: 'POST', headers: { 'content-type': 'application/json', ...c.headers }, body: c.body });
			const text = await res.text();
			expect({ name: c.name, ok: c.status.includes(res.status) }).toEqual({ name: c.name, ok: true });
			expect(text).not.toContain(secret);
		}
		// A retry of an accepted delivery (fresh timestamp and signature, same payload) is a duplicate;
		// the very same request sent again is a replay.
		const retryHeaders = { 'content-type': 'application/json', ...sign(replayBody, Date.now()) };
		const retry = await fetch(triggerUrl(), { method: 'POST', headers: retryHeaders, body: replayBody });
		expect([retry.status, ((await retry.json()) as { ignored?: string }).ignored]).toEqual([200, 'duplicate']);
		await new Promise((r) => setTimeout(r, 2000));
		expect(await executions(TRIGGER_WORKFLOW)).toHaveLength(before);
		// A new event is accepted once; the very same request sent again is a replay.
		const fresh = JSON.parse(replayBody) as { data: { id: string } };
		fresh.data.id = `${fresh.data.id}_replayed`;
		const freshBody = JSON.stringify(fresh);
		const freshHeaders = { 'content-type': 'application/json', ...sign(freshBody, Date.now()) };
		expect((await fetch(triggerUrl(), { method: 'POST', headers: freshHeaders, body: freshBody })).status).toBe(200);
		await until('the fresh event ran', async () => ((await executions(TRIGGER_WORKFLOW)).length >= before + 1) || undefined);
		await new Promise((r) => setTimeout(r, 1000));
		const replay = await fetch(triggerUrl(), { method: 'POST', headers: freshHeaders, body: freshBody });
		expect([replay.status, ((await replay.json()) as { ignored?: string }).ignored]).toEqual([200, 'duplicate']);
		await new Promise((r) => setTimeout(r, 2000));
		expect(await executions(TRIGGER_WORKFLOW)).toHaveLength(before + 1);
		// Every refusal is in n8n's log at warn level with its reason (issue 12), without the secret.
		const log = fs.readFileSync(path.join(env.userFolder, 'n8n.log'), 'utf8');
		const refusals = log.split('\n').filter((line) => line.includes('Orchestration Trigger refused a delivery'));
		// (The signed non-JSON body may be refused by n8n's own body parser before the node sees it.)
		for (const reason of ['missing_signature', 'signature_mismatch', 'stale_timestamp', 'future_timestamp', 'malformed_signature']) {
			expect({ reason, logged: refusals.some((line) => line.includes(reason) && /warn/i.test(line)) }).toEqual({ reason, logged: true });
		}
		expect(refusals.join('\n')).not.toContain(secret);
	});

	it('the live envelope (delivery time in `timestamp`, no data.updatedAt): every event delivered again 1.5 s later with a new timestamp runs once', async () => {
		await sandbox.setSwitches({ webhookEnvelope: { timestamp: 'delivery', updatedAt: false } });
		try {
			const ids = [await sandbox.paidOrder(), await sandbox.paidOrder()];
			const originals = (await Promise.all(ids.map((id) => settledDeliveries(id)))).flat().filter((d) => !d.duplicateOf);
			const copies: Delivery[] = [];
			for (const o of originals) {
				await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(o.attempts[0].at) + 1500 - Date.now())));
				const res = await fetch(`${env.sandbox.orchestrationUrl}/sandbox/deliveries/${o.deliveryId}/redeliver`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ restamp: true }),
				});
				copies.push(((await res.json()) as { delivery: Delivery }).delivery);
			}
			// preconditions, per event: no updatedAt, the copy differs only in its delivery time, n8n took it
			for (const [i, o] of originals.entries()) {
				const [a, b] = [JSON.parse(o.body), JSON.parse(copies[i].body)] as Array<{ timestamp: string; data: object }>;
				expect({ event: o.event, updatedAt: 'updatedAt' in a.data, sameData: JSON.stringify(b.data) === JSON.stringify(a.data), newTime: b.timestamp !== a.timestamp, answer: copies[i].attempts[0].status })
					.toEqual({ event: o.event, updatedAt: false, sameData: true, newTime: true, answer: 200 });
			}
			const sent = [...new Set(originals.map((d) => `${d.orderId} ${d.event}`))].sort();
			expect(sent.length).toBeGreaterThanOrEqual(6);
			await until('a run per event', async () => ranEvents(await effectiveRuns(TRIGGER_WORKFLOW)).filter((e) => ids.some((id) => e.startsWith(id))).length >= sent.length || undefined);
			await new Promise((r) => setTimeout(r, 2000));
			expect(ranEvents(await effectiveRuns(TRIGGER_WORKFLOW)).filter((e) => ids.some((id) => e.startsWith(`${id} `))).sort()).toEqual(sent);
		} finally {
			await sandbox.setSwitches({ webhookEnvelope: { timestamp: 'event', updatedAt: true } });
		}
	});

	it('after a restart the registration is reused, deliveries missed while down are retried, duplicates stay caught', async () => {
		const before = (await executions(TRIGGER_WORKFLOW)).length;
		const extraBefore = before - (await effectiveRuns(TRIGGER_WORKFLOW)).length;
		await env.n8n.stop();
		orders.push(await sandbox.paidOrder());
		// While n8n is down the sandbox's first attempts fail; its retries (scaled 10 s, 30 s, 2 min, ...) land after the restart.
		await until('a failed attempt while n8n is down', async () => {
			const hook = (await sandbox.webhooks()).find((w) => w.url === triggerUrl());
			const list = await sandbox.deliveries({ webhookId: hook!.webhookId, orderId: orders[1] });
			return list.some((d) => d.attempts.some((a) => a.status === null)) || undefined;
		});
		await env.n8n.start();
		await settledDeliveries(orders[1]);
		expect((await sandbox.webhooks()).filter((w) => w.url === triggerUrl())).toHaveLength(1);
		const secondOrderEvents = [...(await deliveredEvents([orders[1]]))];
		// Wait for the runs past the trigger, not for an execution count: copies' executions count
		// too, so the count was reached while a run of the second order was still going.
		const effective = before - extraBefore + secondOrderEvents.length;
		await until('the second order\'s runs past the trigger', async () => ((await effectiveRuns(TRIGGER_WORKFLOW)).length >= effective) || undefined);
		// An event accepted before the restart, delivered again: still a duplicate.
		const secret = sandbox.webhookSecrets().get(triggerUrl())!;
		const ts = String(Date.now());
		const again = await fetch(triggerUrl(), {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-service-timestamp': ts, 'x-service-signature': webhookSignature(secret, ts, replayBody) },
			body: replayBody,
		});
		expect(again.status).toBe(200);
		await new Promise((r) => setTimeout(r, 2000));
		// After the restart no process remembers it: it gets an execution, whose run finds the event in
		// n8n's processed-data store and stops at the trigger.
		// (Attempts that reached n8n while it stopped or started may have left copies' executions too.)
		expect((await executions(TRIGGER_WORKFLOW)).length).toBeGreaterThanOrEqual(before + secondOrderEvents.length + 1);
		expect(await effectiveRuns(TRIGGER_WORKFLOW)).toHaveLength(effective);
	});

	it('the workflow static data holds the registration and nothing else after all the deliveries', async () => {
		// Neither webhook() nor the runs write static data: the duplicate check lives in n8n's processed-data store.
		const file = path.join(env.userFolder, 'trigger-export.json');
		const r = await env.n8n.cli(['export:workflow', `--id=${TRIGGER_WORKFLOW}`, `--output=${file}`], { N8N_RUNNERS_BROKER_PORT: String(env.brokerPort) });
		expect(r.code).toBe(0);
		const [exported] = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ staticData: Record<string, Record<string, unknown>> }>;
		fs.rmSync(file);
		const node = exported.staticData['node:Order events'];
		const hook = (await sandbox.webhooks()).find((w) => w.url === triggerUrl())!;
		expect(node).toMatchObject({ webhookId: hook.webhookId, url: triggerUrl(), registrationNonce: expect.stringMatching(/^[0-9a-f]{32}$/) });
		expect(node).not.toHaveProperty('deliveries');
		expect(node).not.toHaveProperty('signatures');
	});

	it('no secret appears in any execution, in n8n logs or in CLI output', async () => {
		const { server, client, gatewayPrivateKey } = pickSandboxKeys(env.sandbox);
		const secrets: Record<string, string> = {
			'server key': server.key,
			'client key': client.key,
			'gateway private key': gatewayPrivateKey,
		};
		for (const [id, secret] of sandbox.allWebhookSecrets()) secrets[`webhook secret of ${id}`] = secret;
		sandbox.accessTokens().forEach((t, i) => (secrets[`gateway access token ${i}`] = t));
		expect(sandbox.accessTokens().length).toBeGreaterThan(0);

		const haystacks: Record<string, string> = {};
		const workflows = [...flows.map((f) => f.id), TRIGGER_WORKFLOW, ...CLI_EXAMPLES];
		for (const id of workflows) haystacks[`executions of ${id}`] = JSON.stringify(await executions(id, true));
		for (const file of fs.readdirSync(env.userFolder).filter((f) => f.endsWith('.log'))) {
			haystacks[file] = fs.readFileSync(path.join(env.userFolder, file), 'utf8');
		}
		haystacks['CLI output'] = cliOutputs.join('\n');
		expect(haystacks['executions of e2eTrigger'].length).toBeGreaterThan(1000);
		const hits: string[] = [];
		for (const [name, secret] of Object.entries(secrets)) {
			for (const [where, text] of Object.entries(haystacks)) if (text.includes(secret)) hits.push(`${name} in ${where}`);
		}
		expect(hits).toEqual([]);
	});
});
