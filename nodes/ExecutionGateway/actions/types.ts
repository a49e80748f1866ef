import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ItemReader } from '../../n8n/items';

/** One operation: runs for one input item, read through its ItemReader; returns its output object. */
export type OperationExecute = (this: IExecuteFunctions, read: ItemReader) => Promise<IDataObject>;

/** An operation module: its parameters next to its code (as in the Orchestration node). */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
	/** An action (it moves funds, reveals a secret or changes state): an AI-agent tool runs it only when allowed (toolActionsOf). */
	toolAction?: boolean;
}
