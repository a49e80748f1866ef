/** The pure pacer: what the service's Retry-After and X-RateLimit-* headers let a batch start, and when. */
import { RatePacer, readLimitHeaders, retryAfterMs, type Admission } from '../../../nodes/shared/pacing';

const TUNING = { resetMarginMs: 20, inFlightPollMs: 25, denialWaitMs: 1000, maxDenialWaitMs: 30_000 };

function ok(remaining: number, resetAt: number, limit = 10) {
	return readLimitHeaders(200, { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetAt) }, 0);
}

/** A pacer that has had one answer without limit headers (the endpoint told it nothing of a limit). */
function heardOnce(): RatePacer {
	const pacer = new RatePacer(TUNING);
	pacer.admit(0);
	pacer.finish(0, readLimitHeaders(200, {}, 0));
	return pacer;
}

/** Starts as many requests as the pacer admits at `now`. */
function startAll(pacer: RatePacer, now: number, max = 100): { started: number; last: Admission } {
	let started = 0;
	let last: Admission = { go: true };
	while (started < max) {
		last = pacer.admit(now);
		if (!last.go) break;
		started++;
	}
	return { started, last };
}

describe('readLimitHeaders', () => {
	it('reads limit, remaining, reset (Unix ms) and, on a 429 only, Retry-After', () => {
		const headers = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1764072000123', 'retry-after': '7' };
		expect(readLimitHeaders(429, headers, 0)).toEqual({ denied: true, limit: 60, remaining: 0, resetAt: 1764072000123, retryAfterMs: 7000 });
		expect(readLimitHeaders(200, headers, 0).retryAfterMs).toBeUndefined();
	});

	it('ignores headers that are not plain counts', () => {
		expect(readLimitHeaders(200, { 'x-ratelimit-limit': '-1', 'x-ratelimit-remaining': '2.5', 'x-ratelimit-reset': 'soon' }, 0)).toEqual({
			denied: false,
			limit: undefined,
			remaining: undefined,
			resetAt: undefined,
			retryAfterMs: undefined,
		});
	});

	it('Retry-After as seconds (with decimals) or an HTTP date', () => {
		expect(retryAfterMs('2', 0)).toBe(2000);
		expect(retryAfterMs(['1.5'], 0)).toBe(1500);
		expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
		expect(retryAfterMs('soon', 0)).toBeUndefined();
	});
});

describe('RatePacer', () => {
	it('knows nothing at first: one request finds out, the others start after its answer', () => {
		const pacer = new RatePacer(TUNING);
		const first = startAll(pacer, 0, 50);
		expect(first.started).toBe(1);
		expect(first.last).toEqual({ go: false, waitMs: 25, reason: 'in-flight' });
		pacer.finish(5, readLimitHeaders(200, {}, 5));
		expect(startAll(pacer, 5, 50).started).toBe(50);
	});

	it('the first answer with a limit caps the batch before its second request (no first burst over the limit)', () => {
		const pacer = new RatePacer(TUNING);
		expect(startAll(pacer, 0, 20).started).toBe(1);
		pacer.finish(5, ok(4, 1000, 5));
		const { started, last } = startAll(pacer, 5, 20);
		expect(started).toBe(4);
		expect(last).toEqual({ go: false, waitMs: 1000 + 20 - 5, reason: 'window' });
	});

	it('a first request without an answer (failed connection) lets the next one find out', () => {
		const pacer = new RatePacer(TUNING);
		startAll(pacer, 0, 5);
		pacer.finish(1);
		expect(startAll(pacer, 1, 5).started).toBe(1);
	});

	it('caps the starts of a window at what the service says remains, counting the requests still in flight', () => {
		const pacer = heardOnce();
		expect(startAll(pacer, 0, 5).started).toBe(5);
		// The first answer: 9 left in a window ending at 1000; 4 others are in flight and may count too.
		pacer.finish(10, ok(9, 1000));
		const { started, last } = startAll(pacer, 10);
		expect(started).toBe(5);
		expect(last).toEqual({ go: false, waitMs: 1000 + 20 - 10, reason: 'window' });
	});

	it('lowers what may start when an answer says less remains (others use the same key)', () => {
		const pacer = new RatePacer(TUNING);
		startAll(pacer, 0, 1);
		pacer.finish(1, ok(9, 1000));
		startAll(pacer, 1, 1);
		pacer.finish(2, ok(2, 1000));
		expect(startAll(pacer, 2).started).toBe(2);
	});

	it('resumes with the full limit once the window has reset', () => {
		const pacer = new RatePacer(TUNING);
		startAll(pacer, 0, 1);
		pacer.finish(1, ok(0, 1000));
		expect(pacer.admit(500)).toEqual({ go: false, waitMs: 520, reason: 'window' });
		expect(startAll(pacer, 1020).started).toBe(10);
		expect(pacer.admit(1020)).toEqual({ go: false, waitMs: 25, reason: 'in-flight' });
	});

	it('a late answer of an earlier window does not reopen it', () => {
		const pacer = heardOnce();
		startAll(pacer, 0, 2);
		pacer.finish(1, ok(0, 2000));
		pacer.finish(2, ok(5, 1000));
		expect(pacer.admit(3).go).toBe(false);
		expect(pacer.snapshot().resetAt).toBe(2000);
	});

	it('a denial blocks every start until its Retry-After has passed', () => {
		const pacer = heardOnce();
		startAll(pacer, 0, 3);
		pacer.finish(100, readLimitHeaders(429, { 'retry-after': '2' }, 100));
		expect(pacer.admit(100)).toEqual({ go: false, waitMs: 2000, reason: 'retry-after' });
		expect(pacer.waitFor(1100)).toBe(1000);
		pacer.finish(150);
		pacer.finish(160);
		expect(pacer.admit(2100).go).toBe(true);
	});

	it('a denial without Retry-After backs off, doubling while denials follow each other', () => {
		const pacer = new RatePacer(TUNING);
		pacer.admit(0);
		pacer.finish(0, readLimitHeaders(429, {}, 0));
		expect(pacer.waitFor(0)).toBe(1000);
		expect(pacer.admit(1000).go).toBe(true);
		pacer.finish(1000, readLimitHeaders(429, {}, 1000));
		expect(pacer.waitFor(1000)).toBe(2000);
	});

	it('denials of requests already in flight (one burst past a limit not known yet) back off once, not doubling per answer', () => {
		const pacer = heardOnce();
		startAll(pacer, 0, 5);
		for (let i = 0; i < 5; i++) pacer.finish(100 + i, readLimitHeaders(429, { 'retry-after': '1' }, 100 + i));
		expect(pacer.waitFor(104)).toBe(1000);
		// a request sent after the wait and denied again is a refusal after waiting: that one doubles
		expect(pacer.admit(1104).go).toBe(true);
		pacer.finish(1104, readLimitHeaders(429, { 'retry-after': '1' }, 1104));
		expect(pacer.waitFor(1104)).toBe(2000);
	});

	it('a denial with Retry-After: 0 still backs off (1 s, then 2 s): a zero wait is no invitation to hammer', () => {
		const pacer = new RatePacer(TUNING);
		pacer.admit(0);
		pacer.finish(0, readLimitHeaders(429, { 'retry-after': '0' }, 0));
		expect(pacer.admit(0)).toEqual({ go: false, waitMs: 1000, reason: 'retry-after' });
		expect(pacer.admit(1000).go).toBe(true);
		pacer.finish(1000, readLimitHeaders(429, { 'retry-after': '0' }, 1000));
		expect(pacer.waitFor(1000)).toBe(2000);
	});

	it('no header holds the endpoint back past the horizon: a Retry-After of a day backs off as a denial without one', () => {
		const pacer = new RatePacer({ ...TUNING, horizonMs: 60_000 });
		pacer.admit(0);
		pacer.finish(0, readLimitHeaders(429, { 'retry-after': '86400' }, 0));
		expect(pacer.waitFor(0)).toBe(1000);
		pacer.admit(1000);
		pacer.finish(1000, readLimitHeaders(429, { 'retry-after': '30' }, 1000));
		expect(pacer.waitFor(1000)).toBe(30_000);
	});

	it('a reset past the horizon (even on a 200) is not believed: Remaining 0 then means one request at a time', () => {
		const pacer = new RatePacer({ ...TUNING, horizonMs: 60_000 });
		pacer.admit(0);
		pacer.finish(1, ok(0, 86_400_000));
		expect(pacer.snapshot().resetAt).toBeUndefined();
		expect(pacer.admit(1).go).toBe(true);
		expect(pacer.admit(1)).toEqual({ go: false, waitMs: 25, reason: 'in-flight' });
		pacer.finish(2, ok(0, 86_400_000));
		expect(pacer.admit(2).go).toBe(true);
		// A reset within the horizon is honoured as before.
		pacer.finish(3, ok(0, 30_000));
		expect(pacer.admit(3)).toEqual({ go: false, waitMs: 30_000 + 20 - 3, reason: 'window' });
	});

	it('a failed connection frees its place and says nothing of the limit', () => {
		const pacer = new RatePacer(TUNING);
		startAll(pacer, 0, 1);
		pacer.finish(1, ok(1, 1000));
		expect(pacer.admit(1).go).toBe(true);
		expect(pacer.admit(1)).toEqual({ go: false, waitMs: 1019, reason: 'window' });
		pacer.finish(2);
		expect(pacer.snapshot().inFlight).toBe(0);
	});

	it('without a reset time, an exhausted budget waits for the answers in flight, then tries one', () => {
		const pacer = heardOnce();
		startAll(pacer, 0, 2);
		pacer.finish(1, readLimitHeaders(200, { 'x-ratelimit-remaining': '0' }, 1));
		expect(pacer.admit(1)).toEqual({ go: false, waitMs: 25, reason: 'in-flight' });
		pacer.finish(2);
		expect(pacer.admit(2).go).toBe(true);
		expect(pacer.admit(2).go).toBe(false);
	});

	it('over many windows a batch starts exactly the limit per window, never more', () => {
		const pacer = new RatePacer(TUNING);
		const windowMs = 1000;
		const limit = 10;
		// A fixed-window service: the window starts with the first request after the last one ended.
		let windowStart = -Infinity;
		let used = 0;
		let now = 0;
		let sent = 0;
		while (sent < 95) {
			const a = pacer.admit(now);
			if (!a.go) {
				now += a.waitMs;
				continue;
			}
			if (now >= windowStart + windowMs) {
				windowStart = now;
				used = 0;
			}
			used++;
			expect(used).toBeLessThanOrEqual(limit);
			sent++;
			pacer.finish(now + 1, ok(limit - used, windowStart + windowMs, limit));
			now += 1;
		}
		// 95 requests at 10 per window need 10 windows: the last one starts after 9 full windows.
		expect(now).toBeGreaterThanOrEqual(9 * windowMs);
		expect(now).toBeLessThan(9 * windowMs + 10 * (20 + 10));
	});
});
