import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { BinaryOutput } from '../../n8n/binaryOutput';
import type { ItemWithBinary } from '../../n8n/items';
import type { OrchestrationReader } from '../itemReader';
import type { ItemService } from '../itemService';
import type { ServiceAccess } from '../../n8n/orchestrationClient';

/**
 * What every operation gets besides its item, built by the router: the checked credential, the
 * item's way to the service and the output's binary helpers. Operations import these as types
 * only, so an operation's bundle is its own code, its descriptions and the protocol core.
 */
export interface OperationEnv {
	access: ServiceAccess;
	service: ItemService;
	output: BinaryOutput;
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
	/** An action (it moves funds, reveals a secret or changes state): an AI-agent tool runs it only when allowed (toolActionsOf). */
	toolAction?: boolean;
	/** Items in flight when the node sets no "Concurrency" (DEFAULT_CONCURRENCY when absent). */
	defaultConcurrency?: number;
}
