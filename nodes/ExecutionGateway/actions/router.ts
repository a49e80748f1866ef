/** Dispatches one node run to the operation of the chosen resource, item by item. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { concurrencyOf } from '../../n8n/batchOptions';
import { chosenOperation, ItemReader, processItems } from '../../n8n/items';
import { GATEWAY_FIELDS } from '../gateway';
import * as intent from './intent';
import * as network from './network';
import type { OperationModule } from './types';
import { resourceProperty } from './resourceProperty';
import { toolActionsOf } from '../../n8n/toolMode';

/** Each resource's module: its parameters (the Operation dropdown first) and its operations. */
const resourceModules = { intent, network };

export const resources: Record<string, Record<string, OperationModule>> = Object.fromEntries(
	Object.entries(resourceModules).map(([resource, { operations }]) => [resource, operations]),
);

/** Operations an AI agent may run only with "Allow Actions as AI Tool": each declares `toolAction` (it moves funds). */
export const TOOL_ACTIONS: Record<string, string> = toolActionsOf(resourceProperty, resourceModules);

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const op = chosenOperation(this, resources, TOOL_ACTIONS);
	return [
		// GATEWAY_FIELDS: a core error names the parameter and carries the gateway's admission code for the same mistake.
		await processItems(this, concurrencyOf(this), async (itemIndex) => await op.execute.call(this, new ItemReader(this, itemIndex)), GATEWAY_FIELDS),
	];
}
