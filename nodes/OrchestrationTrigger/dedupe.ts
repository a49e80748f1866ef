/**
 * The trigger's memories (spec 6: at least once; make processing idempotent), kept in the node's
 * static data:
 * - deliveries: duplicate keys by time over the whole retry horizon (deliveryMemory.ts);
 * - signatures: verified signatures within the tolerance window, always on (replays).
 * webhook() looks them up and writes them, and answers itself so that n8n saves the write before
 * the run starts (docs/trigger-queue-mode.md). Saves are last-writer-wins: each process merges the
 * copies other processes saved into its own state and writes back keys a concurrent save dropped;
 * it also keeps what it accepted in memory, so a copy arriving here before the save is caught.
 */
import { randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import {
	DEFAULT_MEMORY_BOUND,
	RETRY_SCHEDULE_MS,
	COMPACT_KEY_LENGTH,
	compactKey,
	emptyMemory,
	memoryHas,
	addEntries,
	entriesMissing,
	memorySize,
	readMemory,
	appendFreshKeys,
	type DeliveryMemoryState,
	type MemoryLimits,
} from '../shared/orchestration/deliveryMemory';

export const DEDUPLICATION_HOURS = Math.ceil(RETRY_SCHEDULE_MS / 3_600_000);
export const DEFAULT_DEDUPLICATION_WINDOW = DEFAULT_MEMORY_BOUND;
export const MAX_DEDUPLICATION_WINDOW = 250_000;

/** Static data members. */
export const DELIVERIES_FIELD = 'deliveries';
export const SIGNATURES_FIELD = 'signatures';
/** The key ring of the first release (counted in keys), folded into `deliveries` on the next write. */
const LEGACY_KEYS_FIELD = 'seenKeys';
const LEGACY_NEXT_FIELD = 'seenNext';

/** What the delivery handler needs: look up, then remember once the delivery is accepted. */
export interface DuplicateMemory {
	has(key: string): boolean;
	remember(key: string): void;
}

export function windowOf(value: unknown): number {
	const n = Math.trunc(Number(value));
	if (!Number.isFinite(n) || n < 1) return DEFAULT_DEDUPLICATION_WINDOW;
	return Math.min(n, MAX_DEDUPLICATION_WINDOW);
}

export function hoursOf(value: unknown): number {
	const n = Number(value);
	return Number.isFinite(n) && n > 0 ? n : DEDUPLICATION_HOURS;
}

/**
 * Keys accepted in this process: `recent` for lookups. `written` is the one state object every
 * request of this process assigns to its static data: n8n serialises it when it saves, after the
 * request, so a request that computed its state earlier but saves later still saves everything this
 * process remembered by then (no in-process lost write); it holds every key this process accepted.
 */
interface ProcessLayer {
	recent: Map<string, number>;
	written?: DeliveryMemoryState;
	/** The keys of `written`, for lookups without a scan of its key text (about 1 ms per 1.2 MB). */
	index?: Set<string>;
}

/**
 * How long this process looks up what it accepted, saved or not: a request that loaded the static
 * data before the save may be handled after another request saw the save.
 */
const RECENT_MS = 5 * 60_000;

// Each namespace may hold a state of up to ~1.2 MB; evicting one only loses the in-process copy.
const MAX_NAMESPACES = 200;
const MAX_PROCESS_KEYS = 10_000;
const processLayers = new Map<string, ProcessLayer>();

function processLayer(namespace: string): ProcessLayer {
	let layer = processLayers.get(namespace);
	if (layer === undefined) {
		layer = { recent: new Map(), written: undefined };
		processLayers.set(namespace, layer);
		const oldest = processLayers.size > MAX_NAMESPACES ? processLayers.keys().next().value : undefined;
		if (oldest !== undefined) processLayers.delete(oldest);
	}
	return layer;
}

/** Drops entries older than the horizon and, past the bound, the oldest (Maps iterate oldest first). */
function expire(map: Map<string, number>, nowMs: number, limits: MemoryLimits): void {
	const bound = Math.min(MAX_PROCESS_KEYS, limits.maxEntries);
	for (const [key, atMs] of map) {
		if (atMs >= nowMs - limits.horizonMs && map.size <= bound) break;
		map.delete(key);
	}
}

/** Test and production URLs are separate endpoints for duplicates; a replay is one across both. */
export function memoryNamespace(field: string, workflowId: string | undefined, nodeId: string, executionMode?: string): string {
	const url = executionMode === undefined ? 'any' : executionMode === 'manual' ? 'test' : 'production';
	return JSON.stringify([field, workflowId ?? '', nodeId, url]);
}

export interface MemoryPlace {
	staticData: IDataObject;
	field: string;
	namespace: string;
	limits: MemoryLimits;
	nowMs: number;
	/** Look up what this process accepted for the whole horizon, not 5 minutes (replays across URLs). */
	keepRecent?: boolean;
}

function legacyKeys(staticData: IDataObject): string[] {
	const ring = staticData[LEGACY_KEYS_FIELD];
	return Array.isArray(ring) ? ring.filter((k): k is string => typeof k === 'string').map(compactKey) : [];
}

function expireRecent(layer: ProcessLayer, place: MemoryPlace): void {
	const { horizonMs, maxEntries } = place.limits;
	expire(layer.recent, place.nowMs, { maxEntries, horizonMs: place.keepRecent === true ? horizonMs : Math.min(RECENT_MS, horizonMs) });
}

/** Names this process's writes, so an older copy of its own state is told from another process's. */
const WRITER = randomUUID();

/**
 * The state this request works on: what this process last wrote when the stored copy is that or an
 * older copy of it; otherwise both merged (another process wrote since: last writer wins in n8n,
 * so each side keeps what the other wrote). The merge goes into `written`, the object this process
 * assigns on every write. `stale`: the stored copy lacks keys this process knows (a concurrent save
 * of another process dropped them), so a verified request writes them back (`flush`).
 */
function newestState(layer: ProcessLayer, loaded: DeliveryMemoryState, place: MemoryPlace): { state: DeliveryMemoryState; stale: boolean } {
	const { written } = layer;
	if (written === undefined) return { state: loaded, stale: false };
	if (written.keys === loaded.keys || (loaded.w === WRITER && loaded.n <= written.n)) return { state: written, stale: false };
	const index = indexOf(layer, written);
	const missing = entriesMissing(loaded, (key) => index.has(key));
	const stale = memorySize(loaded) - missing.length < memorySize(written);
	if (missing.length > 0) {
		const beforeKeys = written.keys;
		Object.assign(written, addEntries(written, missing, place.nowMs, place.limits));
		reindex(layer, beforeKeys, written, missing.map((e) => e.key));
	}
	Object.assign(written, { n: Math.max(written.n, loaded.n), w: WRITER });
	return { state: written, stale };
}

/** The key set of `written`, built once and then kept in step by reindex. */
function indexOf(layer: ProcessLayer, written: DeliveryMemoryState): Set<string> {
	layer.index ??= new Set(Array.from({ length: memorySize(written) }, (_, i) => written.keys.substr(i * COMPACT_KEY_LENGTH, COMPACT_KEY_LENGTH)));
	return layer.index;
}

function has(layer: ProcessLayer, state: DeliveryMemoryState, compact: string): boolean {
	return state === layer.written && layer.index !== undefined ? layer.index.has(compact) : memoryHas(state, compact);
}

/**
 * Keeps the index of `written` in step when `after` is `beforeKeys` plus `fresh` at its end, trimmed
 * from the front: drops the keys that left the front, adds the new ones; otherwise rebuilds it.
 */
function reindex(layer: ProcessLayer, beforeKeys: string | undefined, after: DeliveryMemoryState, fresh: string[]): void {
	const appended = beforeKeys !== undefined && after.keys.endsWith(fresh.join(''));
	const dropped = appended ? (beforeKeys.length - after.keys.length) / COMPACT_KEY_LENGTH + fresh.length : 0;
	if (!appended || layer.index === undefined || dropped > beforeKeys.length / COMPACT_KEY_LENGTH) {
		layer.index = undefined;
		indexOf(layer, after);
		return;
	}
	for (let i = 0; i < dropped; i++) layer.index.delete(beforeKeys.substr(i * COMPACT_KEY_LENGTH, COMPACT_KEY_LENGTH));
	for (const key of fresh) layer.index.add(key);
}

/**
 * A memory kept in static data: `remember` writes an accepted key; `flush` writes back what this
 * process knows when the stored copy lacks some of it.
 */
export interface StoredMemory extends DuplicateMemory {
	flush(): void;
}

/** One memory on the node's static data plus this process's layer. Only `remember` and `flush` write. */
export function storedMemory(place: MemoryPlace): StoredMemory {
	const layer = processLayer(place.namespace);
	const loaded = readMemory(place.staticData[place.field]);
	const newest = newestState(layer, loaded, place);
	let state = newest.state;
	expireRecent(layer, place);
	return {
		has(key) {
			const compact = compactKey(key);
			return layer.recent.has(compact) || has(layer, state, compact);
		},
		flush() {
			if (newest.stale && layer.written !== undefined) place.staticData[place.field] = layer.written as unknown as IDataObject;
		},
		remember(key) {
			const compact = compactKey(key);
			layer.recent.set(compact, place.nowMs);
			expire(layer.recent, place.nowMs, place.limits);
			const fresh = [...new Set([...legacyKeys(place.staticData), compact])].filter((k) => !has(layer, state, k));
			const beforeKeys = state === layer.written ? state.keys : undefined;
			state = appendFreshKeys(state, fresh, place.nowMs, place.limits);
			reindex(layer, beforeKeys, state, fresh);
			layer.written = Object.assign(layer.written ?? emptyMemory(), state, { w: WRITER });
			state = layer.written;
			// Assigning a member marks n8n's observable static data as changed, so it is saved.
			place.staticData[place.field] = layer.written as unknown as IDataObject;
			if (LEGACY_KEYS_FIELD in place.staticData) {
				delete place.staticData[LEGACY_KEYS_FIELD];
				delete place.staticData[LEGACY_NEXT_FIELD];
			}
		},
	};
}
