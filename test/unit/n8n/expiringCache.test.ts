import { ExpiringCache } from '../../../nodes/n8n/expiringCache';

function clockAt(start: number): { now: () => number; advance: (ms: number) => void } {
	let t = start;
	return { now: () => t, advance: (ms) => (t += ms) };
}

describe('ExpiringCache: the one cache of both action nodes', () => {
	it('shares one load between concurrent callers and keeps it until the TTL ends', async () => {
		const clock = clockAt(1000);
		const cache = new ExpiringCache<number>(60_000, clock.now);
		let loads = 0;
		const load = async () => ++loads;
		expect(await Promise.all([cache.get('a', load), cache.get('a', load)])).toEqual([1, 1]);
		clock.advance(59_999);
		expect(await cache.get('a', load)).toBe(1);
		clock.advance(1);
		expect(await cache.get('a', load)).toBe(2);
		expect(await cache.get('b', load)).toBe(3);
	});

	it('never keeps a failure: the caller gets the error, the next caller loads again', async () => {
		const cache = new ExpiringCache<string>(60_000, clockAt(0).now);
		await expect(cache.get('a', async () => await Promise.reject(new Error('down')))).rejects.toThrow('down');
		expect(await cache.get('a', async () => 'up')).toBe('up');
	});

	it('refresh loads again and keeps the new answer; forget and clear drop answers', async () => {
		const cache = new ExpiringCache<number>(60_000, clockAt(0).now);
		let loads = 0;
		const load = async () => ++loads;
		await cache.get('a', load);
		expect(await cache.get('a', load, true)).toBe(2);
		expect(await cache.get('a', load)).toBe(2);
		cache.forget('a');
		expect(await cache.get('a', load)).toBe(3);
		cache.clear();
		expect(await cache.get('a', load)).toBe(4);
	});
});
