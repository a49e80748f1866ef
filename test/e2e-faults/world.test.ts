/** What the fault suite counts as an execution n8n erased (world.ts), on data in n8n's own stored form (flatted). */
import * as flatted from 'flatted';
import { erasedByN8n, triggerItemOf } from './world';

const item = { event: 'order.processing', data: { id: 'ord_1' }, delivery: { deliveryId: 'dlv_1', replayKey: 'sig:ab' } };
/** An execution's data as the webhook process creates it: the trigger's item on the stack. */
const created = flatted.stringify({ executionData: { nodeExecutionStack: [{ node: { name: 'Order events' }, data: { main: [[{ json: item }]] } }] }, resultData: { runData: {} } });
/** What WorkflowRunner.processError saves instead: the error and no run data. */
const replaced = (message: string) => flatted.stringify({ resultData: { error: { message }, runData: {} } });
/** What a run that got through saves: the trigger's output in runData. */
const ran = flatted.stringify({ resultData: { runData: { 'Order events': [{ data: { main: [[{ json: item }]] } }] } } });
/** A copy the trigger stopped (a duplicate): the trigger ran and output nothing. */
const stoppedAtTrigger = flatted.stringify({ resultData: { runData: { 'Order events': [{ data: { main: [[]] } }] } } });
/** A run that failed in a later node: the error, and the run data of the nodes that ran. */
const failedLater = flatted.stringify({ resultData: { error: { message: 'Effect failed' }, runData: { 'Order events': [{ data: { main: [[]] } }], Effect: [{}] } } });

describe('erasedByN8n', () => {
	it('reads the event from the data n8n created the execution with', () => {
		expect(triggerItemOf(flatted, created)).toEqual({ orderId: 'ord_1', event: 'order.processing', deliveryId: 'dlv_1', replayKey: 'sig:ab' });
	});

	it('is true when the saved data no longer carries the event: a stalled job, or one the worker could not read from a stopped Postgres', () => {
		expect(erasedByN8n(flatted, created, replaced('This execution failed to be processed too many times and will no longer retry.'))).toBe(true);
		expect(erasedByN8n(flatted, created, replaced('Driver not Connected'))).toBe(true);
	});

	it('is false while the event is still there: created and not run yet, run, or crashed with its data', () => {
		expect(erasedByN8n(flatted, created, created)).toBe(false);
		expect(erasedByN8n(flatted, created, ran)).toBe(false);
	});

	it('is false for a run that lost the event itself: a copy stopped at the trigger, a run failed in a later node', () => {
		// Excusing these would hide a trigger that dropped an event as a duplicate, or a failure downstream.
		expect(erasedByN8n(flatted, created, stoppedAtTrigger)).toBe(false);
		expect(erasedByN8n(flatted, created, failedLater)).toBe(false);
	});

	it('is false without saved data, or when the execution never carried an event', () => {
		expect(erasedByN8n(flatted, created, null)).toBe(false);
		expect(erasedByN8n(flatted, null, replaced('Driver not Connected'))).toBe(false);
		expect(erasedByN8n(flatted, replaced('x'), replaced('Driver not Connected'))).toBe(false);
	});
});
