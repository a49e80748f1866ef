/**
 * Every order event is delivered, acknowledged only once its execution exists, and runs downstream
 * once, while a dependency or an n8n process dies, every n8n process restarts, or the workflow is
 * re-published or deactivated and activated again. Queue mode: Postgres, Redis with its append-only
 * file (fsync always), one main, one worker, two webhook processes behind a balancer that routes to
 * ready processes only, each n8n process restarted whenever it exits (a service manager's
 * Restart=always); single mode: one n8n on Postgres behind the same balancer. The trigger runs at
 * its default version. The sandbox delivers and retries like the service on every non-2xx or
 * network error, on the service's schedule 240 times faster (world.ts): its last attempt comes
 * inside the case, so a delivery n8n never accepts is given up and fails the case.
 *
 * The workflow: the trigger, then "Effect", an HTTP Request to a recorder in this process (the side
 * effect a ledger would have; it names the execution that sent it and updates the payout's ledger
 * row), then "Received". Per case: 200 payouts, each quoted and written to the ledger before the
 * wallet pays it (payouts.ts), their events while the fault happens, the fault timed to hit work in
 * flight; once every delivery ended and nothing runs, every execution that crashed or failed is
 * retried through n8n's own Retry, then the shipped reconciliation's reads run (example 7,
 * reconcile.ts). Then, by event (accounting.ts): every event sent to a registered endpoint and
 * delivered; every 2xx backed by an execution of that request; no event lost unless its owning
 * execution was erased by n8n on a known path (a stalled job, a worker that lost its database);
 * every extra effect a Retry of an execution that had already run it; after the reconciliation
 * every event's order in the ledger with the service's status, each event reported as run once,
 * lost then recovered, or lost (which fails). The cases that n8n itself does not break (a restart,
 * a re-publish, a deactivation) allow no loss and no second run at all. And each case checks that
 * its fault took effect.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureN8nInstalled } from '../../scripts/lib/n8n-instance';
import { bundleForN8n, removeDist } from '../e2e/env';
import { pickSandboxKeys } from '../../scripts/lib/examples';
import { TRIGGER_VERSION } from '../e2e-queue/events';
import { account, settle, unexplained, unsettled, type Account, type Execution, type Settlement } from './accounting';
import { payMany } from './payouts';
import { reconcile, type Reconciliation } from './reconcile';
import { SCHEDULE_END_MS, World, sleep } from './world';

const EVENTS = Number(process.env.FAULT_EVENTS ?? 200);
/**
 * The service's events come at most this fast (and at most 8 deliveries open), whether or not the
 * endpoint answers: the retries of events refused during a fault come back spread the same way.
 */
const EVENTS_PER_SECOND = Number(process.env.FAULT_EVENTS_PER_SECOND ?? 8);
/** The fault comes once this many of the case's events were delivered (work before and after it). */
const BEFORE_FAULT = Math.ceil(EVENTS / 4);
const PROCESS_NAMES = ['main', 'worker', 'webhook1', 'webhook2'];

interface CaseContext {
	/** Deliveries of this case that got their 2xx so far. */
	delivered(): number;
	/** Requests the balancer passed on whose answer has not come back. */
	inFlight(): number;
	/** Deliveries of this case whose first attempt started at or after `ms` (epoch). */
	startedAfter(ms: number): number;
	/** Holds the service's new events back (true) or lets them go (false), to time them around the fault. */
	hold(held: boolean): void;
	/** Whether every event of the case was emitted. */
	emittedAll(): boolean;
}

interface FaultCase {
	name: string;
	/** The fault, timed by what it waits for; returns what it saw (reported). */
	fault(w: World, c: CaseContext): Promise<Record<string, unknown>>;
	/** What the fault must have caused for the case to prove anything (empty when it did). */
	tookEffect(r: CaseReport, c: CaseContext): string[];
	/** No loss and no second run at all, excused or not (n8n itself breaks nothing in these cases). */
	strict?: boolean;
}

interface CaseReport {
	case: string;
	seconds: number;
	triggerVersion: number;
	fault: Record<string, unknown>;
	restarts: Record<string, number>;
	n8nRetries: { requested: number; started: number; refused: Record<string, number> };
	account: Omit<Account, 'lost' | 'twice' | 'acknowledgedWithoutExecution' | 'neverSent' | 'givenUp' | 'pending'> & {
		neverSent: number;
		givenUp: number;
		pending: number;
		lost: Account['lost'];
		twice: Account['twice'];
		acknowledgedWithoutExecution: Account['acknowledgedWithoutExecution'];
	};
	/** Executions by mode: the webhook's (one per accepted request) and n8n's Retries. */
	executionsByMode: Record<string, number>;
	endpoints: ReturnType<World['endpoints']>;
	/** The most requests that waited in the balancer's queue at once. */
	balancerMaxQueued: number;
	/** Effects whose sender died before the ledger answered (not committed: that execution crashed before its effect). */
	uncommittedEffects: number;
	/** Attempts the service got no answer to (its 10 s timeout), with what the balancer saw of them. */
	noAnswer: ReturnType<World['unanswered']>;
	/** Example 7's reads once the case ended (reconcile.ts). */
	reconciliation: Reconciliation;
	/** Each event: run once, more than once, lost then recovered, lost; and orders not in the ledger as the service has them. */
	settlement: Settlement;
	violations: string[];
}


const non2xx = (r: CaseReport) => Object.entries(r.account.answers).filter(([s]) => !/^2\d\d$/.test(s)).reduce((n, [, c]) => n + c, 0);
const failedExecutions = (r: CaseReport) => ['crashed', 'error', 'failed'].reduce((n, s) => n + (r.account.executionsByStatus[s] ?? 0), 0);
const need = (ok: boolean, what: string) => (ok ? [] : [`the fault did not take effect: ${what}`]);

/** Where a running case is, appended to `$TMPDIR/orch-fault-progress-<mode>.log` (a case runs for minutes). */
function progress(w: World, c: FaultCase, what: string): void {
	fs.appendFileSync(path.join(os.tmpdir(), `orch-fault-progress-${w.mode}.log`), `${new Date().toISOString()} ${c.name}: ${what}\n`);
}

async function runCase(w: World, c: FaultCase, retried: Set<string>): Promise<CaseReport> {
	const started = Date.now();
	progress(w, c, 'start');
	await w.allUp();
	if (w.registration() === undefined) throw new Error(`${c.name}: no endpoint of the trigger is registered at the case start`);
	const firstId = (await w.lastExecutionId()) + 1;
	const from = w.sb.orchestration.ctx.state.deliveries.length;
	const balancerFrom = w.stack.balancer.log.length;
	w.stack.balancer.maxQueued = 0;
	const uncommittedBefore = w.recorder.uncommitted;
	const startsBefore = w.stack.processes().map((p) => p.starts);
	const ctx: CaseContext = {
		delivered: () => w.deliveriesSince(from).filter((d) => d.state === 'delivered').length,
		inFlight: () => w.stack.balancer.inFlight.reduce((a, b) => a + b, 0),
		startedAfter: (ms) => w.deliveriesSince(from).filter((d) => d.attempts.length > 0 && Date.parse(d.attempts[0].at) >= ms).length,
		hold: (h) => {
			held = h;
		},
		emittedAll: () => emittedAll,
	};
	let held = false;
	let emittedAll = false;
	const ledger = w.recorder.newLedger();
	const emitted = payMany(w.sb, ledger, EVENTS, { perSecond: EVENTS_PER_SECOND, timeoutMs: 600_000, held: () => held }).finally(() => {
		emittedAll = true;
	});
	const fault = await c.fault(w, ctx);
	progress(w, c, `fault done: ${JSON.stringify(fault)}`);
	const ids = await emitted;
	progress(w, c, `${ids.length} payouts made`);
	// Every delivery ends: a 2xx, or the service gives up (its scaled schedule ends inside the case).
	// An event sent to no endpoint already fails the case: then wait only a minute for the others.
	const emittedAt = Date.now();
	const ended = () => {
		const deliveries = w.deliveriesSince(from);
		if (deliveries.every((d) => d.state !== 'pending')) return true;
		const sent = new Set(deliveries.map((d) => d.orderId));
		return ids.some((id) => !sent.has(id)) && Date.now() - emittedAt > 60_000;
	};
	await w.until('every delivery of the case ended', ended, SCHEDULE_END_MS + 120_000).catch(() => undefined);
	progress(w, c, 'every delivery ended');
	await w.allUp();
	await w.settle(firstId);
	progress(w, c, 'settled');
	const n8nRetries = await w.retryFailed(firstId, retried);
	progress(w, c, `n8n's Retries: ${JSON.stringify(n8nRetries)}`);
	const executions = await w.executions(firstId);
	progress(w, c, `${executions.length} executions read`);
	const sent = w.sentEvents(ids);
	const acc = account(sent, executions, w.recorder.effects);
	// The next morning's reconciliation, then each order as the ledger and the service show it.
	const reconciliation = await reconcile(ledger, w.sb, pickSandboxKeys(w.sb).server.key);
	progress(w, c, `reconciled: ${JSON.stringify(reconciliation)}`);
	const settlement = settle(acc, sent, ledger.rows, await w.serviceStatuses(ids));
	progress(w, c, 'settlement done');
	const byMode: Record<string, number> = {};
	for (const x of executions) byMode[x.mode] = (byMode[x.mode] ?? 0) + 1;
	const r: CaseReport = {
		case: c.name,
		seconds: Math.round((Date.now() - started) / 1000),
		triggerVersion: TRIGGER_VERSION,
		fault,
		restarts: Object.fromEntries(w.stack.processes().map((p, i) => [PROCESS_NAMES[i], p.starts - startsBefore[i]])),
		n8nRetries,
		account: { ...acc, neverSent: acc.neverSent.length, givenUp: acc.givenUp.length, pending: acc.pending.length },
		executionsByMode: byMode,
		endpoints: w.endpoints(),
		balancerMaxQueued: w.stack.balancer.maxQueued,
		noAnswer: w.unanswered(ids),
		uncommittedEffects: w.recorder.uncommitted - uncommittedBefore,
		reconciliation,
		settlement,
		violations: [],
	};
	r.violations = [
		...c.tookEffect(r, ctx), ...unexplained(acc), ...unsettled(settlement), ...(c.strict ? strictViolations(acc) : []),
		...reconciliation.errors.map((e) => `the reconciliation could not read ${e}`),
	];
	// Everything the case saw, by event, for reading a failure afterwards.
	const file = path.join(os.tmpdir(), `orch-fault-case-${c.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.json`);
	fs.writeFileSync(file, JSON.stringify({ report: r, events: sent, ledger: ledger.rows, executions, effects: w.recorder.effects.filter((f) => ids.includes(f.orderId)), balancer: w.stack.balancer.log.slice(balancerFrom) }, null, 1));
	return r;
}

/** The strict cases: nothing lost and nothing run twice, whatever the reason. */
function strictViolations(acc: Account): string[] {
	return [
		...(acc.lost.length > 0 ? [`${acc.lost.length} events lost (none allowed here): ${acc.lost.map((l) => l.event).slice(0, 5).join(', ')}`] : []),
		...(acc.twice.length > 0 ? [`${acc.twice.length} events run twice (none allowed here): ${acc.twice.map((t) => t.event).slice(0, 5).join(', ')}`] : []),
	];
}

function expectHeld(r: CaseReport): void {
	console.log(`fault case: ${JSON.stringify(r)}`);
	expect({ case: r.case, violations: r.violations }).toEqual({ case: r.case, violations: [] });
}

/** Waits for the fault's moment: a quarter of the events delivered, and whatever else the fault must hit. */
async function moment(w: World, c: CaseContext, what: string, also: () => boolean | Promise<boolean> = () => true): Promise<Record<string, unknown>> {
	await w.until(`${BEFORE_FAULT} events were delivered and ${what}`, async () => c.delivered() >= BEFORE_FAULT && (await also()), 180_000);
	return { deliveredBefore: c.delivered(), inFlightAt: c.inFlight(), effectsOpenAt: w.recorder.open, at: new Date().toISOString() };
}

const requestInFlight = (c: CaseContext) => () => c.inFlight() > 0;
/** An execution in its effect step (the ledger holds its request): past the trigger's run check, effect not committed. */
const effectOpen = (w: World) => () => w.recorder.open > 0;

/** Cases both modes run: every n8n process restarted, a re-publish, a deactivation and activation, all under load. */
function sharedCases(mode: string): FaultCase[] {
	return [
		{
			name: `${mode}: every n8n process restarted under load`,
			strict: true,
			async fault(w, c) {
				const at = await moment(w, c, 'a request is in flight', requestInFlight(c));
				const t0 = Date.now();
				// The rest of the events come while every process is down and while they start again.
				c.hold(true);
				await w.stack.stopN8n(45_000);
				const stopSeconds = Math.round((Date.now() - t0) / 1000);
				c.hold(false);
				await w.startAll();
				return { ...at, stopSeconds, restartSeconds: Math.round((Date.now() - t0) / 1000) };
			},
			tookEffect: (r) => [
				...need(Object.values(r.restarts).every((n) => n >= 1), `every process restarted (${JSON.stringify(r.restarts)})`),
				...need(non2xx(r) > 0, 'deliveries were refused while n8n was down'),
			],
		},
		{
			name: `${mode}: the trigger edited and the workflow re-published under load`,
			strict: true,
			async fault(w, c) {
				const at = await moment(w, c, 'a request is in flight', requestInFlight(c));
				const historyFrom = (await w.lastPublishId()) + 1;
				const endpointBefore = w.registration()?.webhookId;
				const versions = await w.republish();
				const publishedAt = Date.now();
				const history = await w.publishHistory(historyFrom);
				return { ...at, versions, history, publishedAt, endpointBefore, endpointAfter: w.registration()?.webhookId };
			},
			tookEffect: (r, c) => {
				const history = (r.fault.history as Array<{ event: string }>).map((h) => h.event);
				const versions = r.fault.versions as { before: string; after: string; triggerOptions: unknown[] };
				return [
					...need(versions.before !== versions.after, `a new version was published (${JSON.stringify(versions)})`),
					// n8n re-registers a trigger node that changed (delete, then create); an unchanged one it leaves alone.
					...need(JSON.stringify(versions.triggerOptions[0]) !== JSON.stringify(versions.triggerOptions[1]), `the published version changed the trigger node (${JSON.stringify(versions.triggerOptions)})`),
					...need(history.join(',') === 'deactivated,activated', `n8n deactivated the old version and activated the new one (history: ${history.join(',')})`),
					...need(c.startedAfter(r.fault.publishedAt as number) > 0, 'events were sent after the re-publish'),
				];
			},
		},
		{
			name: `${mode}: the workflow deactivated and activated again 3 s later under load`,
			strict: true,
			async fault(w, c) {
				const at = await moment(w, c, 'a request is in flight', requestInFlight(c));
				const historyFrom = (await w.lastPublishId()) + 1;
				const endpointBefore = w.registration()?.webhookId;
				// The rest of the events come while the workflow is inactive, and after.
				c.hold(true);
				await w.deactivate();
				c.hold(false);
				await sleep(3000);
				await w.activate();
				return { ...at, history: await w.publishHistory(historyFrom), endpointBefore, endpointAfter: w.registration()?.webhookId };
			},
			tookEffect: (r) => {
				const history = (r.fault.history as Array<{ event: string }>).map((h) => h.event);
				return [
					...need(history.join(',') === 'deactivated,activated', `n8n deactivated and activated the workflow (history: ${history.join(',')})`),
					...need((r.account.answers['404'] ?? 0) > 0, 'n8n answered 404 while the workflow was inactive'),
				];
			},
		},
	];
}

const QUEUE_CASES: FaultCase[] = [
	{
		name: 'queue: Redis killed (kill -9), back 15 s later',
		async fault(w, c) {
			const at = await moment(w, c, 'a request is in flight', requestInFlight(c));
			await w.stack.redis.kill();
			await sleep(15_000);
			await w.stack.redis.resume();
			return at;
		},
		tookEffect: (r) => need(non2xx(r) > 0, 'deliveries were refused while Redis was down'),
	},
	{
		name: 'queue: Postgres stopped (fast shutdown), back 15 s later',
		async fault(w, c) {
			const at = await moment(w, c, 'an execution is in its effect step and a request is in flight', () => c.inFlight() > 0 && effectOpen(w)());
			await w.stack.pg.halt();
			await sleep(15_000);
			await w.stack.pg.resume();
			return at;
		},
		tookEffect: (r) => [
			...need(non2xx(r) > 0, 'deliveries were refused while Postgres was down'),
			...need(failedExecutions(r) > 0, 'an execution running when Postgres stopped crashed'),
		],
	},
	{
		name: 'queue: Postgres crashed (SIGKILL of the postmaster), back 15 s later',
		async fault(w, c) {
			const at = await moment(w, c, 'an execution is in its effect step and a request is in flight', () => c.inFlight() > 0 && effectOpen(w)());
			await w.stack.pg.crash();
			await sleep(15_000);
			await w.stack.pg.resume();
			return at;
		},
		tookEffect: (r) => [
			...need(non2xx(r) > 0, 'deliveries were refused while Postgres was down'),
			...need(failedExecutions(r) > 0, 'an execution running when Postgres died failed'),
		],
	},
	{
		name: 'queue: one webhook process killed (SIGKILL) with a request in flight',
		async fault(w, c) {
			const at = await moment(w, c, 'webhook process 1 has a request in flight', () => w.stack.balancer.inFlight[0] > 0);
			w.stack.webhooks[0].kill('SIGKILL');
			return at;
		},
		tookEffect: (r) => [
			...need(r.restarts.webhook1 >= 1, 'webhook process 1 restarted'),
			...need(non2xx(r) > 0, 'the request in flight on the killed process failed'),
		],
	},
	{
		name: "queue: n8n's answers lost on the way back (1 in 4), the service retrying what n8n accepted",
		async fault(w, c) {
			const at = await moment(w, c, 'a request is in flight', requestInFlight(c));
			w.stack.balancer.answersLost = 0;
			w.stack.balancer.loseAnswersEvery = 4;
			await w.until('every event was emitted', () => c.emittedAll(), 600_000);
			w.stack.balancer.loseAnswersEvery = 0;
			return { ...at, answersLost: w.stack.balancer.answersLost };
		},
		tookEffect: (r) => [
			...need((r.fault.answersLost as number) > 0, 'answers were lost'),
			// In queue mode a copy reaches the worker's run check (webhook processes run nothing): it must stop there.
			...need(r.account.stoppedAtTrigger > 0, 'copies of accepted events got executions (that stopped at the trigger)'),
		],
	},
	{
		name: 'queue: the worker killed (SIGKILL) as an execution starts its effect',
		async fault(w, c) {
			const at = await moment(w, c, 'a request is in flight', requestInFlight(c));
			await w.recorder.nextArrival();
			w.stack.worker!.kill('SIGKILL');
			return at;
		},
		tookEffect: (r) => [
			...need(r.restarts.worker >= 1, 'the worker restarted'),
			...need(failedExecutions(r) > 0, 'the executions running on the killed worker failed'),
		],
	},
	...sharedCases('queue'),
];

const SINGLE_CASES: FaultCase[] = [
	{
		name: 'single: n8n killed (SIGKILL) as an execution starts its effect',
		async fault(w, c) {
			const at = await moment(w, c, 'a request is in flight', requestInFlight(c));
			// At the start of an execution's effect step: it dies the whole ledger answer time before the commit.
			await w.recorder.nextArrival();
			w.stack.main.kill('SIGKILL');
			return at;
		},
		tookEffect: (r) => [
			...need(r.restarts.main >= 1, 'n8n restarted'),
			...need(non2xx(r) > 0, 'deliveries were refused while n8n was down'),
			...need(failedExecutions(r) > 0, 'the executions running when n8n died crashed'),
			// Killed while the ledger held its answer: crashed before the effect, which only n8n's Retry can run.
			...need(r.account.ranByRetry > 0, "an execution crashed before its effect and n8n's Retry ran it"),
		],
	},
	...sharedCases('single'),
];


/** The figures per case, by event. */
function summary(r: CaseReport) {
	const a = r.account;
	const lineage = (x: Execution['id'][]) => x.join(' <- ');
	return {
		case: r.case, seconds: r.seconds, events: a.events, neverSent: a.neverSent, delivered: a.delivered, givenUp: a.givenUp, answers: a.answers,
		serviceRetries: a.serviceRetries, n8nRetries: r.n8nRetries, executions: a.executions, executionsByStatus: a.executionsByStatus,
		executionsByMode: r.executionsByMode, erased: a.erased, stoppedAtTrigger: a.stoppedAtTrigger, effectiveRuns: a.effectiveRuns,
		ranByRetry: a.ranByRetry, uncommittedEffects: r.uncommittedEffects,
		lost: a.lost.map((l) => `${l.event}${l.excused ? ` (${l.excused}: its owner ${l.owner})` : ''}`),
		byEvent: {
			runOnce: r.settlement.outcomes['run once'].length,
			runMoreThanOnce: r.settlement.outcomes['run more than once'],
			lostThenRecovered: r.settlement.outcomes['lost then recovered'],
			lost: r.settlement.outcomes.lost,
		},
		reconciliation: r.reconciliation,
		twice: a.twice.map((t) => `${t.event}: ${t.effects.map((f) => lineage(f.lineage)).join(', ')}`),
		restarts: r.restarts, fault: r.fault, balancerMaxQueued: r.balancerMaxQueued, noAnswer: r.noAnswer, violations: r.violations,
	};
}

/**
 * The cases of one mode, in a world of their own (n8n processes, Postgres, Redis, sandbox, recorder,
 * bundle and ports): `queue.e2e.ts` and `single.e2e.ts` each call this once, and jest runs the two
 * side by side (`npm run test:e2e:faults -- single` runs one mode). The figures go to `$TMPDIR/orch-fault-report-<mode>.json`.
 */
export function describeMode(mode: 'queue' | 'single'): void {
	const cases = mode === 'queue' ? QUEUE_CASES : SINGLE_CASES;
	describe(`${mode} mode under faults: every event delivered, executed and run downstream once`, () => {
		let w: World | undefined;
		let dist: string | undefined;
		const reports: CaseReport[] = [];
		const retried = new Set<string>();
		let failed = false;
		beforeAll(async () => {
			const installDir = ensureN8nInstalled();
			dist = await bundleForN8n();
			w = await World.start(installDir, dist, mode);
		}, 600_000);
		afterAll(async () => {
			// The processes' logs stay (their folders are printed) when a case failed.
			if (failed && w) console.log(`n8n logs kept: ${w.stack.logs().join(' ')}`);
			await w?.stop(failed);
			removeDist(dist);
			const file = path.join(os.tmpdir(), `orch-fault-report-${mode}.json`);
			fs.writeFileSync(file, JSON.stringify(reports, null, 2));
			console.log(`fault report (${file}):\n${JSON.stringify(reports.map(summary), null, 2)}`);
		}, 180_000);

		for (const c of cases) {
			it(c.name, async () => {
				try {
					const report = await runCase(w!, c, retried);
					reports.push(report);
					expectHeld(report);
				} catch (error) {
					failed = true;
					throw error;
				}
			}, SCHEDULE_END_MS + 900_000);
		}
	});
}

