import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ServiceAccess } from '../helpers/access';

/** What every operation gets besides its item: the checked credential. */
export interface OperationEnv {
	access: ServiceAccess;
}

/** One operation: runs for one input item and returns one output object or several. */
export type OperationExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
	env: OperationEnv,
) => Promise<IDataObject | IDataObject[]>;

/** An operation module: its parameters next to its code. */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
}
