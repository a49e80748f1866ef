/**
 * The time-based delivery memory (spec 6: retries for 10 s ... 24 h) with an injected clock:
 * duplicates caught across the whole retry horizon, entries forgotten after it, the bound kept.
 */
import {
	COMPACT_KEY_LENGTH,
	DEFAULT_MEMORY_BOUND,
	MEMORY_BUCKET_MS,
	RETRY_SCHEDULE_MS,
	compactKey,
	emptyMemory,
	memoryHas,
	memorySize,
	addEntries,
	entriesMissing,
	mergeMemories,
	readMemory,
	rememberKeys,
	trimMemory,
	type DeliveryMemoryState,
} from '../../../nodes/shared/orchestration/deliveryMemory';
import { webhookDuplicateKey } from '../../../nodes/shared/orchestration/webhooks';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const limits = { horizonMs: RETRY_SCHEDULE_MS + 300_000, maxEntries: DEFAULT_MEMORY_BOUND };
const key = (i: number) => compactKey(webhookDuplicateKey({ event: 'order.completed', data: { id: `ord_${i}`, updatedAt: '2026-01-01T00:00:00Z' } }));

function remember(state: DeliveryMemoryState, i: number, nowMs: number, l = limits): DeliveryMemoryState {
	return rememberKeys(state, [key(i)], nowMs, l);
}

describe('delivery memory by time (spec 6 retry horizon)', () => {
	test('the default horizon is the whole retry schedule, 32.7 hours, plus the signature tolerance', () => {
		expect(RETRY_SCHEDULE_MS).toBe((10 + 30 + 120 + 600 + 1800 + 7200 + 21600 + 86400) * 1000);
		expect(limits.horizonMs).toBeGreaterThan(32.7 * HOUR);
	});

	test('compact keys are 12 base64url characters, stable, and differ per event', () => {
		expect(key(1)).toMatch(/^[A-Za-z0-9_-]{12}$/);
		expect(key(1)).toBe(key(1));
		expect(new Set(Array.from({ length: 10_000 }, (_, i) => key(i))).size).toBe(10_000);
	});

	test('a duplicate 30 hours later, and one at the last retry (32.7 h), is caught', () => {
		let state = remember(emptyMemory(), 1, T0);
		// other traffic in between moves the clock and trims on every write
		for (let h = 1; h <= 30; h++) state = remember(state, 1000 + h, T0 + h * HOUR);
		expect(memoryHas(state, key(1))).toBe(true);
		state = remember(state, 2000, T0 + RETRY_SCHEDULE_MS);
		expect(memoryHas(state, key(1))).toBe(true);
	});

	test('entries are forgotten once the horizon (plus at most one bucket) has passed', () => {
		let state = remember(emptyMemory(), 1, T0);
		state = remember(state, 2, T0 + 10 * HOUR);
		state = trimMemory(state, T0 + limits.horizonMs + MEMORY_BUCKET_MS, limits);
		expect(memoryHas(state, key(1))).toBe(false);
		expect(memoryHas(state, key(2))).toBe(true);
		expect(memorySize(state)).toBe(1);
		state = trimMemory(state, T0 + 10 * HOUR + limits.horizonMs + MEMORY_BUCKET_MS, limits);
		expect([state.keys, state.buckets]).toEqual(["", []]);
	});

	test('the bound is respected, oldest first out', () => {
		const small = { horizonMs: limits.horizonMs, maxEntries: 100 };
		let state = emptyMemory();
		for (let i = 0; i < 250; i++) state = remember(state, i, T0 + i * 1000, small);
		expect(memorySize(state)).toBe(100);
		expect(state.keys.length).toBe(100 * COMPACT_KEY_LENGTH);
		expect(memoryHas(state, key(149))).toBe(false);
		expect(memoryHas(state, key(150))).toBe(true);
		expect(memoryHas(state, key(249))).toBe(true);
	});

	test('100,000 entries stay in about 1.2 MB of key text and a few bucket numbers', () => {
		const keys = Array.from({ length: DEFAULT_MEMORY_BOUND + 10 }, (_, i) => key(i));
		let state = emptyMemory();
		for (let i = 0; i < keys.length; i += 1000) state = rememberKeys(state, keys.slice(i, i + 1000), T0 + i * 100, limits);
		expect(memorySize(state)).toBe(DEFAULT_MEMORY_BOUND);
		expect(state.keys.length).toBe(DEFAULT_MEMORY_BOUND * COMPACT_KEY_LENGTH);
		expect(JSON.stringify(state).length).toBeLessThan(1_210_000);
		expect(memoryHas(state, keys[9])).toBe(false);
		expect(memoryHas(state, keys[10])).toBe(true);
	});

	test('a key already remembered is not added twice; a clock that went back keeps the order', () => {
		let state = remember(emptyMemory(), 1, T0);
		state = remember(state, 1, T0 + 1000);
		expect(memorySize(state)).toBe(1);
		state = remember(state, 2, T0 - 5 * MEMORY_BUCKET_MS);
		expect(memorySize(state)).toBe(2);
		expect(state.buckets).toEqual([Math.floor(T0 / MEMORY_BUCKET_MS), 2]);
	});

	test('a match across two keys is not a match (lookups stay on key boundaries)', () => {
		const state: DeliveryMemoryState = { v: 1, keys: 'AAAAAAAAAAAB' + 'CCCCCCCCCCCC', buckets: [1, 2], n: 1 };
		expect(memoryHas(state, 'ABCCCCCCCCCC')).toBe(false);
		expect(memoryHas(state, 'CCCCCCCCCCCC')).toBe(true);
	});

	test('stored values that are not a consistent state read as empty', () => {
		for (const bad of [undefined, null, 'x', [], { keys: 1, buckets: [] }, { keys: 'abc', buckets: [1, 1] }, { keys: '', buckets: [1] }, { keys: '', buckets: [1, -1] }]) {
			expect(readMemory(bad)).toEqual(emptyMemory());
		}
		const good = remember(emptyMemory(), 1, T0);
		expect(readMemory(JSON.parse(JSON.stringify(good)))).toEqual(good);
		expect(readMemory({ ...good, n: undefined })).toEqual({ ...good, n: 0 });
	});

	test('every write is counted, so the newer of two copies can be told', () => {
		let state = remember(emptyMemory(), 1, T0);
		expect(state.n).toBe(1);
		state = remember(state, 1, T0 + 1);
		state = remember(state, 2, T0 + 2);
		expect(state.n).toBe(3);
	});

	describe('merging two copies written over each other (two webhook processes, last writer wins)', () => {
		const keysOf = (state: DeliveryMemoryState) => Array.from({ length: memorySize(state) }, (_, i) => state.keys.slice(i * COMPACT_KEY_LENGTH, (i + 1) * COMPACT_KEY_LENGTH));

		test('keeps every key of both once, at its earliest time, oldest first, and the larger write count', () => {
			// A wrote 1 (t0), 3 (t0 + 2 min); B wrote 2 (t0 + 1 min), 3 again (t0 + 3 min), 4 (t0 + 3 min).
			let a = remember(emptyMemory(), 1, T0);
			a = remember(a, 3, T0 + 2 * MEMORY_BUCKET_MS);
			let b = remember(emptyMemory(), 2, T0 + MEMORY_BUCKET_MS);
			b = rememberKeys(b, [key(3), key(4)], T0 + 3 * MEMORY_BUCKET_MS, limits);
			b = remember(b, 5, T0 + 3 * MEMORY_BUCKET_MS);
			const now = T0 + 4 * MEMORY_BUCKET_MS;
			const merged = mergeMemories(a, b, now, limits);
			expect(keysOf(merged)).toEqual([1, 2, 3, 4, 5].map(key));
			const bucket = Math.floor(T0 / MEMORY_BUCKET_MS);
			expect(merged.buckets).toEqual([bucket, 1, bucket + 1, 1, bucket + 2, 1, bucket + 3, 2]);
			expect(merged.n).toBe(3);
			expect(readMemory(JSON.parse(JSON.stringify(merged)))).toEqual(merged);
			// Either order gives the same memory, and merging again changes nothing.
			expect(mergeMemories(b, a, now, limits)).toEqual(merged);
			expect(mergeMemories(merged, a, now, limits)).toEqual(merged);
		});

		test('the merge is trimmed: entries past the horizon leave, then the oldest over the bound', () => {
			const a = remember(emptyMemory(), 1, T0);
			const b = remember(emptyMemory(), 2, T0 + 10 * HOUR);
			const late = mergeMemories(a, b, T0 + limits.horizonMs + MEMORY_BUCKET_MS, limits);
			expect(keysOf(late)).toEqual([key(2)]);
			let many = emptyMemory();
			for (let i = 0; i < 10; i++) many = remember(many, 100 + i, T0 + i * MEMORY_BUCKET_MS);
			const bounded = mergeMemories(many, b, T0 + 10 * HOUR, { ...limits, maxEntries: 4 });
			expect(keysOf(bounded)).toEqual([107, 108, 109, 2].map(key));
		});

		test('entriesMissing + addEntries: another writer\'s newest keys are appended; older ones merge in order', () => {
			let a = remember(emptyMemory(), 1, T0);
			a = remember(a, 2, T0 + MEMORY_BUCKET_MS);
			let b = remember(emptyMemory(), 1, T0);
			b = remember(b, 3, T0 + 2 * MEMORY_BUCKET_MS);
			const known = new Set(keysOf(a));
			const missing = entriesMissing(b, (k) => known.has(k));
			const bucket = Math.floor(T0 / MEMORY_BUCKET_MS);
			expect(missing).toEqual([{ key: key(3), bucket: bucket + 2 }]);
			const now = T0 + 3 * MEMORY_BUCKET_MS;
			const appended = addEntries(a, missing, now, limits);
			expect(keysOf(appended)).toEqual([1, 2, 3].map(key));
			expect(appended).toEqual({ ...mergeMemories(a, b, now, limits), n: a.n });
			// An entry older than the newest bucket is merged in time order, not appended.
			const older = addEntries(appended, [{ key: key(9), bucket }], now, limits);
			expect(keysOf(older)).toEqual([1, 9, 2, 3].map(key));
			expect(older.buckets).toEqual([bucket, 2, bucket + 1, 1, bucket + 2, 1]);
		});

		test('100,000 keys each side merge in one pass', () => {
			let a = emptyMemory();
			let b = emptyMemory();
			const batch = (from: number) => Array.from({ length: 1000 }, (_, i) => key(from + i));
			for (let m = 0; m < 100; m++) {
				a = rememberKeys(a, batch(m * 2000), T0 + m * MEMORY_BUCKET_MS, limits);
				b = rememberKeys(b, batch(m * 2000 + 1000), T0 + m * MEMORY_BUCKET_MS, limits);
			}
			const merged = mergeMemories(a, b, T0 + 100 * MEMORY_BUCKET_MS, limits);
			expect(memorySize(merged)).toBe(DEFAULT_MEMORY_BOUND);
			// The bound keeps the newest 100,000 of the 200,000 distinct keys.
			expect(memoryHas(merged, key(199_999))).toBe(true);
			expect(memoryHas(merged, key(0))).toBe(false);
		});
	});
});
