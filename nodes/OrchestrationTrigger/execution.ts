/**
 * The trigger's execute(), the first step of every run its webhook() started. n8n 2.41.1 does not
 * save what webhook() wrote to static data once a run starts (WorkflowRunner.run builds a second
 * Workflow on the same static data object for establishExecutionContext, which resets its change
 * flag), so the run remembers the accepted delivery: in single mode the run's static data is the
 * workflow's, read when the run starts, and saved when it ends. A queue-mode worker runs with
 * EMPTY static data and saves whatever the run wrote over the workflow's (registration included):
 * there the run writes nothing, and asks n8n's processed-data store instead (see docs).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { DEFAULT_MEMORY_BOUND } from '../shared/orchestration/deliveryMemory';
import { memoriesOf } from './memories';
import type { TriggerOptions } from './description';
import { outputItem } from './output';
import { isStoredStaticData } from './registration';

interface DeliveryMeta {
	duplicateKey?: unknown;
	signature?: unknown;
}

function metaOf(item: INodeExecutionData): DeliveryMeta {
	return (item.json.delivery as IDataObject | undefined) ?? {};
}

/** Remembers each accepted delivery in the run's static data when it is the workflow's own. */
function rememberInRun(ctx: IExecuteFunctions, items: INodeExecutionData[], options: TriggerOptions): void {
	const staticData = ctx.getWorkflowStaticData('node');
	if (ctx.getMode() === 'manual' || !isStoredStaticData(staticData)) return;
	const memories = memoriesOf(ctx, staticData, options, Date.now());
	for (const item of items) {
		const { duplicateKey } = metaOf(item);
		if (typeof duplicateKey === 'string') memories.duplicates?.store(duplicateKey);
	}
	// The run does not know the signatures; it saves the replay memory this process holds.
	memories.replays.flush();
}

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
		const { processed } = await oneAtATime(() => store(keys, 'node', { mode: 'entries', maxEntries: DEFAULT_MEMORY_BOUND }));
		const seen = new Set(processed.map(String));
		return items.filter((item) => !seen.has(metaOf(item).duplicateKey as string));
	} catch (error) {
		// Availability first: the delivery was verified; a duplicate run is what the store was to prevent.
		ctx.logger.warn('Orchestration Trigger could not use n8n\'s processed-data store', { reason: (error as Error).message });
		return items;
	}
}

export async function rememberAndShape(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', 0, {}) as TriggerOptions;
	const items = await dropProcessed(this, this.getInputData(), options);
	rememberInRun(this, items, options);
	return items.map((item, index) => outputItem(item, index, options.onlyData === true));
}
