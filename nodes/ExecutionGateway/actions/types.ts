import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** One operation's code for one item: its parameters read with `i`, its requests through gatewayApiRequest. */
export type OperationExecute = (this: IExecuteFunctions, i: number) => Promise<IDataObject>;

/** An operation module: its parameters next to its code (as in the Orchestration node). */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
	/** It moves funds: an AI-agent tool runs it only when allowed. */
	toolAction?: boolean;
}
