/**
 * Memory of accepted deliveries (spec §6: delivery is at least once, make processing idempotent).
 * Two layers, both bounded and oldest-first evicted:
 * - process-local: written by webhook() when it accepts, so a duplicate arriving while the first
 *   run is still executing (before anything is saved) is caught;
 * - persisted: a ring of keys in the node's static data, written by execute() inside the run,
 *   because n8n 2.41 saves the static data of a run but drops what webhook() wrote once a run
 *   starts (WorkflowRunner resets the change flag and reloads static data from the database).
 */
import type { IDataObject } from 'n8n-workflow';

export const DEFAULT_DEDUPLICATION_WINDOW = 1000;
export const MAX_DEDUPLICATION_WINDOW = 100_000;

/** Static data members: the keys in a ring (oldest at `seenNext` once full) and the ring position. */
export const SEEN_KEYS_FIELD = 'seenKeys';
export const SEEN_NEXT_FIELD = 'seenNext';

/** What the delivery handler needs: look up, then remember once the delivery is accepted. */
export interface DuplicateMemory {
	has(key: string): boolean;
	remember(key: string, nowMs: number): void;
}

export function windowOf(value: unknown): number {
	const n = Math.trunc(Number(value));
	if (!Number.isFinite(n) || n < 1) return DEFAULT_DEDUPLICATION_WINDOW;
	return Math.min(n, MAX_DEDUPLICATION_WINDOW);
}

/** A Set over a ring array, built once per array object (n8n loads static data per request). */
const ringIndexes = new WeakMap<object, Set<string>>();

function indexOf(ring: string[]): Set<string> {
	let index = ringIndexes.get(ring);
	if (index === undefined) {
		index = new Set(ring);
		ringIndexes.set(ring, index);
	}
	return index;
}

/** The ring oldest-first, trimmed to the newest `window` keys (after the window option changed). */
function normalizedRing(ring: string[], next: number, window: number): string[] {
	const ordered = [...ring.slice(next), ...ring.slice(0, next)].filter((k) => typeof k === 'string');
	return ordered.slice(Math.max(0, ordered.length - window));
}

/**
 * The persisted layer on a node's static data: a ring of at most `window` keys (O(1) to add and
 * evict) with a Set index for O(1) lookups. Only `remember` writes, so a duplicate, an ignored
 * or a rejected delivery leaves the static data unchanged.
 */
export function staticDataMemory(staticData: IDataObject, window: number): DuplicateMemory {
	const raw = staticData[SEEN_KEYS_FIELD];
	let ring: string[] = Array.isArray(raw) ? (raw as string[]) : [];
	let next = Number(staticData[SEEN_NEXT_FIELD] ?? 0);
	return {
		has: (key) => indexOf(ring).has(key),
		remember(key) {
			const valid = Number.isInteger(next) && next >= 0 && (next === 0 || next < ring.length);
			if (!valid || ring.length > window || (ring.length < window && next !== 0)) {
				ring = normalizedRing(ring, valid ? next : 0, window);
				next = 0;
			}
			const index = indexOf(ring);
			if (ring.length < window) {
				ring.push(key);
			} else {
				index.delete(ring[next]);
				ring[next] = key;
				next = (next + 1) % window;
			}
			index.add(key);
			// Assigning the members marks n8n's observable static data as changed, so it is saved.
			staticData[SEEN_KEYS_FIELD] = ring;
			staticData[SEEN_NEXT_FIELD] = next;
		},
	};
}

/** Namespaces kept by this process (one per workflow, node and test/production URL). */
const MAX_NAMESPACES = 1000;
const processMemories = new Map<string, Map<string, number>>();

/** Test and production URLs are separate endpoints: each has its own process memory. */
export function memoryNamespace(workflowId: string | undefined, nodeId: string, executionMode: string): string {
	return JSON.stringify([workflowId ?? '', nodeId, executionMode === 'manual' ? 'test' : 'production']);
}

/** Keys this process accepted for a namespace, oldest first. */
export function processKeys(namespace: string): string[] {
	return [...(processMemories.get(namespace)?.keys() ?? [])];
}

/** The process-local layer for one namespace. */
export function processMemory(namespace: string, window: number): DuplicateMemory {
	let seen = processMemories.get(namespace);
	if (seen === undefined) {
		seen = new Map();
		processMemories.set(namespace, seen);
		if (processMemories.size > MAX_NAMESPACES) {
			const oldest = processMemories.keys().next().value;
			if (oldest !== undefined) processMemories.delete(oldest);
		}
	}
	const map = seen;
	return {
		has: (key) => map.has(key),
		remember(key, nowMs) {
			map.set(key, nowMs);
			while (map.size > window) {
				const oldest = map.keys().next().value;
				if (oldest === undefined) break;
				map.delete(oldest);
			}
		},
	};
}

/** A key seen by any lookup layer is a duplicate; an accepted key goes into `writeTo` only. */
export function layeredMemory(lookups: DuplicateMemory[], writeTo: DuplicateMemory[]): DuplicateMemory {
	return {
		has: (key) => lookups.some((layer) => layer.has(key)),
		remember(key, nowMs) {
			for (const layer of writeTo) layer.remember(key, nowMs);
		},
	};
}
