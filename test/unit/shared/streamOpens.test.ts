import { StreamOpenPacer, StreamOpenPacers, STREAM_OPENS_PER_MINUTE } from '../../../nodes/shared/streamOpens';

describe('the pace of event-stream openings (public-notes: 30 attempts a minute per IP)', () => {
	it('admits 30 attempts in any minute and refuses the 31st until the oldest is a minute old', () => {
		expect(STREAM_OPENS_PER_MINUTE).toBe(30);
		const pacer = new StreamOpenPacer();
		for (let i = 0; i < 30; i++) expect(pacer.take(1000 + i * 100)).toBeUndefined();
		expect(pacer.take(5000)).toBe('pace');
		expect(pacer.take(60_999)).toBe('pace');
		// the first attempt (at 1000) leaves the window at 61,000: one more may start
		expect(pacer.take(61_000)).toBeUndefined();
		expect(pacer.take(61_001)).toBe('pace');
	});

	it('a 429 or "none remaining" from the service stops openings until its reset, one minute at most', () => {
		const pacer = new StreamOpenPacer();
		pacer.note({ denied: false, remaining: 3, resetAt: 50_000 }, 0);
		expect(pacer.take(1)).toBeUndefined();
		pacer.note({ denied: false, remaining: 0, resetAt: 20_000 }, 10);
		expect(pacer.take(19_999)).toBe('serviceLimit');
		expect(pacer.take(20_000)).toBeUndefined();
		// a far-future reset (or one in seconds, read as 1970) is held to one window
		pacer.note({ denied: true, resetAt: 10 ** 15 }, 30_000);
		expect(pacer.take(89_999)).toBe('serviceLimit');
		expect(pacer.take(90_000)).toBeUndefined();
		pacer.note({ denied: true, resetAt: 1_700_000 }, 2_000_000);
		expect(pacer.take(2_059_999)).toBe('serviceLimit');
		pacer.note({ denied: true, retryAfterMs: 5000 }, 3_000_000);
		expect(pacer.take(3_004_999)).toBe('serviceLimit');
		expect(pacer.take(3_005_000)).toBeUndefined();
	});

	it('one pacer per service origin, in a bounded map that drops idle pacers first', () => {
		const pacers = new StreamOpenPacers(4);
		const a = pacers.for('https://a.example', 0);
		expect(pacers.for('https://a.example', 1)).toBe(a);
		a.take(0);
		for (const host of ['b', 'c', 'd', 'e', 'f']) pacers.for(`https://${host}.example`, 10);
		expect(pacers.size).toBeLessThanOrEqual(4);
		// a was busy (an attempt in the window) and the others idle: a stays
		expect(pacers.for('https://a.example', 20)).toBe(a);
	});
});
