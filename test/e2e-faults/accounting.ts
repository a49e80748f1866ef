/**
 * The fault suite's bookkeeping, by event (no n8n, no I/O: accounting.test.ts runs it on hand-made
 * cases). Every execution is tied to the delivery it carries (its trigger item, recorded when n8n
 * created it, before anything ran); every effect names the execution that sent it; n8n's `retryOf`
 * gives each execution's Retry lineage. An event may then be:
 *
 * - lost (no effect) only if its owning execution (the first whose run recorded the event in the
 *   trigger's store; without one, the first created for it) was erased by n8n on a known path:
 *   n8n failed it with its error in place of its data and logged why (a stalled queue job; a job
 *   the worker could not read from a database it lost);
 * - run more than once only if each extra effect came from a Retry (transitively) of an execution
 *   that had already sent that effect (n8n re-ran a crashed execution after its downstream step);
 * - acknowledged (a 2xx the trigger did not answer itself) only by a request that got an execution;
 * - and, once the reconciliation ran (settle), in the ledger with the service's status: a lost
 *   event must be recovered there.
 *
 * Anything else is unexplained, and the case fails.
 */
import { FINAL } from './ledger';

/** One attempt of a delivery, as the service (sandbox) recorded it. */
export interface Attempt {
	status: number | null;
	/** The trigger's key of this signed request (`delivery.replayKey` of its execution). */
	replayKey: string;
	body?: string;
	error?: string;
	at: string;
}

/** One event the service emitted during the case, with every attempt of its deliveries to the trigger. */
export interface SentEvent {
	orderId: string;
	event: string;
	/** One per delivery the service made of it (0: emitted while no endpoint was registered). */
	deliveries: Array<{ state: 'pending' | 'delivered' | 'failed'; attempts: Attempt[] }>;
}

/** One execution of the workflow, tied to the delivery its trigger item carries. */
export interface Execution {
	id: string;
	status: string;
	mode: string;
	/** n8n's Retry lineage: the execution this one retried. */
	retryOf?: string;
	/** From the execution's data as n8n created it (recorded before it ran). */
	orderId?: string;
	event?: string;
	deliveryId?: string;
	replayKey?: string;
	/** The error n8n saved in place of its data (processError's form: an error, no run data, no event). */
	replacedBy?: string;
	/** That error is one of n8n's known erasures (the path named by ERASURES). */
	erased?: Erasure;
	/** What n8n logged for it: `Problem with execution <id>: <message>. Aborting.` (the message). */
	aborted?: string;
	/** The trigger's store holds this execution's owner mark (`own:<deliveryId>`): its delivery's run recorded the event first. */
	ownsEvent?: boolean;
}

/** The ways n8n 2.41.1 replaces a queue execution's data by an error (WorkflowRunner.processError), by the message it saves. */
export const ERASURES = {
	/** A job whose worker died or stalled (MaxStalledCountError). */
	'stalled job': 'This execution failed to be processed too many times and will no longer retry. To allow this execution to complete, please break down your workflow or scale up your workers or adjust your worker settings.',
	/** A job its worker could not read or save: TypeORM's PostgresDriver after the database went away. */
	'worker lost its database': 'Driver not Connected',
} as const;
export type Erasure = keyof typeof ERASURES;

/** The erasure path a saved error message names, if it is one of n8n's. */
export function erasureNamed(message: string | undefined): Erasure | undefined {
	return (Object.keys(ERASURES) as Erasure[]).find((k) => ERASURES[k] === message);
}

/** An execution n8n erased on a known path: failed (`error`), its data replaced by that error, and n8n's own log line for it. */
export function erasureOf(x: Execution): Erasure | undefined {
	if (x.status !== 'error' || x.erased === undefined || x.replacedBy !== ERASURES[x.erased]) return undefined;
	return x.aborted === x.replacedBy ? x.erased : undefined;
}

/** The event's owning execution: the first whose delivery's owner mark is in the store, else (no run recorded it) the first created. */
export function ownerOf(mine: Execution[]): Execution | undefined {
	const byId = [...mine].sort((a, b) => Number(a.id) - Number(b.id));
	return byId.find((x) => x.ownsEvent === true) ?? byId[0];
}

/** One effect at the recorder (the downstream step's request), in arrival order. */
export interface Effect {
	orderId: string;
	event: string;
	executionId: string;
	deliveryId?: string;
}

export interface LostEvent {
	event: string;
	/** The owning execution (ownerOf), when the event has one. */
	owner?: string;
	executions: Array<{ id: string; status: string; owns?: true; replacedBy?: string; aborted?: string; retryOf?: string }>;
	/** Set when its owning execution was erased by n8n on a known path. */
	excused?: `erased by n8n (${Erasure})`;
}

export interface TwiceEvent {
	event: string;
	/** Each effect's execution with its Retry lineage (`12 <- 7`: 12 retried 7) and whether it is excused. */
	effects: Array<{ executionId: string; lineage: string[]; excused: boolean; why: string }>;
}

export interface Account {
	events: number;
	/** Events the service sent nowhere (no endpoint enabled when they happened). */
	neverSent: string[];
	/** Events with a 2xx on one of their deliveries. */
	delivered: number;
	/** Events the service gave up on (its retry schedule ended without a 2xx). */
	givenUp: string[];
	/** Events still retried when the case ended. */
	pending: string[];
	answers: Record<string, number>;
	serviceRetries: number;
	executions: number;
	executionsByStatus: Record<string, number>;
	erased: number;
	/** Executions that succeeded without running downstream: copies, and Retries of an execution whose event another one ran. */
	stoppedAtTrigger: number;
	effectiveRuns: number;
	/** Events whose first effect came from n8n's Retry (their first execution crashed before its effect). */
	ranByRetry: number;
	lost: LostEvent[];
	twice: TwiceEvent[];
	/** Attempts answered 2xx (not by the trigger itself) without an execution of that very request. */
	acknowledgedWithoutExecution: Array<{ event: string; attempt: Attempt }>;
	/** Effects that name an execution this case does not know, or one of another event. */
	strayEffects: Effect[];
}

export const eventKey = (orderId: string, event: string) => `${orderId} ${event}`;

/** A 2xx the trigger answered itself, without an execution: a copy its process had run, or an unselected event. */
function answeredByTrigger(body: string | undefined): boolean {
	if (!body) return false;
	try {
		const parsed = JSON.parse(body) as { ignored?: unknown };
		return typeof parsed.ignored === 'string';
	} catch {
		return false;
	}
}

function count(into: Record<string, number>, key: string): void {
	into[key] = (into[key] ?? 0) + 1;
}

/** `id`, the execution it retried, that one's, ... (n8n's `retryOf`), oldest last. */
export function lineageOf(id: string, byId: ReadonlyMap<string, Execution>): string[] {
	const out = [id];
	for (let at = byId.get(id)?.retryOf; at !== undefined && !out.includes(at); at = byId.get(at)?.retryOf) out.push(at);
	return out;
}

function twiceOf(key: string, effects: Effect[], byId: ReadonlyMap<string, Execution>): TwiceEvent {
	const ran: string[] = [];
	const out: TwiceEvent['effects'] = [];
	for (const effect of effects) {
		const lineage = lineageOf(effect.executionId, byId);
		const before = lineage.slice(1).find((id) => ran.includes(id));
		if (ran.length === 0) out.push({ executionId: effect.executionId, lineage, excused: true, why: 'first effect' });
		else if (before !== undefined) out.push({ executionId: effect.executionId, lineage, excused: true, why: `Retry of ${before}, which had run it` });
		else out.push({ executionId: effect.executionId, lineage, excused: false, why: 'not a Retry of an execution that had run it' });
		ran.push(effect.executionId);
	}
	return { event: key, effects: out };
}

export function account(events: SentEvent[], executions: Execution[], effects: Effect[]): Account {
	const keys = new Set(events.map((e) => eventKey(e.orderId, e.event)));
	const byId = new Map(executions.map((x) => [x.id, x]));
	const executionsOf = new Map<string, Execution[]>();
	for (const x of executions) {
		if (x.orderId === undefined || x.event === undefined) continue;
		const key = eventKey(x.orderId, x.event);
		executionsOf.set(key, [...(executionsOf.get(key) ?? []), x]);
	}
	const effectsOf = new Map<string, Effect[]>();
	const strayEffects: Effect[] = [];
	for (const f of effects) {
		const key = eventKey(f.orderId, f.event);
		if (!keys.has(key)) continue;
		const x = byId.get(f.executionId);
		if (x === undefined || x.orderId !== f.orderId || x.event !== f.event) strayEffects.push(f);
		effectsOf.set(key, [...(effectsOf.get(key) ?? []), f]);
	}
	const replayKeys = new Set(executions.map((x) => x.replayKey).filter((k): k is string => k !== undefined));
	const answers: Record<string, number> = {};
	const executionsByStatus: Record<string, number> = {};
	let serviceRetries = 0;
	const acc: Account = {
		events: events.length, neverSent: [], delivered: 0, givenUp: [], pending: [], answers, serviceRetries: 0,
		executions: executions.length, executionsByStatus, erased: executions.filter((x) => erasureOf(x) !== undefined).length,
		stoppedAtTrigger: 0, effectiveRuns: 0, ranByRetry: 0, lost: [], twice: [], acknowledgedWithoutExecution: [], strayEffects,
	};
	for (const x of executions) count(executionsByStatus, x.status);
	const withEffect = new Set(effects.map((f) => f.executionId));
	acc.stoppedAtTrigger = executions.filter((x) => x.status === 'success' && x.orderId !== undefined && !withEffect.has(x.id)).length;
	for (const e of events) {
		const key = eventKey(e.orderId, e.event);
		if (e.deliveries.length === 0) acc.neverSent.push(key);
		if (e.deliveries.some((d) => d.state === 'delivered')) acc.delivered++;
		else if (e.deliveries.some((d) => d.state === 'pending')) acc.pending.push(key);
		else if (e.deliveries.length > 0) acc.givenUp.push(key);
		for (const d of e.deliveries) {
			serviceRetries += Math.max(0, d.attempts.length - 1);
			for (const a of d.attempts) {
				count(answers, a.status === null ? 'no answer' : String(a.status));
				const ok = a.status !== null && a.status >= 200 && a.status < 300;
				if (ok && !answeredByTrigger(a.body) && !replayKeys.has(a.replayKey)) acc.acknowledgedWithoutExecution.push({ event: key, attempt: a });
			}
		}
		const ran = effectsOf.get(key) ?? [];
		acc.effectiveRuns += ran.length;
		if (ran.length > 0 && byId.get(ran[0].executionId)?.retryOf !== undefined) acc.ranByRetry++;
		const mine = executionsOf.get(key) ?? [];
		if (ran.length === 0) {
			const owner = ownerOf(mine);
			const erased = owner ? erasureOf(owner) : undefined;
			acc.lost.push({
				event: key,
				...(owner ? { owner: owner.id } : {}),
				executions: mine.map((x) => ({
					id: x.id, status: x.status, ...(x.ownsEvent ? { owns: true as const } : {}), ...(x.replacedBy !== undefined ? { replacedBy: x.replacedBy } : {}),
					...(x.aborted !== undefined ? { aborted: x.aborted } : {}), ...(x.retryOf ? { retryOf: x.retryOf } : {}),
				})),
				...(erased ? { excused: `erased by n8n (${erased})` as const } : {}),
			});
		}
		if (ran.length > 1) acc.twice.push(twiceOf(key, ran, byId));
	}
	acc.serviceRetries = serviceRetries;
	return acc;
}

/** Every way the account breaks the trigger's promise; empty when it holds. */
export function unexplained(acc: Account): string[] {
	const out: string[] = [];
	if (acc.neverSent.length > 0) out.push(`${acc.neverSent.length} events sent to no endpoint: ${acc.neverSent.slice(0, 5).join(', ')}`);
	if (acc.givenUp.length > 0) out.push(`${acc.givenUp.length} events given up by the service: ${acc.givenUp.slice(0, 5).join(', ')}`);
	if (acc.pending.length > 0) out.push(`${acc.pending.length} events still retried by the service: ${acc.pending.slice(0, 5).join(', ')}`);
	if (acc.delivered !== acc.events) out.push(`delivered ${acc.delivered} of ${acc.events} events`);
	for (const a of acc.acknowledgedWithoutExecution) out.push(`acknowledged without an execution: ${a.event} (${a.attempt.status} at ${a.attempt.at}: ${JSON.stringify(a.attempt.body ?? '')})`);
	for (const l of acc.lost.filter((x) => x.excused === undefined)) out.push(`lost: ${l.event}, executions ${JSON.stringify(l.executions)}`);
	for (const t of acc.twice) {
		for (const f of t.effects.filter((x) => !x.excused)) out.push(`twice: ${t.event}, effect of execution ${f.lineage.join(' <- ')}: ${f.why}`);
	}
	for (const f of acc.strayEffects) out.push(`effect of unknown or other execution: ${JSON.stringify(f)}`);
	return out;
}

/** What became of each event once the case ended and example 7's reads ran (reconcile.ts). */
export type EventOutcome = 'run once' | 'run more than once' | 'lost then recovered' | 'lost';

export interface Settlement {
	/** Events by outcome. */
	outcomes: Record<EventOutcome, string[]>;
	/** Events whose order the ledger does not show with the service's status after the reconciliation. */
	notInLedger: Array<{ event: string; ledger: { status: string; final: boolean } | null; service: string | null }>;
}

/**
 * Each event's outcome: its effect ran once or more, or it was lost and the reconciliation then
 * brought its order into the ledger with the service's status (recovered), or not (lost). Every
 * event's order must end in the ledger with the service's status, whatever happened to the event.
 */
export function settle(acc: Account, events: SentEvent[], ledger: Array<{ orderId: string; status: string; final: boolean }>, service: Record<string, string>): Settlement {
	const lost = new Set(acc.lost.map((l) => l.event));
	const twice = new Set(acc.twice.map((t) => t.event));
	const out: Settlement = { outcomes: { 'run once': [], 'run more than once': [], 'lost then recovered': [], lost: [] }, notInLedger: [] };
	for (const e of events) {
		const key = eventKey(e.orderId, e.event);
		const row = ledger.find((r) => r.orderId === e.orderId);
		const status = service[e.orderId] ?? null;
		const right = row !== undefined && status !== null && row.status === status && row.final === FINAL.includes(status.toLowerCase());
		if (!right) out.notInLedger.push({ event: key, ledger: row ? { status: row.status, final: row.final } : null, service: status });
		if (lost.has(key)) out.outcomes[right ? 'lost then recovered' : 'lost'].push(key);
		else out.outcomes[twice.has(key) ? 'run more than once' : 'run once'].push(key);
	}
	return out;
}

/** Every way the settlement breaks the promise: an event lost and not recovered, an order not in the ledger as the service has it. */
export function unsettled(s: Settlement): string[] {
	const lost = new Set(s.outcomes.lost);
	return s.notInLedger.map((n) => `${lost.has(n.event) ? 'lost and not recovered' : 'not in the ledger as the service has it'} after the reconciliation: ${n.event} (ledger ${JSON.stringify(n.ledger)}, service ${JSON.stringify(n.service)})`);
}
