import { waitUntilFinal } from '../../../nodes/n8n/wait';

describe('waitUntilFinal: the one poller of both action nodes', () => {
	it('reads until a state ends the wait, and says which end it was', async () => {
		let reads = 0;
		const end = await waitUntilFinal({
			first: 0,
			read: async () => ++reads,
			endOf: (n) => (n === 3 ? 'final' : undefined),
			intervalMs: 5,
			deadline: Date.now() + 10_000,
			lastReadOnDeadline: true,
		});
		expect(end).toMatchObject({ state: 3, endedBy: 'final', via: 'polling' });
	});

	it('Stop during a read in flight ends as WaitStopped, not as the aborted request\'s error', async () => {
		const stop = new AbortController();
		const waiting = waitUntilFinal({
			first: 0,
			// The read is an HTTP request that the cancel signal aborts: it fails with the client's own error.
			read: async () => await new Promise<number>((_, reject) => stop.signal.addEventListener('abort', () => reject(new Error('canceled')))),
			endOf: () => undefined,
			intervalMs: 1,
			deadline: Date.now() + 10_000,
			lastReadOnDeadline: true,
			signal: stop.signal,
		});
		setTimeout(() => stop.abort(), 20);
		await expect(waiting).rejects.toThrow('The wait was stopped: the execution was cancelled');
	});

	it('an error of a read without Stop stays that error', async () => {
		const failing = waitUntilFinal({
			first: 0,
			read: async () => {
				throw new Error('service unavailable');
			},
			endOf: () => undefined,
			intervalMs: 1,
			deadline: Date.now() + 10_000,
			lastReadOnDeadline: true,
			signal: new AbortController().signal,
		});
		await expect(failing).rejects.toThrow('service unavailable');
	});

	it('stops at the deadline: a last read on it, or none once a full interval no longer fits', async () => {
		const run = async (lastReadOnDeadline: boolean) => {
			const times: number[] = [];
			const start = Date.now();
			const end = await waitUntilFinal({
				first: 'PENDING',
				read: async () => (times.push(Date.now() - start), 'PENDING'),
				endOf: () => undefined,
				intervalMs: 60,
				deadline: start + 150,
				lastReadOnDeadline,
			});
			return { end, times };
		};
		// Only lower bounds: a busy machine may sleep longer, never shorter.
		const onDeadline = await run(true);
		expect(onDeadline.end.endedBy).toBe('timeout');
		expect(onDeadline.times.at(-1)).toBeGreaterThanOrEqual(145);
		const fullIntervals = await run(false);
		expect(fullIntervals.end.endedBy).toBe('timeout');
		const gaps = fullIntervals.times.map((t, i) => t - (i === 0 ? 0 : fullIntervals.times[i - 1]));
		expect(gaps.length).toBeGreaterThan(0);
		for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(59);
	});
});
