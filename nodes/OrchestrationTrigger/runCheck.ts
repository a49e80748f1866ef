/**
 * The trigger's duplicate check, made when a run starts (spec §6: process idempotently; answer 2xx
 * only once the event is persisted). webhook() remembers nothing: n8n answers the service only after
 * it created the execution (and, in queue mode, enqueued it), so an event is recorded only by a run
 * that exists. The check uses n8n's processed-data store (table `processed_data`, scope `node`), the
 * one store every n8n process shares, in every mode but manual (a test URL serves one request).
 *
 * Each delivery carries its own id (`delivery.deliveryId`, drawn by webhook()). A run records the
 * event's key and its delivery's owner mark in one call: the run that recorded the key first owns the
 * event. A retry of a crashed execution (n8n's Retry, mode `retry`, the same input item) finds its own
 * owner mark and runs downstream; a copy's run, or its retry, finds the key without its mark and
 * outputs nothing (docs/trigger-queue-mode.md).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import {
	DEFAULT_DEDUPLICATION_WINDOW,
	MAX_DEDUPLICATION_WINDOW,
	type TriggerOptions,
} from './description';
import { formattingAssets, outputItem } from './output';

export function windowOf(value: unknown): number {
	const n = Math.trunc(Number(value));
	if (!Number.isFinite(n) || n < 1) return DEFAULT_DEDUPLICATION_WINDOW;
	return Math.min(n, MAX_DEDUPLICATION_WINDOW);
}

/** What the run looks up for one delivery: the event (or, without deduplication, the signed request) and its owner mark. */
export interface RunKeys {
	check: string;
	owner: string;
}

export function runKeysOf(
	delivery: IDataObject | undefined,
	deduplicate: boolean,
): RunKeys | undefined {
	const check = deduplicate ? delivery?.duplicateKey : delivery?.replayKey;
	const id = delivery?.deliveryId;
	if (typeof check !== 'string' || check === '' || typeof id !== 'string' || id === '')
		return undefined;
	return { check, owner: `own:${id}` };
}

export type RunDecision = 'run' | 'drop';

type Store = Pick<IExecuteFunctions['helpers'], 'checkProcessedAndRecord' | 'removeProcessed'>;

let storeTurn: Promise<unknown> = Promise.resolve();

/** n8n's store reads, then rewrites the whole list: concurrent calls of one process would drop each other's keys. */
function oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
	const turn = storeTurn.then(fn, fn);
	storeTurn = turn.catch(() => undefined);
	return turn;
}

interface PendingCheck {
	store: Store;
	keys: RunKeys;
	window: number;
	resolve: (decision: RunDecision) => void;
	reject: (error: unknown) => void;
}

/** Checks waiting for their turn, per node: the turn takes them all in one read and write of n8n's list. */
const pendingByNode = new Map<string, PendingCheck[]>();

/**
 * The decisions of one batch, in order. Per event key: a request whose own owner mark was stored
 * runs (a retry of the owner); otherwise a key already stored drops them all; otherwise the first
 * request of the batch owns the event and the others are its copies.
 */
export function decideBatch(batch: RunKeys[], processed: ReadonlySet<string>): RunDecision[] {
	const owned = new Set(batch.filter((k) => processed.has(k.owner)).map((k) => k.check));
	const taken = new Set<string>();
	return batch.map((k) => {
		if (processed.has(k.owner)) return 'run';
		if (owned.has(k.check) || processed.has(k.check) || taken.has(k.check)) return 'drop';
		taken.add(k.check);
		return 'run';
	});
}

async function flush(node: string): Promise<void> {
	const batch = pendingByNode.get(node) ?? [];
	pendingByNode.delete(node);
	if (batch.length === 0) return;
	const { store } = batch[0];
	const options = {
		mode: 'entries' as const,
		maxEntries: 2 * Math.max(...batch.map((p) => p.window)),
	};
	try {
		// n8n's helper does not see a value twice within one call: each event key goes in once.
		const items = [...new Set(batch.flatMap((p) => [p.keys.owner, p.keys.check]))];
		const { processed } = await store.checkProcessedAndRecord(items, 'node', options);
		const decisions = decideBatch(
			batch.map((p) => p.keys),
			new Set(processed.map(String)),
		);
		const copies = batch.filter((_, i) => decisions[i] === 'drop').map((p) => p.keys.owner);
		if (copies.length > 0) await store.removeProcessed(copies, 'node', options);
		batch.forEach((p, i) => p.resolve(decisions[i]));
	} catch (error) {
		for (const p of batch) p.reject(error);
	}
}

/**
 * One check-and-record (and the undo of copies' marks). Checks of one node that wait for the turn
 * are taken together: one read and one write of n8n's list for all of them (group commit), so the
 * store's cost per run falls as the load rises.
 */
export async function checkInStore(
	store: Store,
	keys: RunKeys,
	window: number,
	node = '',
): Promise<RunDecision> {
	return await new Promise<RunDecision>((resolve, reject) => {
		const pending = pendingByNode.get(node);
		if (pending !== undefined) {
			pending.push({ store, keys, window, resolve, reject });
			return;
		}
		pendingByNode.set(node, [{ store, keys, window, resolve, reject }]);
		void oneAtATime(async () => await flush(node));
	});
}

/**
 * Keys whose run started in this process, for webhook() of the same process (single mode: one
 * process does both): a later copy is answered 200 without an execution. Only runs write it.
 */
const MAX_STARTED_RUNS = 20_000;
const startedRunsByNamespace = new Map<string, Map<string, number>>();

/** 'event': duplicate keys (deduplication on); 'request': signed requests (replay keys, always). */
export function runCheckNamespace(
	workflowId: string | undefined,
	nodeId: string,
	kind: 'event' | 'request',
): string {
	return JSON.stringify([workflowId ?? '', nodeId, kind]);
}

function startedRunsOf(namespace: string): Map<string, number> {
	let map = startedRunsByNamespace.get(namespace);
	if (map === undefined) {
		map = new Map();
		startedRunsByNamespace.set(namespace, map);
		if (startedRunsByNamespace.size > 200)
			startedRunsByNamespace.delete(startedRunsByNamespace.keys().next().value as string);
	}
	return map;
}

export function markRunStarted(namespace: string, key: string, nowMs: number): void {
	const map = startedRunsOf(namespace);
	map.delete(key);
	map.set(key, nowMs);
	if (map.size > MAX_STARTED_RUNS) map.delete(map.keys().next().value as string);
}

/** Whether a run of this process started for `key` within `horizonMs`. */
export function runStartedFor(
	namespace: string,
	key: string,
	nowMs: number,
	horizonMs: number,
): boolean {
	const at = startedRunsByNamespace.get(namespace)?.get(key);
	return at !== undefined && nowMs - at <= horizonMs;
}

function deliveryOf(item: INodeExecutionData): IDataObject | undefined {
	return item.json.delivery as IDataObject | undefined;
}

async function keepOwned(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	options: TriggerOptions,
): Promise<INodeExecutionData[]> {
	if (ctx.getMode() === 'manual') return items;
	const deduplicate = options.deduplicate !== false;
	const events = runCheckNamespace(ctx.getWorkflow().id, ctx.getNode().id, 'event');
	const requests = runCheckNamespace(ctx.getWorkflow().id, ctx.getNode().id, 'request');
	const kept: INodeExecutionData[] = [];
	for (const item of items) {
		const keys = runKeysOf(deliveryOf(item), deduplicate);
		// An item without its keys (a pinned or hand-made item) is not a delivery: it runs.
		if (keys === undefined) {
			kept.push(item);
			continue;
		}
		// A store that fails fails the run: the execution stays, visible and retryable; never a blind second run.
		const decision = await checkInStore(
			ctx.helpers,
			keys,
			windowOf(options.deduplicationWindow),
			events,
		);
		const replayKey = deliveryOf(item)?.replayKey;
		if (deduplicate) markRunStarted(events, keys.check, Date.now());
		if (typeof replayKey === 'string') markRunStarted(requests, replayKey, Date.now());
		if (decision === 'run') kept.push(item);
	}
	return kept;
}

/** execute(): the first step of every run webhook() started; writes no static data. */
export async function keepOwnedAndShape(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', 0, {}) as TriggerOptions;
	const items = await keepOwned(this, this.getInputData(), options);
	const assets =
		options.onlyData === true || items.length === 0 ? undefined : await formattingAssets(this);
	return items.map((item, index) => outputItem(item, index, options.onlyData === true, assets));
}
