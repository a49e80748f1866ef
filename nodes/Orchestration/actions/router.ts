/** Dispatches one node run to the operation of the chosen resource, item by item. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { chosenOperation, processItems } from '../../n8n/items';
import { ExecutionPacing } from '../../n8n/pacing';
import { concurrencyOf } from '../../n8n/batchOptions';
import { OrchestrationReader } from '../itemReader';
import { asAuthentication, serviceAccess } from '../../n8n/orchestrationClient';
import * as accumulationAddress from './accumulationAddress';
import * as affiliate from './affiliate';
import * as liquidationAddress from './liquidationAddress';
import * as order from './order';
import * as quote from './quote';
import * as route from './route';
import * as standingAddress from './standingAddress';
import type { OperationModule } from './types';
import * as webhook from './webhook';
import { resourceProperty } from './resourceProperty';
import { toolActionsOf } from '../../n8n/toolMode';

/** Each resource's module: its parameters (the Operation dropdown first) and its operations. */
const resourceModules = { accumulationAddress, affiliate, liquidationAddress, order, quote, route, standingAddress, webhook };

export const resources: Record<string, Record<string, OperationModule>> = Object.fromEntries(
	Object.entries(resourceModules).map(([resource, { operations }]) => [resource, operations]),
);

/**
 * Operations an AI agent may run only with "Allow Actions as AI Tool": each declares `toolAction`
 * (it moves funds, fixes where a deposit goes, registers or removes a webhook and shows its secret,
 * or changes state). Every POST is one (test/integration/orchestration/toolMode.test.ts).
 */
export const TOOL_ACTIONS: Record<string, string> = toolActionsOf(resourceProperty, resourceModules);

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const op = chosenOperation(this, resources, TOOL_ACTIONS);
	if (this.getInputData().length === 0) return [[]];
	const pacing = new ExecutionPacing(this, this.getInputData().length);
	const access = { ...(await serviceAccess(this, asAuthentication(this.getNodeParameter('authentication', 0)))), pacing };
	const items = await processItems(this, concurrencyOf(this, op.defaultConcurrency), async (itemIndex) => {
		try {
			return await op.execute.call(this, new OrchestrationReader(this, itemIndex), access);
		} finally {
			pacing.itemDone();
		}
	});
	pacing.finish();
	return [items];
}
