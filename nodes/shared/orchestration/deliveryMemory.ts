// Time-based memory of accepted webhook deliveries (spec 6: delivery is at least once, retries for
// 10 s ... 24 h). Pure and serialisable: the state is a plain object the caller stores (n8n keeps
// it in workflow static data), the clock is injected. Keys are compact (a truncated SHA-256), kept
// oldest first in one string, with their times in one-minute buckets; expired and over-bound
// entries leave from the front.
import { createHash } from 'node:crypto';
import { WEBHOOK_RETRY_DELAYS_MS } from './limits';

/** Characters of a compact key: 12 base64url characters = 72 bits of SHA-256. */
export const COMPACT_KEY_LENGTH = 12;
/** Granularity of the stored times; an entry is kept at least its horizon, at most one bucket more. */
export const MEMORY_BUCKET_MS = 60_000;
/** The whole retry schedule of spec 6 (about 32.7 hours). */
export const RETRY_SCHEDULE_MS = WEBHOOK_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
/** A day of 100,000 events fits; a busy partner does not reach it within the horizon. */
export const DEFAULT_MEMORY_BOUND = 100_000;

/**
 * Stored form: `keys` oldest first; `buckets` flat pairs [bucket number, count], oldest first;
 * `n` counts the writes, `w` names the writer (a process), so a reader can tell an older copy of
 * its own writes from another writer's.
 */
export interface DeliveryMemoryState {
	v: 1;
	keys: string;
	buckets: number[];
	n: number;
	w?: string;
}

export interface MemoryLimits {
	/** How long an entry is remembered at least. */
	horizonMs: number;
	/** Most entries kept; the oldest leave first. */
	maxEntries: number;
}

export function emptyMemory(): DeliveryMemoryState {
	return { v: 1, keys: '', buckets: [], n: 0 };
}

/** 72 bits of SHA-256 in base64url: 100,000 entries give a false match once in ~5e16 lookups. */
export function compactKey(key: string): string {
	return createHash('sha256').update(key).digest('base64url').slice(0, COMPACT_KEY_LENGTH);
}

function countOf(buckets: readonly number[]): number {
	let total = 0;
	for (let i = 1; i < buckets.length; i += 2) total += buckets[i];
	return total;
}

/** A stored value that is not a consistent state reads as an empty memory (never as a crash). */
export function readMemory(value: unknown): DeliveryMemoryState {
	if (typeof value !== 'object' || value === null) return emptyMemory();
	const { keys, buckets, n } = value as Partial<DeliveryMemoryState>;
	if (typeof keys !== 'string' || !Array.isArray(buckets) || buckets.length % 2 !== 0) return emptyMemory();
	if (!buckets.every((b) => Number.isSafeInteger(b) && b >= 0)) return emptyMemory();
	if (keys.length !== countOf(buckets) * COMPACT_KEY_LENGTH) return emptyMemory();
	const state: DeliveryMemoryState = { v: 1, keys, buckets, n: Number.isSafeInteger(n) && (n as number) >= 0 ? (n as number) : 0 };
	const { w } = value as Partial<DeliveryMemoryState>;
	return typeof w === 'string' ? { ...state, w } : state;
}

export function memorySize(state: DeliveryMemoryState): number {
	return state.keys.length / COMPACT_KEY_LENGTH;
}

/** Whether a compact key is remembered: a native substring search, kept to key boundaries. */
export function memoryHas(state: DeliveryMemoryState, key: string): boolean {
	let at = state.keys.indexOf(key);
	while (at !== -1 && at % COMPACT_KEY_LENGTH !== 0) at = state.keys.indexOf(key, at + 1);
	return at !== -1;
}

/** Every remembered key, for batches (one pass instead of a search per key). */
function keySet(state: DeliveryMemoryState): Set<string> {
	const set = new Set<string>();
	for (let at = 0; at < state.keys.length; at += COMPACT_KEY_LENGTH) set.add(state.keys.slice(at, at + COMPACT_KEY_LENGTH));
	return set;
}

/** Drops the `count` oldest entries. */
function dropOldest(state: DeliveryMemoryState, count: number): DeliveryMemoryState {
	const buckets = state.buckets.slice();
	let left = count;
	while (left > 0 && buckets.length > 0) {
		const taken = Math.min(left, buckets[1]);
		buckets[1] -= taken;
		left -= taken;
		if (buckets[1] === 0) buckets.splice(0, 2);
	}
	return { v: 1, keys: state.keys.slice((count - left) * COMPACT_KEY_LENGTH), buckets, n: state.n };
}

/** Forgets entries whose whole bucket is older than the horizon, then the oldest over the bound. */
export function trimMemory(state: DeliveryMemoryState, nowMs: number, limits: MemoryLimits): DeliveryMemoryState {
	let expired = 0;
	for (let i = 0; i < state.buckets.length; i += 2) {
		if ((state.buckets[i] + 1) * MEMORY_BUCKET_MS > nowMs - limits.horizonMs) break;
		expired += state.buckets[i + 1];
	}
	const over = Math.max(0, memorySize(state) - expired - limits.maxEntries);
	return expired + over > 0 ? dropOldest(state, expired + over) : state;
}

/** Remembers compact keys accepted at `nowMs` (those already remembered are skipped) and counts the write. */
export function rememberKeys(state: DeliveryMemoryState, keys: readonly string[], nowMs: number, limits: MemoryLimits): DeliveryMemoryState {
	const trimmed = trimMemory(state, nowMs, limits);
	const known = keys.length > 16 ? keySet(trimmed) : undefined;
	return appendFreshKeys(trimmed, keys.filter((key) => !(known ? known.has(key) : memoryHas(trimmed, key))), nowMs, limits);
}

/**
 * Appends keys the caller knows are not remembered (it keeps its own index) and counts the write.
 * A clock that went back files them in the newest bucket, so the order stays oldest first.
 */
export function appendFreshKeys(state: DeliveryMemoryState, keys: readonly string[], nowMs: number, limits: MemoryLimits): DeliveryMemoryState {
	const trimmed = trimMemory(state, nowMs, limits);
	const fresh = [...new Set(keys)].filter((key) => key.length === COMPACT_KEY_LENGTH);
	if (fresh.length === 0) return { ...trimmed, n: trimmed.n + 1 };
	const buckets = trimmed.buckets.slice();
	const bucket = Math.floor(nowMs / MEMORY_BUCKET_MS);
	const last = buckets.length - 2;
	if (last >= 0 && buckets[last] >= bucket) buckets[last + 1] += fresh.length;
	else buckets.push(bucket, fresh.length);
	return trimMemory({ v: 1, keys: trimmed.keys + fresh.join(''), buckets, n: trimmed.n + 1 }, nowMs, limits);
}

/** The bucket of each entry, oldest first. */
function bucketOfEach(state: DeliveryMemoryState): number[] {
	const out: number[] = [];
	for (let i = 0; i < state.buckets.length; i += 2) for (let c = 0; c < state.buckets[i + 1]; c++) out.push(state.buckets[i]);
	return out;
}

/**
 * Both copies' entries, each key once at its earliest time, oldest first, then trimmed: two writers
 * that saved over each other (last writer wins) lose nothing once either merges. O(a + b).
 */
export function mergeMemories(a: DeliveryMemoryState, b: DeliveryMemoryState, nowMs: number, limits: MemoryLimits): DeliveryMemoryState {
	const times = [bucketOfEach(a), bucketOfEach(b)];
	const states = [a, b];
	const seen = new Set<string>();
	const keys: string[] = [];
	const buckets: number[] = [];
	const next = [0, 0];
	while (next[0] < times[0].length || next[1] < times[1].length) {
		const from = next[1] >= times[1].length || (next[0] < times[0].length && times[0][next[0]] <= times[1][next[1]]) ? 0 : 1;
		const at = next[from]++;
		const key = states[from].keys.slice(at * COMPACT_KEY_LENGTH, (at + 1) * COMPACT_KEY_LENGTH);
		if (seen.has(key)) continue;
		seen.add(key);
		keys.push(key);
		const bucket = times[from][at];
		if (buckets.length > 0 && buckets[buckets.length - 2] === bucket) buckets[buckets.length - 1]++;
		else buckets.push(bucket, 1);
	}
	return trimMemory({ v: 1, keys: keys.join(''), buckets, n: Math.max(a.n, b.n) }, nowMs, limits);
}

/** The entries of `other` that `known` lacks, oldest first, each with its bucket. */
export function entriesMissing(other: DeliveryMemoryState, known: (key: string) => boolean): Array<{ key: string; bucket: number }> {
	const missing: Array<{ key: string; bucket: number }> = [];
	let at = 0;
	for (let i = 0; i < other.buckets.length; i += 2) {
		for (let c = 0; c < other.buckets[i + 1]; c++, at++) {
			const key = other.keys.slice(at * COMPACT_KEY_LENGTH, (at + 1) * COMPACT_KEY_LENGTH);
			if (!known(key)) missing.push({ key, bucket: other.buckets[i] });
		}
	}
	return missing;
}

/**
 * Adds entries `state` lacks (from entriesMissing): appended when none is older than its newest
 * bucket (the usual case: another writer's latest keys), else a full merge. Then trimmed.
 */
export function addEntries(
	state: DeliveryMemoryState,
	entries: ReadonlyArray<{ key: string; bucket: number }>,
	nowMs: number,
	limits: MemoryLimits,
): DeliveryMemoryState {
	const last = state.buckets.length > 0 ? state.buckets[state.buckets.length - 2] : -Infinity;
	if (entries.some((e) => e.bucket < last)) {
		const other: DeliveryMemoryState = { v: 1, keys: '', buckets: [], n: 0 };
		for (const e of entries) appendEntry(other, e);
		return mergeMemories(state, other, nowMs, limits);
	}
	const out: DeliveryMemoryState = { v: 1, keys: state.keys, buckets: state.buckets.slice(), n: state.n };
	for (const e of entries) appendEntry(out, e);
	return trimMemory(out, nowMs, limits);
}

function appendEntry(state: DeliveryMemoryState, entry: { key: string; bucket: number }): void {
	state.keys += entry.key;
	const last = state.buckets.length - 2;
	if (last >= 0 && state.buckets[last] === entry.bucket) state.buckets[last + 1]++;
	else state.buckets.push(entry.bucket, 1);
}
