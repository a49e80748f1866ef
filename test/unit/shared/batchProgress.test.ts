/** Progress of a long batch: items done, time waiting for the limit, expected end; lines at a sane rate. */
import { BatchProgress, progressLine, summaryLine } from '../../../nodes/shared/batchProgress';

const T0 = Date.UTC(2026, 10, 25, 14, 0, 0);

describe('BatchProgress', () => {
	it('counts the wall time during which at least one item waited, not the sum of the waits', () => {
		const p = new BatchProgress(10, T0);
		p.waitStarted(T0 + 1000);
		p.waitStarted(T0 + 1500);
		p.waitEnded(T0 + 2000);
		p.waitEnded(T0 + 3000);
		p.waitStarted(T0 + 5000);
		expect(p.figures(T0 + 5500)).toMatchObject({ waitedMs: 2500, waiting: 1 });
		p.waitEnded(T0 + 6000);
		expect(p.figures(T0 + 7000)).toMatchObject({ waitedMs: 3000, waiting: 0 });
	});

	it('expects the end at the pace so far', () => {
		const p = new BatchProgress(100, T0);
		for (let i = 0; i < 25; i++) p.itemDone();
		expect(p.figures(T0 + 10_000)).toMatchObject({ done: 25, elapsedMs: 10_000, remainingMs: 30_000 });
		expect(new BatchProgress(100, T0).figures(T0 + 10_000).remainingMs).toBeUndefined();
	});

	it('writes a line at most once per interval, none before the first interval and none once done', () => {
		const p = new BatchProgress(3, T0, { intervalMs: 15_000 });
		p.itemDone();
		expect(p.lineIfDue(T0 + 14_999)).toBeUndefined();
		expect(p.lineIfDue(T0 + 15_000)).toMatch(/^1\/3 items done in 15 s/);
		expect(p.lineIfDue(T0 + 20_000)).toBeUndefined();
		p.itemDone();
		p.itemDone();
		expect(p.lineIfDue(T0 + 40_000)).toBeUndefined();
	});
});

describe('lines', () => {
	it('a progress line says what is done, the waiting, and the expected end (UTC)', () => {
		const line = progressLine({ total: 1000, done: 412, elapsedMs: 95_000, waitedMs: 41_000, waiting: 3, remainingMs: 135_600 }, T0);
		expect(line).toBe('412/1000 items done in 95 s, 41 s waiting for the rate limit (3 waiting now), expected end 14:02:15 UTC (in 2 min)');
		expect(progressLine({ total: 10, done: 0, elapsedMs: 20_000, waitedMs: 0, waiting: 0 }, T0)).toBe('0/10 items done in 20 s');
	});

	it('the summary gives the time spent waiting for the limit', () => {
		expect(summaryLine({ total: 200, done: 200, elapsedMs: 61_400, waitedMs: 52_200, waiting: 0 })).toBe(
			"200/200 items in 61 s; 52 s of it waiting for the service's rate limit (paced by its Retry-After and X-RateLimit headers)",
		);
	});
});
