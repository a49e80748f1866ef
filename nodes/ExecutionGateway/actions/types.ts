import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** One operation: runs for one input item and returns its output object. */
export type OperationExecute = (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject>;

/** An operation module: its parameters next to its code (as in the Orchestration node). */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
}
