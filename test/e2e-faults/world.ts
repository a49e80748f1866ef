/**
 * One n8n stack for fault cases (queue mode: Postgres, Redis with its append-only file, main, worker,
 * two webhook processes behind a health-checked balancer; single mode: one n8n on Postgres behind the
 * same balancer), the sandbox delivering and retrying like the service, the recorder, and what a case
 * reads back: every execution tied to the delivery it carries, n8n's Retry, and the workflow's
 * publication through n8n's REST API (what the editor calls).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { replayKeyOf } from '../../nodes/OrchestrationTrigger/delivery';
import { WEBHOOK_RETRY_SCHEDULE_MS } from '../../nodes/shared/orchestration/limits';
import { startSandbox, type Sandbox } from '../../sandbox';
import { sandboxCredentials } from '../../scripts/lib/examples';
import { bodyHash } from '../../scripts/lib/balancer';
import { QueueStack } from '../../scripts/lib/queue-stack';
import { CREDS, T, linearWorkflow } from '../e2e/workflows';
import { TRIGGER_VERSION, pool } from '../e2e-queue/events';
import { erasureNamed, type Erasure, type Execution, type SentEvent } from './accounting';
import { Recorder } from './recorder';

export const WORKFLOW = 'faultTrigger';
const WEBHOOK_ID = '5b0f4d2a-7c1e-4a8b-9d3f-faulttrigger';
/** The one event kind each emitted order sends (a paid quote that stays put). */
export const EVENT = 'order.processing';
const OWNER = { email: 'faults@sandbox.local', password: 'Faults-Owner-Passw0rd', firstName: 'Fault', lastName: 'Owner' };

/**
 * The service's retry schedule (10 s ... 24 h, about 33 h in all) runs 240 times faster: 42 ms,
 * 125 ms, 0.5 s, 2.5 s, 7.5 s, 30 s, 90 s, 6 min; the last attempt comes 8.2 min after the first, so a
 * delivery n8n never accepts is given up inside the case. The sandbox's clock runs 10x, its retry
 * delays 24x more.
 */
const TIME_SCALE = 10;
const RETRY_DIVISOR = Number(process.env.FAULT_RETRY_DIVISOR ?? 24);
export const SCHEDULE_END_MS = WEBHOOK_RETRY_SCHEDULE_MS / (TIME_SCALE * RETRY_DIVISOR);
/**
 * Requests the balancer keeps open on each n8n process (the rest wait in its queue): given a crowd at
 * once, n8n answers every one of them late.
 */
const MAX_CONNS = 8;
/** How long the ledger takes to answer (and commit): executions stay in their effect step that long, so a fault can hit one there. */
const EFFECT_MS = 200;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function faultWorkflow(recorderUrl: string) {
	return linearWorkflow(WORKFLOW, 'Order events under faults', [
		{
			name: 'Order events', type: T.trigger, typeVersion: TRIGGER_VERSION,
			parameters: { registration: 'automatic', options: {} }, credentials: CREDS.server, webhookId: WEBHOOK_ID,
		},
		{
			name: 'Effect',
			type: T.http,
			executeOnce: false,
			parameters: {
				method: 'POST',
				url: recorderUrl,
				sendBody: true,
				specifyBody: 'json',
				// The execution that sent the effect (n8n's Retry lineage names it) and the delivery it ran for.
				// The ledger's update too: the order's quote and status (example 3 finds a payout by its quote).
				jsonBody: '={{ JSON.stringify({ orderId: $json.data.id, event: $json.event, executionId: $execution.id, deliveryId: $json.delivery.deliveryId, quoteId: $json.data.quoteId, status: $json.data.status }) }}',
				options: {},
			},
		},
		{ name: 'Received', type: T.noop, executeOnce: false },
	]);
}

/**
 * Every execution's data as n8n created it, copied in the same transaction (a trigger on
 * `execution_data`), before it ran: an execution whose data n8n later replaces by an error (a
 * stalled queue job) still names the delivery it carried.
 */
const MARKS = `
create table if not exists orch_fault_marks (execution_id integer primary key, data text not null, marked_at timestamptz not null default clock_timestamp());
create or replace function orch_fault_mark() returns trigger language plpgsql as $$
begin
	insert into orch_fault_marks (execution_id, data) values (new."executionId", new.data) on conflict do nothing;
	return new;
end $$;
drop trigger if exists orch_fault_mark on execution_data;
create trigger orch_fault_mark after insert on execution_data for each row execute function orch_fault_mark();
`;

type Flatted = { parse: (text: string) => unknown };

/**
 * The error n8n saved in place of an execution's data, when the data it was created with carried the
 * event and the data saved now is what `WorkflowRunner.processError` writes: an error, no run data of
 * any node and no event. A run that stopped at the trigger (a copy) or failed in a later node has
 * run data; an execution without saved data has none of it.
 */
export function replacedBy(flatted: Flatted, created: string | null, saved: string | null): string | undefined {
	if (saved === null || triggerItemOf(flatted, created ?? '').deliveryId === undefined) return undefined;
	const result = (flatted.parse(saved) as { resultData?: { error?: { message?: unknown }; runData?: Record<string, unknown> } } | null)?.resultData;
	const ranNothing = result?.runData !== undefined && Object.keys(result.runData).length === 0;
	if (result?.error === undefined || !ranNothing || triggerItemOf(flatted, saved).deliveryId !== undefined) return undefined;
	return String(result.error.message ?? '');
}

/**
 * Whether n8n erased an execution on one of its known paths (ERASURES): its data replaced by the
 * error n8n saves for a stalled job, or for a job the worker could not read from a database it
 * lost. Any other error in that form (a node type n8n could not load, a crash in the package) is
 * not n8n's erasure and excuses nothing.
 */
export function erasedByN8n(flatted: Flatted, created: string | null, saved: string | null): Erasure | undefined {
	return erasureNamed(replacedBy(flatted, created, saved));
}

/** n8n's `Problem with execution <id>: <message>. Aborting.` lines (processError, before it saves the error), by execution. */
export function abortedIn(logText: string): Map<string, string> {
	const out = new Map<string, string>();
	for (const m of logText.matchAll(/Problem with execution (\d+): (.*)\. Aborting\./g)) out.set(m[1], m[2]);
	return out;
}

/** The owner marks (`own:<deliveryId>`) as n8n's processed-data store keeps them: MD5, base64 (DeduplicationHelper.createValueHash). */
export function ownerMarkHash(deliveryId: string): string {
	return createHash('md5').update(`own:${deliveryId}`).digest('base64');
}

/** The trigger item an execution's data carries (the first object with `delivery.deliveryId`, `data.id` and `event`). */
export function triggerItemOf(flatted: Flatted, data: string): Pick<Execution, 'orderId' | 'event' | 'deliveryId' | 'replayKey'> {
	if (!data) return {};
	const seen = new Set<object>();
	const stack: unknown[] = [flatted.parse(data)];
	while (stack.length > 0) {
		const v = stack.pop();
		if (typeof v !== 'object' || v === null || seen.has(v)) continue;
		seen.add(v);
		const o = v as Record<string, unknown>;
		const d = o.delivery as Record<string, unknown> | undefined;
		const order = o.data as Record<string, unknown> | undefined;
		if (typeof d?.deliveryId === 'string' && typeof order?.id === 'string' && typeof o.event === 'string') {
			return { orderId: order.id, event: o.event, deliveryId: d.deliveryId, ...(typeof d.replayKey === 'string' ? { replayKey: d.replayKey } : {}) };
		}
		stack.push(...Object.values(o));
	}
	return {};
}

export interface RetryRound {
	requested: number;
	started: number;
	/** n8n's refusals by message (an erased execution cannot be retried: its data is gone). */
	refused: Record<string, number>;
}

export class World {
	private readonly flatted: Flatted;

	private constructor(
		readonly mode: 'queue' | 'single',
		readonly sb: Sandbox,
		readonly stack: QueueStack,
		readonly recorder: Recorder,
		private readonly cookie: string,
		installDir: string,
	) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		this.flatted = require(`${installDir}/node_modules/flatted`) as Flatted;
	}

	static async start(installDir: string, dist: string, mode: 'queue' | 'single'): Promise<World> {
		const sb = await startSandbox({ timeScale: TIME_SCALE, quiet: true });
		const recorder = new Recorder(EFFECT_MS);
		let stack: QueueStack | undefined;
		try {
			const config = await fetch(`${sb.orchestrationUrl}/sandbox/config`, {
				method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ deliveryRetryDivisor: RETRY_DIVISOR }),
			});
			if (config.status >= 300) throw new Error(`sandbox config: ${config.status} ${await config.text()}`);
			await recorder.listen();
			stack = await QueueStack.create({
				installDir, extensions: dist, mode, redisAof: true, durablePostgres: true, healthCheckedBalancer: true, maxConnsPerProcess: MAX_CONNS,
				// Crashed queue executions are found by the main's queue recovery: every minute here (default 3 h).
				extraEnv: { N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '1', QUEUE_WORKER_LOCK_DURATION: '10000', QUEUE_WORKER_STALLED_INTERVAL: '10000' },
			});
			await stack.importAndPublish(sandboxCredentials(sb), [faultWorkflow(recorder.url)], [WORKFLOW]);
			await stack.startN8n();
			await stack.pg.sql(MARKS);
			const cookie = await stack.main.setupOwner(OWNER);
			stack.supervise();
			const w = new World(mode, sb, stack, recorder, cookie, installDir);
			// n8n reports ready before it has activated the workflow; events before the registration go nowhere.
			await w.until('the trigger registered its endpoint', () => w.registration() !== undefined, 120_000);
			return w;
		} catch (error) {
			await stack?.stop(true).catch(() => undefined);
			await recorder.close();
			await sb.close();
			throw error;
		}
	}

	async stop(keepLogs: boolean): Promise<void> {
		await this.stack.stop(keepLogs).catch(() => undefined);
		await this.recorder.close();
		await this.sb.close();
	}

	get hookUrl(): string {
		return `${this.stack.publicUrl}webhook/${WEBHOOK_ID}/webhook`;
	}

	/** The enabled order-event endpoint at the service for the trigger's URL. */
	registration() {
		return this.sb.orchestration.ctx.state.webhooks.find((h) => h.kind === undefined && !h.disabledAt && h.url === this.hookUrl);
	}

	endpoints() {
		return this.sb.orchestration.ctx.state.webhooks.map((h) => ({ id: h.webhookId, kind: h.kind ?? 'orders', disabledAt: h.disabledAt ?? null }));
	}

	/** Polls `ok` every 50 ms; throws naming `what` when it does not hold within `timeoutMs`. */
	async until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (!(await ok())) {
			if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
			await sleep(50);
		}
	}

	async allUp(timeoutMs = 300_000): Promise<void> {
		await this.until('every n8n process is ready', async () => (await Promise.all(this.stack.processes().map((p) => p.ready()))).every(Boolean), timeoutMs);
	}

	/** Deliveries to the trigger made from `from` on (first deliveries, not injected copies). */
	deliveriesSince(from: number) {
		return this.sb.orchestration.ctx.state.deliveries.slice(from).filter((d) => !d.duplicateOf && d.event === EVENT);
	}

	/** The service's view of these events: every delivery and attempt, each attempt with the trigger's key of that request. */
	sentEvents(orderIds: string[]): SentEvent[] {
		const byOrder = new Map<string, SentEvent['deliveries']>(orderIds.map((id) => [id, []]));
		for (const d of this.sb.orchestration.ctx.state.deliveries) {
			const list = byOrder.get(d.orderId);
			if (list === undefined || d.duplicateOf || d.event !== EVENT) continue;
			list.push({
				state: d.state,
				attempts: d.attempts.map((a) => ({ status: a.status, replayKey: replayKeyOf(a.signature), at: a.at, ...(a.responseBody !== undefined ? { body: a.responseBody } : {}), ...(a.error ? { error: a.error } : {}) })),
			});
		}
		return orderIds.map((orderId) => ({ orderId, event: EVENT, deliveries: byOrder.get(orderId)! }));
	}

	/**
	 * Attempts of these events that got no answer (the service's 10 s timeout, or a dropped connection),
	 * by the second they were made, with the balancer's record of the request: which process, what it
	 * answered and after how long (an answer that came after the service gave up still shows here).
	 */
	unanswered(orderIds: string[]): Array<{ at: string; attempts: number; errors: string[]; forwarded: string[] }> {
		const ids = new Set(orderIds);
		const bySecond = new Map<string, { at: string; attempts: number; errors: Set<string>; forwarded: Map<string, number> }>();
		for (const d of this.sb.orchestration.ctx.state.deliveries) {
			if (!ids.has(d.orderId) || d.duplicateOf) continue;
			const hash = bodyHash(d.body);
			for (const a of d.attempts.filter((x) => x.status === null)) {
				const at = Date.parse(a.at);
				const slot = bySecond.get(a.at.slice(0, 19)) ?? { at: a.at.slice(0, 19), attempts: 0, errors: new Set(), forwarded: new Map() };
				bySecond.set(slot.at, slot);
				slot.attempts++;
				slot.errors.add((a.error ?? '').slice(0, 60));
				for (const f of this.stack.balancer.log.filter((x) => x.bodyHash === hash && x.at !== undefined && Math.abs(x.at - at) < 2000)) {
					const key = `backend ${f.backend}: ${f.status}${f.body ? ` ${JSON.stringify(f.body)}` : ''} after ${Math.round((f.ms ?? 0) / 1000)} s`;
					slot.forwarded.set(key, (slot.forwarded.get(key) ?? 0) + 1);
				}
			}
		}
		return [...bySecond.values()].map((s) => ({ at: s.at, attempts: s.attempts, errors: [...s.errors], forwarded: [...s.forwarded].map(([k, n]) => `${n} x ${k}`) }));
	}

	/** Each order's status as the service shows it (its control endpoint), 8 reads at a time. */
	async serviceStatuses(orderIds: string[]): Promise<Record<string, string>> {
		const out: Record<string, string> = {};
		await pool(orderIds, 8, async (id) => {
			const res = await fetch(`${this.sb.orchestrationUrl}/sandbox/orders/${id}`);
			if (res.status >= 300) throw new Error(`GET /sandbox/orders/${id}: ${res.status} ${await res.text()}`);
			out[id] = String(((await res.json()) as { order: { status: string } }).order.status);
		});
		return out;
	}

	async lastExecutionId(): Promise<number> {
		const [max] = await this.stack.pg.sql(`select coalesce(max(id), 0) from execution_entity`);
		return Number(max);
	}

	async statuses(sinceId: number): Promise<Record<string, number>> {
		const rows = await this.stack.pg.sql(`select status, count(*) from execution_entity where "workflowId" = '${WORKFLOW}' and id >= ${sinceId} group by status`);
		return Object.fromEntries(rows.map((r) => r.split('\t')).map(([s, n]) => [s, Number(n)]));
	}

	/** Every `Problem with execution N: ... Aborting.` line the n8n processes logged so far. */
	private aborted(): Map<string, string> {
		const text = this.stack.processes().map((p) => (fs.existsSync(p.stdoutLog) ? fs.readFileSync(p.stdoutLog, 'utf8') : '')).join('\n');
		return abortedIn(text);
	}

	/** The trigger's run-check store as n8n keeps it (`processed_data`): every value's hash. */
	private async storedHashes(): Promise<Set<string>> {
		const rows = await this.stack.pg.sql(`select value from processed_data where "workflowId" = '${WORKFLOW}'`);
		return new Set(rows.flatMap((r) => ((JSON.parse(r) as { data?: unknown }).data as string[] | undefined) ?? []));
	}

	/**
	 * Executions from `sinceId` on, each with the delivery it carried when n8n created it, its Retry
	 * lineage, whether its delivery owns the event (its owner mark is in the trigger's store), and,
	 * when n8n replaced its data by an error, that error and what n8n logged for it.
	 */
	async executions(sinceId: number): Promise<Execution[]> {
		const [json] = await this.stack.pg.sql(
			`select coalesce(json_agg(row_to_json(t) order by t.id), '[]') from (
				select e.id, e.status, e.mode, e."retryOf" as "retryOf", m.data as mark, d.data as saved
				from execution_entity e
				left join orch_fault_marks m on m.execution_id = e.id
				left join execution_data d on d."executionId" = e.id
				where e."workflowId" = '${WORKFLOW}' and e.id >= ${sinceId}) t`,
		);
		const rows = JSON.parse(json ?? '[]') as Array<{ id: number; status: string; mode: string; retryOf: string | null; mark: string | null; saved: string | null }>;
		const stored = await this.storedHashes();
		const aborted = this.aborted();
		return rows.map((r) => {
			const item = triggerItemOf(this.flatted, r.mark ?? '');
			const replaced = replacedBy(this.flatted, r.mark, r.saved);
			const erased = erasedByN8n(this.flatted, r.mark, r.saved);
			const logged = aborted.get(String(r.id));
			return {
				id: String(r.id), status: r.status, mode: r.mode, ...(r.retryOf ? { retryOf: String(r.retryOf) } : {}), ...item,
				...(item.deliveryId !== undefined && stored.has(ownerMarkHash(item.deliveryId)) ? { ownsEvent: true } : {}),
				...(replaced !== undefined ? { replacedBy: replaced } : {}), ...(erased ? { erased } : {}), ...(logged !== undefined ? { aborted: logged } : {}),
			};
		});
	}

	/** Waits until no execution is new, running or waiting and nothing (executions, effects) moved for `quietMs`. */
	async settle(sinceId: number, quietMs = 3000, timeoutMs = 600_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		let last = '';
		let since = Date.now();
		while (Date.now() < deadline) {
			const byStatus = await this.statuses(sinceId).catch(() => ({ unreadable: 1 }) as Record<string, number>);
			const busy = ['new', 'running', 'waiting', 'unknown', 'unreadable'].reduce((n, s) => n + (byStatus[s] ?? 0), 0);
			const sig = `${JSON.stringify(byStatus)}/${this.recorder.effects.length}`;
			if (sig !== last || busy > 0) {
				last = sig;
				since = Date.now();
			} else if (Date.now() - since >= quietMs) return;
			await sleep(500);
		}
		throw new Error(`executions did not settle within ${timeoutMs} ms`);
	}

	/** n8n's own Retry (the editor's button) on every crashed or failed execution from `sinceId` on, 4 at a time, until none is left. */
	async retryFailed(sinceId: number, done: Set<string>): Promise<RetryRound> {
		const out: RetryRound = { requested: 0, started: 0, refused: {} };
		for (let round = 0; round < 4; round++) {
			const failed = (await this.executions(sinceId)).filter((x) => ['crashed', 'error', 'failed'].includes(x.status) && !done.has(x.id));
			if (failed.length === 0) break;
			let next = 0;
			await Promise.all(Array.from({ length: 4 }, async () => {
				while (next < failed.length) {
					const x = failed[next++];
					done.add(x.id);
					out.requested++;
					const refused = (why: string) => (out.refused[why.slice(0, 120)] = (out.refused[why.slice(0, 120)] ?? 0) + 1);
					try {
						const res = await fetch(`${this.stack.main.url}/rest/executions/${x.id}/retry`, {
							method: 'POST', headers: { 'content-type': 'application/json', cookie: this.cookie }, body: JSON.stringify({ loadWorkflow: false }),
							// n8n answers once the retried run ended; a run it started shows in the executions (retryOf) either way
							signal: AbortSignal.timeout(300_000),
						});
						const text = await res.text();
						if (res.status < 300) out.started++;
						else refused(`${res.status} ${(() => { try { return (JSON.parse(text) as { message?: string }).message ?? text; } catch { return text; } })()}`);
					} catch (error) {
						refused(`no answer: ${(error as Error).name}`);
					}
				}
			}));
			await this.settle(sinceId);
		}
		return out;
	}

	private async rest<R>(method: string, path: string, body?: unknown): Promise<R> {
		const res = await fetch(`${this.stack.main.url}/rest${path}`, {
			method, headers: { cookie: this.cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
			body: body !== undefined ? JSON.stringify(body) : undefined,
		});
		const text = await res.text();
		if (res.status >= 300) throw new Error(`n8n ${method} /rest${path}: ${res.status} ${text.slice(0, 500)}`);
		return (JSON.parse(text) as { data: R }).data;
	}

	/**
	 * What a user does in the editor to change the trigger: edit one of its options (Timestamp
	 * Tolerance, 300 s <-> 600 s; nothing the case's deliveries notice), save (a new version), and
	 * publish that version. n8n 2.41.1 re-registers a trigger whose node changed (its publication
	 * service compares name, type, version, webhookId, credentials and parameters): the trigger's
	 * `delete`, then its `create`. A re-publish that leaves the trigger node alone touches nothing of it.
	 */
	async republish(): Promise<{ before: string; after: string; triggerOptions: unknown[] }> {
		type Node = { name: string; type: string; parameters: { options?: Record<string, unknown> } };
		const wf = await this.rest<{ versionId: string; activeVersionId: string; nodes: Node[] }>('GET', `/workflows/${WORKFLOW}`);
		const trigger = wf.nodes.find((n) => n.name === 'Order events')!;
		const tolerance = trigger.parameters.options?.toleranceSeconds === 600 ? 300 : 600;
		const nodes = wf.nodes.map((n) => (n === trigger ? { ...n, parameters: { ...n.parameters, options: { ...n.parameters.options, toleranceSeconds: tolerance } } } : n));
		const saved = await this.rest<{ versionId: string }>('PATCH', `/workflows/${WORKFLOW}`, { nodes });
		const published = await this.rest<{ activeVersionId: string; activeVersion?: { nodes: Node[] } }>('POST', `/workflows/${WORKFLOW}/activate`, { versionId: saved.versionId });
		const after = published.activeVersion?.nodes.find((n) => n.name === 'Order events');
		return { before: wf.activeVersionId, after: published.activeVersionId, triggerOptions: [trigger.parameters.options ?? {}, after?.parameters.options ?? 'unknown'] };
	}

	async deactivate(): Promise<void> {
		await this.rest('POST', `/workflows/${WORKFLOW}/deactivate`, {});
	}

	/** Publishes the workflow's current version again (the editor's Publish after a deactivation). */
	async activate(): Promise<void> {
		const wf = await this.rest<{ versionId: string }>('GET', `/workflows/${WORKFLOW}`);
		await this.rest('POST', `/workflows/${WORKFLOW}/activate`, { versionId: wf.versionId });
	}

	/** n8n's record of (de)activations: a re-publish shows as `deactivated` then `activated`. */
	async publishHistory(sinceId: number): Promise<Array<{ id: number; event: string; versionId: string }>> {
		const rows = await this.stack.pg.sql(`select id, event, "versionId" from workflow_publish_history where "workflowId" = '${WORKFLOW}' and id >= ${sinceId} order by id`);
		return rows.map((r) => r.split('\t')).map(([id, event, versionId]) => ({ id: Number(id), event, versionId }));
	}

	async lastPublishId(): Promise<number> {
		const [max] = await this.stack.pg.sql(`select coalesce(max(id), 0) from workflow_publish_history`);
		return Number(max);
	}

	/** Every n8n process started again (after `stack.stopN8n()`: SIGTERM, a worker finishes its running jobs), as a deploy does. */
	async startAll(): Promise<void> {
		await this.stack.startN8n();
		this.stack.supervise();
	}
}
