import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ItemWithBinary } from '../../n8n/items';
import type { ServiceAccess } from '../../n8n/orchestrationClient';
import type { OrchestrationReader } from '../itemReader';

/**
 * One operation: reads its item once (read), plans, sends through the Orchestration client with the
 * node run's checked credential (access), shapes; one output object or several.
 */
export type OperationExecute = (
	this: IExecuteFunctions,
	read: OrchestrationReader,
	access: ServiceAccess,
) => Promise<IDataObject | IDataObject[] | ItemWithBinary>;

/** An operation module: its parameters next to its code. */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
	/** An action (it moves funds, reveals a secret or changes state): an AI-agent tool runs it only when allowed (toolActionsOf). */
	toolAction?: boolean;
	/** Items in flight when the node sets no "Concurrency" (DEFAULT_CONCURRENCY when absent). */
	defaultConcurrency?: number;
}
