/** The node's execute(): the operation of the chosen resource, run per item. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { concurrencyOf, runItems } from '../../n8n/items';
import { chosenOperation, toolActionsOf } from '../../n8n/toolMode';
import { GATEWAY_FIELDS } from '../helpers/gateway';
import * as intent from './intent';
import * as network from './network';
import type { OperationModule } from './types';

/** The node's resources, in the order their parameters appear. */
export const resources = { intent, network };

/** The Resource dropdown, sorted by name (n8n's convention), shown first. */
export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: Object.values(resources)
		.map((r) => r.resource)
		.sort((a, b) => a.name.localeCompare(b.name)),
	default: 'intent',
};

/** The operations an AI agent runs only with "Allow Actions as AI Tool" (they move funds). */
export const TOOL_ACTIONS: Record<string, string> = toolActionsOf(resourceProperty, resources);

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const op = chosenOperation<OperationModule>(this, resources, TOOL_ACTIONS);
	// GATEWAY_FIELDS: a core error names the parameter and carries the gateway's admission code for the same mistake.
	return [
		await runItems(this, { concurrency: concurrencyOf(this), naming: GATEWAY_FIELDS }, op.execute),
	];
}
