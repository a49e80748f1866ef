/** The fault suite's bookkeeping by event (accounting.ts), on hand-made cases: what it excuses and what it does not. */
import { ERASURES, account, erasureOf, lineageOf, ownerOf, settle, unexplained, unsettled, type Effect, type Execution, type SentEvent } from './accounting';

const EV = 'order.processing';

function sent(orderId: string, ...attempts: Array<[number | null, string, string?]>): SentEvent {
	return {
		orderId,
		event: EV,
		deliveries: [{
			state: attempts.some(([s]) => s !== null && s >= 200 && s < 300) ? 'delivered' : 'failed',
			attempts: attempts.map(([status, replayKey, body], i) => ({ status, replayKey, at: `t${i}`, ...(body !== undefined ? { body } : {}) })),
		}],
	};
}

function exec(id: string, orderId: string, replayKey: string, more: Partial<Execution> = {}): Execution {
	return { id, status: 'success', mode: 'webhook', orderId, event: EV, deliveryId: `d-${replayKey}`, replayKey, ...more };
}

/** An execution n8n erased on a known path, as world.ts reads it: failed, its data replaced by n8n's error, and n8n's log line for it. */
const erasedBy = (path: keyof typeof ERASURES): Partial<Execution> => ({ status: 'error', replacedBy: ERASURES[path], erased: path, aborted: ERASURES[path] });

const effect = (orderId: string, executionId: string): Effect => ({ orderId, event: EV, executionId });

describe('fault accounting, by event', () => {
	it('every event delivered, executed and run once: nothing unexplained', () => {
		const acc = account([sent('o1', [200, 'k1', '']), sent('o2', [503, 'k2'], [200, 'k3', ''])], [exec('1', 'o1', 'k1'), exec('2', 'o2', 'k3')], [effect('o1', '1'), effect('o2', '2')]);
		expect(unexplained(acc)).toEqual([]);
		expect(acc).toMatchObject({ events: 2, delivered: 2, serviceRetries: 1, effectiveRuns: 2, answers: { 200: 2, 503: 1 }, lost: [], twice: [] });
	});

	it('nothing delivered fails: events sent to no endpoint, given up or still retried', () => {
		const never: SentEvent = { orderId: 'o1', event: EV, deliveries: [] };
		const pending: SentEvent = { orderId: 'o3', event: EV, deliveries: [{ state: 'pending', attempts: [{ status: 404, replayKey: 'k3', at: 't' }] }] };
		const acc = account([never, sent('o2', [404, 'k2']), pending], [], []);
		expect(acc.neverSent).toEqual(['o1 order.processing']);
		expect(acc.givenUp).toEqual(['o2 order.processing']);
		expect(acc.pending).toEqual(['o3 order.processing']);
		expect(unexplained(acc).join('\n')).toMatch(/sent to no endpoint[\s\S]*given up[\s\S]*still retried[\s\S]*delivered 0 of 3/);
	});

	it("a lost event is excused only by an erased execution of that very event, not by another event's", () => {
		const events = [sent('o1', [200, 'k1', '']), sent('o2', [200, 'k2', ''])];
		const executions = [exec('1', 'o1', 'k1', { ...erasedBy('stalled job'), ownsEvent: true }), exec('2', 'o2', 'k2', { ownsEvent: true })];
		// o2's execution succeeded without running downstream (a run check that dropped it): o1's erasure does not excuse it.
		const acc = account(events, executions, []);
		expect(acc.lost.map((l) => [l.event, l.owner, l.excused])).toEqual([['o1 order.processing', '1', 'erased by n8n (stalled job)'], ['o2 order.processing', '2', undefined]]);
		expect(unexplained(acc)).toEqual([expect.stringMatching(/^lost: o2 order.processing/)]);
	});

	it('a lost event is excused only by its owning execution: an erased copy excuses nothing', () => {
		// 1 was erased but is not the owner; 2 is a copy stopped at the trigger; 3 owns the event and failed downstream.
		const executions = [
			exec('1', 'o1', 'k1', erasedBy('worker lost its database')),
			exec('2', 'o1', 'k2'),
			exec('3', 'o1', 'k3', { status: 'error', ownsEvent: true }),
		];
		const acc = account([sent('o1', [null, 'k1'], [null, 'k2'], [200, 'k3', ''])], executions, []);
		expect(acc.lost).toEqual([expect.objectContaining({ event: 'o1 order.processing', owner: '3' })]);
		expect(acc.lost[0].excused).toBeUndefined();
		expect(unexplained(acc)).toEqual([expect.stringMatching(/^lost: o1 order.processing, executions .*"id":"3","status":"error","owns":true/)]);
	});

	it('the owner is the first execution whose delivery recorded the event; with none, the first created for it', () => {
		const copyFirst = [exec('7', 'o', 'k2'), exec('5', 'o', 'k1', { ownsEvent: true }), exec('9', 'o', 'k1', { ownsEvent: true, retryOf: '5' })];
		expect(ownerOf(copyFirst)?.id).toBe('5');
		// A job the worker could not read never ran the trigger: nothing recorded the event, its first execution owns it.
		expect(ownerOf([exec('12', 'o', 'k2'), exec('10', 'o', 'k1', erasedBy('worker lost its database'))])?.id).toBe('10');
		expect(ownerOf([])).toBeUndefined();
	});

	it('an erasure is recognised by status, the message n8n saved and the line n8n logged for that execution, nothing else', () => {
		expect(erasureOf(exec('1', 'o', 'k', erasedBy('stalled job')))).toBe('stalled job');
		expect(erasureOf(exec('1', 'o', 'k', erasedBy('worker lost its database')))).toBe('worker lost its database');
		// not failed by n8n (crashed, or still running), or no log line of n8n for it, or another message logged
		expect(erasureOf(exec('1', 'o', 'k', { ...erasedBy('stalled job'), status: 'crashed' }))).toBeUndefined();
		expect(erasureOf(exec('1', 'o', 'k', { ...erasedBy('stalled job'), aborted: undefined }))).toBeUndefined();
		expect(erasureOf(exec('1', 'o', 'k', { ...erasedBy('worker lost its database'), aborted: 'Connection terminated unexpectedly' }))).toBeUndefined();
	});

	it('an owner whose data n8n replaced by any other error is lost, unexcused', () => {
		for (const message of ["Cannot read properties of undefined (reading 'secret')", 'Unrecognized node type', 'anything at all']) {
			const owner = exec('1', 'o1', 'k1', { status: 'error', replacedBy: message, aborted: message, ownsEvent: true });
			const acc = account([sent('o1', [200, 'k1', ''])], [owner], []);
			expect(acc.lost[0].excused).toBeUndefined();
			expect(unexplained(acc)).toEqual([expect.stringContaining(`"replacedBy":${JSON.stringify(message)}`)]);
		}
	});

	it('an event erased before any run recorded it is excused by its only execution (a job the worker could not read)', () => {
		const acc = account([sent('o1', [200, 'k1', ''])], [exec('1', 'o1', 'k1', erasedBy('worker lost its database'))], []);
		expect(acc.lost.map((l) => l.excused)).toEqual(['erased by n8n (worker lost its database)']);
		expect(unexplained(acc)).toEqual([]);
		expect(acc.erased).toBe(1);
	});

	it('a retried event dropped by the run check is lost, unexcused', () => {
		// Execution 1 crashed before its effect; its Retry (2) ran nothing downstream.
		const acc = account([sent('o1', [200, 'k1', ''])], [exec('1', 'o1', 'k1', { status: 'crashed' }), exec('2', 'o1', 'k1', { mode: 'retry', retryOf: '1' })], []);
		expect(unexplained(acc)).toEqual([expect.stringMatching(/^lost: o1 order.processing, executions \[.*"retryOf":"1"/)]);
	});

	it('a second effect is excused only when it comes from a Retry of an execution that had run it', () => {
		const events = [sent('o1', [200, 'k1', '']), sent('o2', [200, 'k2', '']), sent('o3', [502, 'k3'], [200, 'k4', ''])];
		const executions = [
			exec('1', 'o1', 'k1', { status: 'crashed' }),
			exec('2', 'o1', 'k1', { mode: 'retry', retryOf: '1', status: 'crashed' }),
			exec('3', 'o1', 'k1', { mode: 'retry', retryOf: '2' }),
			exec('4', 'o2', 'k2', { status: 'crashed' }),
			exec('5', 'o2', 'k2', { mode: 'retry', retryOf: '4' }),
			exec('6', 'o3', 'k3'),
			exec('7', 'o3', 'k4'),
		];
		const effects = [
			effect('o1', '1'), effect('o1', '3'), // 3 <- 2 <- 1, and 1 had run it: excused
			effect('o2', '5'), effect('o2', '5'), // the same execution twice: not a Retry
			effect('o3', '6'), effect('o3', '7'), // a copy ran downstream: not a Retry at all
		];
		const acc = account(events, executions, effects);
		expect(acc.ranByRetry).toBe(1); // o2: its first effect is the Retry 5's
		expect(acc.twice.map((t) => [t.event, t.effects.map((f) => [f.lineage.join(' <- '), f.excused])])).toEqual([
			['o1 order.processing', [['1', true], ['3 <- 2 <- 1', true]]],
			['o2 order.processing', [['5 <- 4', true], ['5 <- 4', false]]],
			['o3 order.processing', [['6', true], ['7', false]]],
		]);
		expect(unexplained(acc)).toEqual([
			'twice: o2 order.processing, effect of execution 5 <- 4: not a Retry of an execution that had run it',
			'twice: o3 order.processing, effect of execution 7: not a Retry of an execution that had run it',
		]);
	});

	it('counts the events whose effect only a Retry ran', () => {
		const acc = account([sent('o1', [200, 'k1', ''])], [exec('1', 'o1', 'k1', { status: 'crashed' }), exec('2', 'o1', 'k1', { mode: 'retry', retryOf: '1' })], [effect('o1', '2')]);
		expect(unexplained(acc)).toEqual([]);
		expect(acc.ranByRetry).toBe(1);
	});

	it("a Retry's effect is not excused by a copy's earlier effect", () => {
		// 1 crashed before its effect, a copy (2) ran downstream, then the Retry of 1 (3) ran it again.
		const executions = [exec('1', 'o1', 'k1', { status: 'crashed' }), exec('2', 'o1', 'k2'), exec('3', 'o1', 'k1', { mode: 'retry', retryOf: '1' })];
		const acc = account([sent('o1', [200, 'k1', ''], [200, 'k2', ''])], executions, [effect('o1', '2'), effect('o1', '3')]);
		expect(unexplained(acc)).toEqual(['twice: o1 order.processing, effect of execution 3 <- 1: not a Retry of an execution that had run it']);
	});

	it('a 2xx needs an execution of that very request, unless the trigger answered it itself', () => {
		const events = [sent('o1', [200, 'k1', 'n8n is starting up. Please wait']), sent('o2', [200, 'k2', '{"received":true,"ignored":"duplicate","event":"order.processing"}'])];
		const acc = account(events, [exec('1', 'o1', 'kX'), exec('2', 'o2', 'kY')], [effect('o1', '1'), effect('o2', '2')]);
		expect(acc.acknowledgedWithoutExecution.map((a) => a.event)).toEqual(['o1 order.processing']);
		expect(unexplained(acc)).toEqual([expect.stringMatching(/^acknowledged without an execution: o1 order.processing \(200 at t0: "n8n is starting up/)]);
	});

	it('an effect naming an unknown execution, or one of another event, is unexplained', () => {
		const acc = account([sent('o1', [200, 'k1', '']), sent('o2', [200, 'k2', ''])], [exec('1', 'o1', 'k1'), exec('2', 'o2', 'k2')], [effect('o1', '2'), effect('o2', '9')]);
		expect(unexplained(acc)).toEqual([
			'effect of unknown or other execution: {"orderId":"o1","event":"order.processing","executionId":"2"}',
			'effect of unknown or other execution: {"orderId":"o2","event":"order.processing","executionId":"9"}',
		]);
	});

	it('lineage follows retryOf to the first execution and stops on a loop', () => {
		const byId = new Map([exec('1', 'o', 'k'), exec('2', 'o', 'k', { retryOf: '1' }), exec('3', 'o', 'k', { retryOf: '2' }), exec('8', 'o', 'k', { retryOf: '9' }), exec('9', 'o', 'k', { retryOf: '8' })].map((x) => [x.id, x]));
		expect(lineageOf('3', byId)).toEqual(['3', '2', '1']);
		expect(lineageOf('8', byId)).toEqual(['8', '9']);
	});
});

describe('settled by the reconciliation, by event', () => {
	const processing = (orderId: string) => ({ orderId, status: 'processing', final: false });

	it('an event n8n erased counts as recovered only once its order is in the ledger with the service\'s status', () => {
		const events = [sent('o1', [200, 'k1', '']), sent('o2', [200, 'k2', '']), sent('o3', [200, 'k3', ''])];
		const executions = [exec('1', 'o1', 'k1', { ownsEvent: true }), exec('2', 'o2', 'k2', erasedBy('stalled job')), exec('3', 'o3', 'k3', erasedBy('worker lost its database'))];
		const acc = account(events, executions, [effect('o1', '1')]);
		expect(unexplained(acc)).toEqual([]);
		// o2's order was read back by its quote; o3's was not (its row still shows the quote, no order)
		const s = settle(acc, events, [processing('o1'), processing('o2'), { orderId: '', status: 'quoted', final: false }], { o1: 'processing', o2: 'processing', o3: 'processing' });
		expect(s.outcomes).toEqual({ 'run once': ['o1 order.processing'], 'run more than once': [], 'lost then recovered': ['o2 order.processing'], lost: ['o3 order.processing'] });
		expect(unsettled(s)).toEqual(['lost and not recovered after the reconciliation: o3 order.processing (ledger null, service "processing")']);
	});

	it("an order run once must be in the ledger as the service has it too: status and final", () => {
		const events = [sent('o1', [200, 'k1', '']), sent('o2', [200, 'k2', ''])];
		const acc = account(events, [exec('1', 'o1', 'k1'), exec('2', 'o2', 'k2')], [effect('o1', '1'), effect('o2', '2')]);
		const s = settle(acc, events, [processing('o1'), { orderId: 'o2', status: 'completed', final: false }], { o1: 'failed', o2: 'completed' });
		expect(s.outcomes['run once']).toEqual(['o1 order.processing', 'o2 order.processing']);
		expect(unsettled(s)).toEqual([
			'not in the ledger as the service has it after the reconciliation: o1 order.processing (ledger {"status":"processing","final":false}, service "failed")',
			'not in the ledger as the service has it after the reconciliation: o2 order.processing (ledger {"status":"completed","final":false}, service "completed")',
		]);
	});

	it('counts an event run twice (its lineage is in the account) apart from those run once', () => {
		const events = [sent('o1', [200, 'k1', ''])];
		const acc = account(events, [exec('1', 'o1', 'k1', { status: 'crashed' }), exec('2', 'o1', 'k1', { mode: 'retry', retryOf: '1' })], [effect('o1', '1'), effect('o1', '2')]);
		expect(settle(acc, events, [processing('o1')], { o1: 'processing' }).outcomes['run more than once']).toEqual(['o1 order.processing']);
	});
});
