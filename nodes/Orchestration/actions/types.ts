import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ItemWithBinary } from '../../n8n/items';
import type { OrchestrationReader } from '../itemReader';
import type { ServiceAccess } from '../service';

/** What every operation gets besides its item: the checked credential. */
export interface OperationEnv {
	access: ServiceAccess;
}

/** One operation: reads its item once (read), plans, sends, shapes; one output object or several. */
export type OperationExecute = (
	this: IExecuteFunctions,
	read: OrchestrationReader,
	env: OperationEnv,
) => Promise<IDataObject | IDataObject[] | ItemWithBinary>;

/** An operation module: its parameters next to its code. */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
	/** Items in flight when the node sets no "Concurrency" (DEFAULT_CONCURRENCY when absent). */
	defaultConcurrency?: number;
}
