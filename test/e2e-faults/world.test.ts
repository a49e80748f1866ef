/** What the fault suite counts as an execution n8n erased (world.ts), on data in n8n's own stored form (flatted, createRunExecutionData). */
import * as flatted from 'flatted';
import { OperationalError, createRunExecutionData } from 'n8n-workflow';
import { ERASURES } from './accounting';
import { abortedIn, erasedByN8n, ownerMarkHash, replacedBy, triggerItemOf } from './world';

const item = { event: 'order.processing', data: { id: 'ord_1' }, delivery: { deliveryId: 'dlv_1', replayKey: 'sig:ab' } };
/** An execution's data as the webhook process creates it: the trigger's item on the stack. */
const created = flatted.stringify(createRunExecutionData({ executionData: { nodeExecutionStack: [{ node: { name: 'Order events' }, data: { main: [[{ json: item }]] }, source: null }] } as never }));
/** What WorkflowRunner.processError saves instead: `{ ...error, message, stack }` and no run data. */
const replaced = (error: Error) => flatted.stringify(createRunExecutionData({ resultData: { error: { ...error, message: error.message, stack: error.stack } as never, runData: {} } }));
/** n8n's MaxStalledCountError (an OperationalError, level warning), and Bull's error for a job its worker failed. */
const stalled = new OperationalError(ERASURES['stalled job'], { level: 'warning' });
const driverLost = new Error('Driver not Connected');
/** What a run that got through saves: the trigger's output in runData. */
const ran = flatted.stringify(createRunExecutionData({ resultData: { runData: { 'Order events': [{ data: { main: [[{ json: item }]] } }] } as never } }));
/** A copy the trigger stopped (a duplicate): the trigger ran and output nothing. */
const stoppedAtTrigger = flatted.stringify(createRunExecutionData({ resultData: { runData: { 'Order events': [{ data: { main: [[]] } }] } as never } }));
/** A run that failed in a later node: the error, and the run data of the nodes that ran. */
const failedLater = flatted.stringify(createRunExecutionData({ resultData: { error: { message: 'Effect failed' } as never, runData: { 'Order events': [{ data: { main: [[]] } }], Effect: [{}] } as never } }));

describe('erasedByN8n', () => {
	it('reads the event from the data n8n created the execution with', () => {
		expect(triggerItemOf(flatted, created)).toEqual({ orderId: 'ord_1', event: 'order.processing', deliveryId: 'dlv_1', replayKey: 'sig:ab' });
	});

	it("names n8n's known erasures where the saved data no longer carries the event: a stalled job, a worker that lost its database", () => {
		expect(erasedByN8n(flatted, created, replaced(stalled))).toBe('stalled job');
		expect(erasedByN8n(flatted, created, replaced(driverLost))).toBe('worker lost its database');
	});

	it('excuses no other error saved in that form: a package n8n could not load, a crash in a node, anything at all', () => {
		// A worker that cannot load the package fails every job the same way: that must fail the suite.
		for (const message of ["Cannot read properties of undefined (reading 'secret')", 'Unrecognized node type: CUSTOM.orchestrationTrigger', 'anything at all']) {
			expect(replacedBy(flatted, created, replaced(new Error(message)))).toBe(message);
			expect(erasedByN8n(flatted, created, replaced(new Error(message)))).toBeFalsy();
		}
		// Close is not enough: the message must be n8n's own, whole.
		expect(erasedByN8n(flatted, created, replaced(new Error('This execution failed to be processed too many times and will no longer retry.')))).toBeFalsy();
	});

	it('is not an erasure while the event is still there: created and not run yet, run, or crashed with its data', () => {
		expect(erasedByN8n(flatted, created, created)).toBeFalsy();
		expect(erasedByN8n(flatted, created, ran)).toBeFalsy();
	});

	it('is not an erasure for a run that lost the event itself: a copy stopped at the trigger, a run failed in a later node', () => {
		// Excusing these would hide a trigger that dropped an event as a duplicate, or a failure downstream.
		expect(erasedByN8n(flatted, created, stoppedAtTrigger)).toBeFalsy();
		expect(erasedByN8n(flatted, created, failedLater)).toBeFalsy();
		expect(replacedBy(flatted, created, failedLater)).toBeUndefined();
	});

	it('is not an erasure without saved data, or when the execution never carried an event', () => {
		expect(erasedByN8n(flatted, created, null)).toBeFalsy();
		expect(erasedByN8n(flatted, null, replaced(driverLost))).toBeFalsy();
		expect(erasedByN8n(flatted, replaced(new Error('x')), replaced(driverLost))).toBeFalsy();
	});
});

describe("n8n's own records of an execution", () => {
	it("reads processError's log line per execution, with the message it saved", () => {
		const log = [
			'2026-01-01T00:00:00.000Z | error | Problem with execution 911: This execution failed to be processed too many times and will no longer retry. To allow this execution to complete, please break down your workflow or scale up your workers or adjust your worker settings.. Aborting.',
			'Problem with execution 42: Driver not Connected. Aborting. {"file":"workflow-runner.js"}',
			'Execution 43 finished',
		].join('\n');
		expect([...abortedIn(log)]).toEqual([['911', ERASURES['stalled job']], ['42', 'Driver not Connected']]);
	});

	it("hashes an owner mark as n8n's processed-data store keeps it (MD5, base64)", () => {
		// n8n 2.41.1's DeduplicationHelper.createValueHash('own:dlv_1'), run in its install
		expect(ownerMarkHash('dlv_1')).toBe('+bhYXr3UcSYe1BtTH5ddQg==');
	});
});
