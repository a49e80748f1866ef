import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ItemResult } from '../../n8n/items';

/** One operation's code for one item: its parameters read with `i`, its requests through orchestrationApiRequest. */
export type OperationExecute = (this: IExecuteFunctions, i: number) => Promise<ItemResult>;

/** An operation module: its parameters next to its code. */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
	/** It moves funds, reveals a secret or changes state: an AI-agent tool runs it only when allowed. */
	toolAction?: boolean;
	/** Items in flight when the node sets no "Concurrency" (DEFAULT_CONCURRENCY when absent). */
	defaultConcurrency?: number;
}
