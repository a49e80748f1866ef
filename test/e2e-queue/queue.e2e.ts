/**
 * The Orchestration Trigger in n8n's queue mode (issue 11): Postgres, Redis, one main, one worker and
 * two webhook processes behind a balancer, the sandbox delivering. Counts runs in execution_entity
 * (every verified copy gets an execution: n8n answers only once it exists; a copy's run stops at the trigger, on the
 * check in n8n's processed-data store) and effective runs: executions in which the node after
 * the trigger ("Received") ran with the event, read from n8n's stored run data. Money depends on the latter.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox';
import { webhookSignature } from '../../sandbox';
import { sandboxCredentials } from '../../scripts/lib/examples';
import { ensureN8nInstalled } from '../../scripts/lib/n8n-instance';
import { QueueStack } from '../../scripts/lib/queue-stack';
import { bundleForN8n, removeDist } from '../e2e/env';
import { CREDS, T, linearWorkflow } from '../e2e/workflows';
import { TRIGGER_VERSION, emitEvents, originals, pool, redeliver, tallyRuns, type Original, type RunTally } from './events';
import { bodyHash } from '../../scripts/lib/balancer';

const WORKFLOW = 'queueTrigger';
const WEBHOOK_ID = '0c5e7d51-9a53-4d3e-8f1e-queuetrigger';
const EVENTS = 500;
const CONCURRENT_EVENTS = 100;
const LIVE_ENVELOPE_EVENTS = 40;
const RESEND_OFFSETS_MS = [1_000, 10_000, 60_000];
const NOT_ENVELOPE = JSON.stringify({ event: 'order.completed', timestamp: new Date(0).toISOString() });

let sb: Sandbox;
let stack: QueueStack;
let installDir: string;
let dist: string | undefined;
const tally = () => tallyRuns(stack, WORKFLOW, installDir);
const started = Date.now();
const report: Record<string, unknown> = {};
let passed = 0;

const hookPath = `webhook/${WEBHOOK_ID}/webhook`;
const backendUrl = (i: number) => `${stack.balancer.backends[i]}/${hookPath}`;
const publicHookUrl = () => `${stack.publicUrl}${hookPath}`;
// Order-event endpoints only (the trigger also registers a recovery subscription for the same URL).
const registrations = () => sb.orchestration.ctx.state.webhooks.filter((w) => w.url === publicHookUrl() && w.kind !== 'recovery');

function triggerWorkflow() {
	return linearWorkflow(WORKFLOW, 'Queue-mode order events', [
		{ name: 'Order events', type: T.trigger, typeVersion: TRIGGER_VERSION, parameters: { registration: 'automatic', options: {} }, credentials: CREDS.server, webhookId: WEBHOOK_ID },
		{ name: 'Received', type: T.noop, executeOnce: false },
	]);
}

/** Re-sends every original delivery to the other webhook process at each offset after its first attempt. */
class Resender {
	private readonly seen = new Set<string>();
	private readonly sends: Array<Promise<number | string | null>> = [];
	private open = 0;
	private polling = true;
	readonly polled: Promise<void>;

	constructor(private readonly orderIds: Set<string>, private expected: number) {
		this.polled = this.poll();
	}

	/** Fewer events than planned were emitted (the emission deadline passed). */
	expect(count: number): void {
		this.expected = count;
	}

	private async poll(): Promise<void> {
		const deadline = Date.now() + 300_000;
		while (this.polling && this.seen.size < this.expected && Date.now() < deadline) {
			for (const o of originals(sb, stack.balancer, this.orderIds)) if (!this.seen.has(o.deliveryId)) this.schedule(o);
			await new Promise((r) => setTimeout(r, 100));
		}
	}

	private schedule(o: Original): void {
		this.seen.add(o.deliveryId);
		for (const offset of RESEND_OFFSETS_MS) {
			const wait = Math.max(0, o.at + offset - Date.now());
			this.sends.push(new Promise((r) => setTimeout(r, wait)).then(() => this.send(o)));
		}
	}

	/** Re-sends not answered 200 at first (the service's 10 s timeout on a loaded machine), sent again as the service would. */
	again = 0;

	/** At most 8 re-sends open at once; a late one is still a re-send, just later than planned. Up to 3 tries, like the service's retries. */
	private async send(o: Original): Promise<number | string | null> {
		let status: number | string | null = null;
		for (let attempt = 0; attempt < 3; attempt++) {
			if (attempt > 0) this.again++;
			while (this.open >= 8) await new Promise((r) => setTimeout(r, 10));
			this.open++;
			try {
				status = await redeliver(sb, o.deliveryId, backendUrl(1 - o.backend));
			} catch (error) {
				status = `error: ${(error as Error).message}`;
			} finally {
				this.open--;
			}
			if (status === 200) break;
		}
		return status;
	}

	async done(): Promise<Record<string, number>> {
		await this.polled;
		this.polling = false;
		const statuses = await Promise.all(this.sends);
		return tallyStatuses(statuses);
	}
}

function tallyStatuses(statuses: Array<number | string | null>): Record<string, number> {
	const out: Record<string, number> = {};
	for (const s of statuses) out[String(s)] = (out[String(s)] ?? 0) + 1;
	return out;
}

/** The first deliveries of these orders once all are delivered (after retries), or as they are at the deadline. */
async function waitForDelivered(orderIds: Set<string>, timeoutMs = 120_000): Promise<Original[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const list = originals(sb, stack.balancer, orderIds);
		if ((list.length >= orderIds.size && list.every((o) => o.delivered)) || Date.now() > deadline) return list;
		await new Promise((r) => setTimeout(r, 250));
	}
}

const delta = (after: RunTally, before: RunTally) => ({ executions: after.runs - before.runs, effectiveRuns: after.effective - before.effective });

/** Orders among `ids` whose effective-run count is not exactly 1. */
const notOnce = (t: RunTally, ids: Iterable<string>) => [...ids].filter((id) => t.effectiveByOrder.get(id) !== 1);

beforeAll(async () => {
	installDir = ensureN8nInstalled();
	dist = await bundleForN8n();
	sb = await startSandbox({ timeScale: 1, quiet: true });
	stack = await QueueStack.create({ installDir, extensions: dist });
	await stack.importAndPublish(sandboxCredentials(sb), [triggerWorkflow()], [WORKFLOW]);
	await stack.startN8n();
	report.startupSeconds = Math.round((Date.now() - started) / 1000);
}, 600_000);

afterAll(async () => {
	report.wallSeconds = Math.round((Date.now() - started) / 1000);
	const keep = passed < 7;
	if (keep && stack) report.logs = stack.logs();
	const file = path.join(os.tmpdir(), 'orch-queue-e2e-report.json');
	fs.writeFileSync(file, JSON.stringify(report, null, 2));
	console.log(`queue-mode report (${file}):\n${JSON.stringify(report, null, 2)}`);
	await stack?.stop(keep);
	await sb?.close();
	removeDist(dist);
}, 120_000);

describe('Orchestration Trigger in queue mode (main, worker, two webhook processes)', () => {
	const firstIds = new Set<string>();
	let resender: Resender;
	let base: RunTally;

	it('activation registered one endpoint at the sandbox, the balancer URL', async () => {
		base = await tally();
		expect(registrations()).toHaveLength(1);
		passed++;
	});

	it(`${EVENTS} distinct events spread over both webhook processes: ${EVENTS} runs`, async () => {
		resender = new Resender(firstIds, EVENTS);
		const ids = await emitEvents(sb, EVENTS);
		ids.forEach((id) => firstIds.add(id));
		resender.expect(ids.length);
		const list = await waitForDelivered(firstIds);
		const perBackend = [0, 1].map((b) => list.filter((o) => o.backend === b).length);
		const t = await tally();
		const ranFor = [...firstIds].filter((id) => t.effectiveByOrder.has(id)).length;
		const delivered = list.filter((o) => o.delivered).length;
		report.distinctEvents = {
			planned: EVENTS, emitted: ids.length, firstAttemptPerProcess: perBackend, firstAttemptAnswers: tallyStatuses(list.map((o) => o.status)),
			deliveredAfterRetries: delivered, executions: t.runs, effectiveRuns: t.effective,
			// The 1 s re-sends overlap this pass: their empty executions are already counted here.
			extraExecutions: t.runs - t.effective, eventsThatRan: ranFor, byStatus: t.byStatus,
		};
		base = t;
		expect(perBackend.every((n) => n >= EVENTS * 0.4)).toBe(true);
		expect(delivered).toBe(EVENTS);
		expect(ranFor).toBe(EVENTS);
		expect(notOnce(t, firstIds)).toEqual([]);
		expect(t.effective).toBe(EVENTS);
		passed++;
	});

	it('every event re-sent to the other webhook process 1 s, 10 s and 60 s later: 0 extra effective runs', async () => {
		const answers = await resender.done();
		const t = await tally();
		const d = delta(t, base);
		report.resends = {
			sent: firstIds.size * RESEND_OFFSETS_MS.length, offsetsSeconds: RESEND_OFFSETS_MS.map((o) => o / 1000), answers, sentAgain: resender.again,
			executions: t.runs, extraExecutions: t.runs - t.effective, effectiveRuns: t.effective, extraEffectiveRuns: d.effectiveRuns,
		};
		console.log(`re-sends: ${t.runs - t.effective} extra executions in all, ${d.effectiveRuns} extra effective runs`);
		base = t;
		expect(answers).toEqual({ 200: EVENTS * RESEND_OFFSETS_MS.length });
		expect(d.effectiveRuns).toBe(0);
		// Each copy has its execution (n8n answered 200 once it existed); its run stopped at the trigger.
		// (Counted in all: on a slow machine the earlier test's tally already holds some of them.) A
		// re-send sent again after no answer may have reached n8n twice: one more execution each at most.
		expect(t.runs - t.effective).toBeGreaterThanOrEqual(EVENTS * RESEND_OFFSETS_MS.length);
		expect(t.runs - t.effective).toBeLessThanOrEqual(EVENTS * RESEND_OFFSETS_MS.length + resender.again);
		expect(notOnce(t, firstIds)).toEqual([]);
		passed++;
	}, 900_000);

	it('forged, stale and tampered deliveries: 401/400 and 0 runs, on both processes', async () => {
		const secret = registrations()[0]?.secret ?? 'none';
		const template = JSON.parse(originals(sb, stack.balancer, firstIds)[0].body) as { data: { id: string } };
		const fresh = (tag: string) => JSON.stringify({ ...template, data: { ...template.data, id: `ord_${tag}forged` } });
		const sign = (body: string, ts: number, key = secret) => ({ 'x-service-timestamp': String(ts), 'x-service-signature': webhookSignature(key, String(ts), body) });
		const now = Date.now();
		const cases = [
			{ name: 'forged (wrong secret)', body: fresh('a'), headers: sign(fresh('a'), now, 'whsec_forged_secret'), expect: [401] },
			{ name: 'stale (301 s old)', body: fresh('b'), headers: sign(fresh('b'), now - 301_000), expect: [401] },
			{ name: 'tampered (body changed after signing)', body: fresh('c'), headers: sign(fresh('d'), now), expect: [401] },
			{ name: 'signed, not an envelope', body: NOT_ENVELOPE, headers: sign(NOT_ENVELOPE, now), expect: [400] },
			// n8n's own JSON parser answers 422 before the node runs.
			{ name: 'signed non-JSON', body: 'not json', headers: sign('not json', now), expect: [400, 422] },
		];
		const got: Record<string, number[]> = {};
		for (const c of cases) {
			for (const b of [0, 1]) {
				const res = await fetch(backendUrl(b), { method: 'POST', headers: { 'content-type': 'application/json', ...c.headers }, body: c.body });
				const text = await res.text();
				expect(text).not.toContain(secret);
				(got[c.name] ??= []).push(res.status);
			}
		}
		const t = await tally();
		const newRuns = t.runs - base.runs;
		report.refused = { answers: got, newExecutions: newRuns, newEffectiveRuns: t.effective - base.effective };
		base = t;
		for (const c of cases) expect({ [c.name]: got[c.name].every((st) => c.expect.includes(st)) }).toEqual({ [c.name]: true });
		expect(newRuns).toBe(0);
		passed++;
	});

	it('after restarting every n8n process: the registration is reused and duplicates run nothing downstream', async () => {
		const before = registrations().map((w) => w.webhookId);
		const t0 = Date.now();
		await stack.stopN8n();
		await stack.startN8n();
		const restartSeconds = Math.round((Date.now() - t0) / 1000);
		const after = registrations().map((w) => w.webhookId);
		const sample = originals(sb, stack.balancer, firstIds).slice(0, 100);
		const dupAnswers = await pool(sample.flatMap((o) => [0, 1].map((b) => ({ o, b }))), 8, ({ o, b }) => redeliver(sb, o.deliveryId, backendUrl(b)));
		const newIds = new Set(await emitEvents(sb, 20));
		const newList = await waitForDelivered(newIds);
		const t = await tally();
		report.restart = {
			restartSeconds, registrationsBefore: before.length, registrationsAfter: after.length, sameWebhookId: before[0] === after[0],
			duplicatesResent: dupAnswers.length, duplicateAnswers: tallyStatuses(dupAnswers),
			newEvents: newIds.size, newEventAnswers: tallyStatuses(newList.map((o) => o.status)), ...delta(t, base),
			extraExecutions: delta(t, base).executions - newIds.size,
		};
		const d = delta(t, base);
		console.log(`after restart: ${dupAnswers.length} duplicates + ${newIds.size} new events -> ${d.executions} executions, ${d.effectiveRuns} effective runs`);
		base = t;
		expect(after).toEqual(before);
		expect(after).toHaveLength(1);
		expect(tallyStatuses(dupAnswers)).toEqual({ 200: dupAnswers.length });
		expect(d.effectiveRuns).toBe(newIds.size);
		expect(notOnce(t, [...firstIds, ...newIds])).toEqual([]);
		passed++;
	}, 600_000);

	it(`concurrent copies: ${CONCURRENT_EVENTS} events, each sent to both webhook processes at once: each runs downstream once`, async () => {
		stack.balancer.mode = 'all';
		try {
			const logFrom = stack.balancer.log.length;
			const ids = new Set(await emitEvents(sb, CONCURRENT_EVENTS));
			const list = await waitForDelivered(ids);
			const t = await tally();
			const d = delta(t, base);
			// Both processes got every event (the copies really were concurrent), and answered 200.
			const forwards = stack.balancer.log.slice(logFrom);
			const both = list.filter((o) => new Set(forwards.filter((f) => f.bodyHash === bodyHash(o.body) && f.status === 200).map((f) => f.backend)).size === 2).length;
			const twice = [...ids].filter((id) => (t.effectiveByOrder.get(id) ?? 0) > 1);
			const never = [...ids].filter((id) => !t.effectiveByOrder.has(id));
			report.concurrentCopies = {
				events: ids.size, copiesEach: 2, eventsReachingBothProcesses: both, delivered: list.filter((o) => o.delivered).length, ...d,
				eventsThatRan: ids.size - never.length, eventsRunTwice: twice.length,
			};
			console.log(`concurrent copies: ${ids.size} events x 2 processes at once -> ${d.executions} executions, ${d.effectiveRuns} effective runs (${twice.length} events ran twice)`);
			base = t;
			expect(ids.size).toBe(CONCURRENT_EVENTS);
			expect(list.filter((o) => o.delivered)).toHaveLength(CONCURRENT_EVENTS);
			expect(both).toBe(CONCURRENT_EVENTS);
			expect({ twice, never }).toEqual({ twice: [], never: [] });
			expect(d.effectiveRuns).toBe(CONCURRENT_EVENTS);
			// Each copy got its execution (the one that lost the race stopped at the trigger), or was answered by a process that had run it.
			expect(d.executions).toBeGreaterThanOrEqual(CONCURRENT_EVENTS);
			expect(d.executions).toBeLessThanOrEqual(2 * CONCURRENT_EVENTS);
			passed++;
		} finally {
			stack.balancer.mode = 'round-robin';
		}
	}, 600_000);
	it(`the live envelope (delivery time in \`timestamp\`, no data.updatedAt): ${LIVE_ENVELOPE_EVENTS} events, each delivered again 1.5 s later with a new timestamp to the other process: each runs downstream once`, async () => {
		await fetch(`${sb.orchestrationUrl}/sandbox/config`, {
			method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ webhookEnvelope: { timestamp: 'delivery', updatedAt: false } }),
		});
		try {
			const ids = new Set(await emitEvents(sb, LIVE_ENVELOPE_EVENTS));
			const list = await waitForDelivered(ids);
			const answers = await pool(list, 8, async (o) => {
				await new Promise((r) => setTimeout(r, Math.max(0, o.at + 1500 - Date.now())));
				return await redeliver(sb, o.deliveryId, backendUrl(1 - o.backend), true);
			});
			// preconditions, per event: no updatedAt, the copy differs from the original only in its delivery time
			const state = sb.orchestration.ctx.state.deliveries;
			const mismatched = list.filter((o) => {
				const copy = state.find((d) => d.duplicateOf === o.deliveryId);
				const [a, b] = [JSON.parse(o.body), JSON.parse(copy?.body ?? '{}')] as Array<{ timestamp?: string; data?: object }>;
				return !a.data || 'updatedAt' in a.data || JSON.stringify(b.data) !== JSON.stringify(a.data) || b.timestamp === a.timestamp;
			});
			const t = await tally();
			const d = delta(t, base);
			report.liveEnvelope = { events: ids.size, resentWithNewTimestamp: answers.length, answers: tallyStatuses(answers), ...d, eventsNotRunOnce: notOnce(t, ids).length };
			base = t;
			expect(ids.size).toBe(LIVE_ENVELOPE_EVENTS);
			expect(list.filter((o) => o.delivered)).toHaveLength(LIVE_ENVELOPE_EVENTS);
			expect(mismatched.map((o) => o.deliveryId)).toEqual([]);
			expect(tallyStatuses(answers)).toEqual({ 200: LIVE_ENVELOPE_EVENTS });
			expect(notOnce(t, ids)).toEqual([]);
			expect(d.effectiveRuns).toBe(LIVE_ENVELOPE_EVENTS);
			passed++;
		} finally {
			await fetch(`${sb.orchestrationUrl}/sandbox/config`, {
				method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ webhookEnvelope: { timestamp: 'event', updatedAt: true } }),
			});
		}
	}, 600_000);
});
