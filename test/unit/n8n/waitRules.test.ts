import {
	announcesChange,
	HEARTBEAT_GAP_MS,
	intervalMsOf,
	MIN_WAIT_INTERVAL_SECONDS,
	nextFrameWait,
	nextPollDelay,
	orderWaitEnd,
	STREAM_OPEN_MS,
	streamOpenDeadline,
} from '../../../nodes/shared/waitRules';

describe('the decisions of a wait (nodes/shared/waitRules.ts)', () => {
	it('never polls faster than the minimum interval', () => {
		expect(MIN_WAIT_INTERVAL_SECONDS).toBe(3);
		expect(intervalMsOf(1, MIN_WAIT_INTERVAL_SECONDS, 5)).toBe(3000);
		expect(intervalMsOf(10, MIN_WAIT_INTERVAL_SECONDS, 5)).toBe(10_000);
		expect(intervalMsOf('x', MIN_WAIT_INTERVAL_SECONDS, 5)).toBe(5000);
		expect(intervalMsOf(Number.NaN, MIN_WAIT_INTERVAL_SECONDS, 1)).toBe(3000);
	});

	it('sleeps a full interval, shortens the last one onto the deadline, or times out', () => {
		const at = (now: number, lastReadOnDeadline: boolean) => nextPollDelay({ now, deadline: 10_000, intervalMs: 3000, lastReadOnDeadline });
		expect(at(0, false)).toBe(3000);
		expect(at(7000, false)).toBe(3000);
		expect(at(7001, false)).toBeUndefined();
		expect(at(9000, true)).toBe(1000);
		expect(at(10_000, true)).toBeUndefined();
	});

	it('waits for the next frame until the deadline or the heartbeat gap, whichever is first, and names what silence means', () => {
		expect(HEARTBEAT_GAP_MS).toBe(45_000);
		expect(nextFrameWait({ now: 1000, deadline: 100_000, lastFrameAt: 1000, gapMs: 45_000 })).toEqual({ ms: 45_000, onSilence: 'dropped' });
		expect(nextFrameWait({ now: 30_000, deadline: 100_000, lastFrameAt: 1000, gapMs: 45_000 })).toEqual({ ms: 16_000, onSilence: 'dropped' });
		expect(nextFrameWait({ now: 1000, deadline: 20_000, lastFrameAt: 1000, gapMs: 45_000 })).toEqual({ ms: 19_000, onSilence: 'timeout' });
		expect(nextFrameWait({ now: 50_000, deadline: 100_000, lastFrameAt: 1000, gapMs: 45_000 })).toEqual({ ms: 0, onSilence: 'dropped' });
		expect(nextFrameWait({ now: 30_000, deadline: 20_000, lastFrameAt: 1000, gapMs: 45_000 })).toEqual({ ms: 0, onSilence: 'timeout' });
	});

	it('an opening stream answers within its own bound (10 s), never past the wait\'s deadline', () => {
		expect(STREAM_OPEN_MS).toBe(10_000);
		expect(streamOpenDeadline(1000, 600_000)).toBe(11_000);
		expect(streamOpenDeadline(1000, 5000)).toBe(5000);
		expect(streamOpenDeadline(1000, 600_000, 500)).toBe(1500);
	});

	it('reads the full status only when the stream announces a change', () => {
		expect(announcesChange('bridging', 'processing')).toBe(true);
		expect(announcesChange('processing', 'processing')).toBe(false);
		expect(announcesChange(undefined, 'processing')).toBe(false);
		expect(announcesChange('processing', undefined)).toBe(true);
	});

	it('a final status ends every wait; awaiting_approval ends only the newest version\'s', () => {
		expect(orderWaitEnd({ status: 'completed', isFinal: true }, false)).toBe('final');
		expect(orderWaitEnd({ status: 'awaiting_approval', isFinal: false }, true)).toBe('actionRequired');
		expect(orderWaitEnd({ status: 'awaiting_approval', isFinal: false }, false)).toBeUndefined();
		expect(orderWaitEnd({ status: 'bridging', isFinal: false }, true)).toBeUndefined();
		expect(orderWaitEnd({ status: undefined, isFinal: false }, true)).toBeUndefined();
	});

	it('unfulfilled ends no wait; a named successor is followed in every version; a reprice approval ends the newest', () => {
		// public-notes: unfulfilled can still resume after a late deposit
		expect(orderWaitEnd({ status: 'unfulfilled', isFinal: false }, true)).toBeUndefined();
		expect(orderWaitEnd({ status: 'unfulfilled', isFinal: false }, false)).toBeUndefined();
		expect(orderWaitEnd({ status: 'unfulfilled', isFinal: false, successor: 'ord_b' }, false)).toBe('superseded');
		expect(orderWaitEnd({ status: 'unfulfilled', isFinal: false, successor: 'ord_b' }, true)).toBe('superseded');
		expect(orderWaitEnd({ status: 'swapping', isFinal: false, repriceApproval: true }, true)).toBe('actionRequired');
		expect(orderWaitEnd({ status: 'swapping', isFinal: false, repriceApproval: true }, false)).toBeUndefined();
		// a final status wins over anything else the order says
		expect(orderWaitEnd({ status: 'refunded', isFinal: true, successor: 'ord_b', repriceApproval: true }, true)).toBe('final');
	});
});
