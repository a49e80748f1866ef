/** The event filter as a pure function: all kinds, a selection, and fail-closed values (issue 14, point 11). */
import { ORDER_EVENTS } from '../../../nodes/shared/orchestration/enums';
import { ALL_EVENTS, NEWER_EVENTS, SELECTABLE_EVENTS, eventSelectionOf } from '../../../nodes/OrchestrationTrigger/events';

describe('eventSelectionOf', () => {
	test('empty, "All Events" or every spec kind selects every kind, including ones added later', () => {
		for (const value of [[], [ALL_EVENTS], [ALL_EVENTS, 'order.completed'], [...ORDER_EVENTS]]) {
			const selection = eventSelectionOf(value)!;
			expect(selection.all).toBe(true);
			for (const kind of [...SELECTABLE_EVENTS, 'order.kind_added_later']) expect(selection.accepts(kind)).toBe(true);
		}
	});

	test('a selection lets through its kinds only; the newer kinds of public-notes are selectable', () => {
		expect(NEWER_EVENTS).toEqual(['order.superseded', 'order.recovery_required']);
		const selection = eventSelectionOf(['order.superseded', 'order.completed'])!;
		expect(selection.all).toBe(false);
		expect(['order.superseded', 'order.completed', 'order.recovery_required', 'order.failed'].map(selection.accepts)).toEqual([true, true, false, false]);
	});

	test('anything but a list of strings fails closed', () => {
		for (const value of [undefined, null, '', 'order.completed', {}, { 0: 'order.completed' }, 7, true, [1], ['order.completed', null]]) {
			expect(eventSelectionOf(value)).toBeUndefined();
		}
	});
});
