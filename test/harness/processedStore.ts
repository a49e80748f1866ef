/**
 * n8n's processed-data store for in-process tests: the entries mode of n8n 2.41's DeduplicationHelper
 * (packages/cli/src/deduplication/deduplication-helper.ts) over a Map instead of the `processed_data`
 * table: MD5 base64 of each value, one list per (workflow, context), read, compare, append, trim to
 * maxEntries, write back; with an await between the read and the write, as the database has (so a test
 * sees the lost update n8n's store allows). The real store is exercised by the e2e suites.
 */
import { createHash } from 'node:crypto';
import type { DeduplicationItemTypes, DeduplicationScope, ICheckProcessedContextData, ICheckProcessedOptions, IDataDeduplicator, IDeduplicationOutput } from 'n8n-workflow';
import { core } from './n8n';

const rows = new Map<string, string[]>();

const hash = (value: DeduplicationItemTypes) => createHash('md5').update(String(value)).digest('base64');
const rowKey = (scope: DeduplicationScope, ctx: ICheckProcessedContextData) =>
	`${ctx.workflow.id}|${scope === 'node' ? `n:${ctx.node?.id ?? ''}` : ''}`;
const tick = () => new Promise<void>((r) => setImmediate(r));

class MemoryDeduplicator implements IDataDeduplicator {
	async checkProcessedAndRecord(items: DeduplicationItemTypes[], scope: DeduplicationScope, ctx: ICheckProcessedContextData, options: ICheckProcessedOptions): Promise<IDeduplicationOutput> {
		calls++;
		if (failures > 0) {
			failures--;
			throw new Error('processed-data store unavailable');
		}
		const key = rowKey(scope, ctx);
		const stored = rows.get(key);
		const list = stored ? [...stored] : [];
		await tick();
		const seen = new Set(list);
		const out: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const h = hash(item);
			if (seen.has(h)) out.processed.push(item);
			else {
				out.new.push(item);
				list.push(h);
				seen.add(h);
			}
		}
		if (options.maxEntries) list.splice(0, Math.max(0, list.length - options.maxEntries));
		rows.set(key, list);
		return out;
	}

	async removeProcessed(items: DeduplicationItemTypes[], scope: DeduplicationScope, ctx: ICheckProcessedContextData): Promise<void> {
		const key = rowKey(scope, ctx);
		const drop = new Set(items.map(hash));
		const list = rows.get(key) ?? [];
		await tick();
		rows.set(key, list.filter((h) => !drop.has(h)));
	}

	async clearAllProcessedItems(scope: DeduplicationScope, ctx: ICheckProcessedContextData): Promise<void> {
		rows.delete(rowKey(scope, ctx));
	}

	async getProcessedDataCount(scope: DeduplicationScope, ctx: ICheckProcessedContextData): Promise<number> {
		return rows.get(rowKey(scope, ctx))?.length ?? 0;
	}
}

let ready: Promise<void> | undefined;

/** Gives n8n-core's helpers (checkProcessedAndRecord, removeProcessed) the in-memory store, once per process. */
export function useMemoryProcessedStore(): Promise<void> {
	ready ??= core.DataDeduplicationService.init(new MemoryDeduplicator());
	return ready;
}

/** Entries stored for one workflow's node (hashes), for assertions. */
export function storedEntries(workflowId: string, nodeId: string): number {
	return rows.get(`${workflowId}|n:${nodeId}`)?.length ?? 0;
}

let failures = 0;
/** The next call to the store throws, as n8n's does when its database refuses. */
export function failNextStoreCall(): void {
	failures++;
}

let calls = 0;
/** Calls of checkProcessedAndRecord so far (each one read and one write of the list in n8n). */
export function storeCalls(): number {
	return calls;
}
