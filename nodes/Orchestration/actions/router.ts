/** The node's execute(): the operation of the chosen resource, run per item. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { concurrencyOf, runItems } from '../../n8n/items';
import { executionPacing } from '../../n8n/pacing';
import { chosenOperation, toolActionsOf } from '../../n8n/toolMode';
import { serviceAccess } from '../transport';
import * as accumulationAddress from './accumulationAddress';
import * as affiliate from './affiliate';
import * as liquidationAddress from './liquidationAddress';
import * as order from './order';
import * as partner from './partner';
import * as payLink from './payLink';
import * as quote from './quote';
import * as route from './route';
import * as standingAddress from './standingAddress';
import type { OperationModule } from './types';
import * as webhook from './webhook';

/** The node's resources, in the order their parameters appear. */
export const resources = {
	quote,
	order,
	route,
	affiliate,
	webhook,
	accumulationAddress,
	liquidationAddress,
	standingAddress,
	payLink,
	partner,
};

/** The Resource dropdown, sorted by name (n8n's convention), shown first. */
export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: Object.values(resources)
		.map((r) => r.resource)
		.sort((a, b) => a.name.localeCompare(b.name)),
	default: 'quote',
};

/** The operations an AI agent runs only with "Allow Actions as AI Tool", labelled as the dropdowns name them. */
export const TOOL_ACTIONS: Record<string, string> = toolActionsOf(resourceProperty, resources);

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const op = chosenOperation<OperationModule>(this, resources, TOOL_ACTIONS);
	if (this.getInputData().length === 0) return [[]];
	// the credential is checked once, before any item sends anything
	await serviceAccess(this);
	const pacing = executionPacing(this);
	const items = await runItems(
		this,
		{
			concurrency: concurrencyOf(this, op.defaultConcurrency),
			onItemDone: () => pacing.itemDone(),
		},
		op.execute,
	);
	pacing.finish();
	return [items];
}
