/**
 * The trigger's execute(), the first step of every run its webhook() started. It writes no static
 * data: webhook() remembered the delivery and n8n saved that before the run (the request answers
 * itself). A queue-mode worker runs with EMPTY static data and would save whatever the run wrote over
 * the workflow's (registration included). There it asks n8n's processed-data store, the second line
 * for a copy that passed another process during a concurrent save (see docs/trigger-queue-mode.md).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { TriggerOptions } from './description';
import { formattingAssets, outputItem } from './output';
import { isStoredStaticData } from './registration';

interface DeliveryMeta {
	duplicateKey?: unknown;
}

function metaOf(item: INodeExecutionData): DeliveryMeta {
	return (item.json.delivery as IDataObject | undefined) ?? {};
}

/**
 * Keys n8n's store keeps for this node. It only has to catch a copy that passed the door while a
 * concurrent save of another process dropped its key (seconds): the webhook processes' memory holds
 * the whole retry horizon. n8n reads and rewrites the whole list per run (27 bytes a key), so 2,000
 * (about 30 minutes of 100,000 events a day) and not the 100,000 of that memory (2.7 MB per run).
 */
export const WORKER_STORE_ENTRIES = 2_000;

let storeTurn: Promise<unknown> = Promise.resolve();

/** n8n's store reads, then rewrites the whole key list: concurrent runs on one worker would drop each other's keys. */
function oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
	const turn = storeTurn.then(fn, fn);
	storeTurn = turn.catch(() => undefined);
	return turn;
}

/** On a queue-mode worker (no stored static data): n8n's processed-data store, shared by all processes. */
async function dropProcessed(ctx: IExecuteFunctions, items: INodeExecutionData[], options: TriggerOptions): Promise<INodeExecutionData[]> {
	if (options.deduplicate === false || ctx.getMode() === 'manual' || isStoredStaticData(ctx.getWorkflowStaticData('node'))) return items;
	const keys = items.map((item) => metaOf(item).duplicateKey).filter((k): k is string => typeof k === 'string');
	if (keys.length !== items.length || typeof ctx.helpers.checkProcessedAndRecord !== 'function') return items;
	try {
		const store = ctx.helpers.checkProcessedAndRecord.bind(ctx.helpers);
		const { processed } = await oneAtATime(() => store(keys, 'node', { mode: 'entries', maxEntries: WORKER_STORE_ENTRIES }));
		const seen = new Set(processed.map(String));
		return items.filter((item) => !seen.has(metaOf(item).duplicateKey as string));
	} catch (error) {
		// Availability first: the delivery was verified; a duplicate run is what the store was to prevent.
		ctx.logger.warn('Orchestration Trigger could not use n8n\'s processed-data store', { reason: (error as Error).message });
		return items;
	}
}

export async function dropDuplicatesAndShape(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', 0, {}) as TriggerOptions;
	const items = await dropProcessed(this, this.getInputData(), options);
	const assets = options.onlyData === true || items.length === 0 ? undefined : await formattingAssets(this);
	return items.map((item, index) => outputItem(item, index, options.onlyData === true, assets));
}
