/** Dispatches one node run to the operation of the chosen resource, item by item. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { chosenOperation, processItems } from '../../n8n/items';
import { BinaryOutput } from '../../n8n/binaryOutput';
import { ExecutionPacing } from '../../n8n/pacing';
import { concurrencyOf } from '../../n8n/batchOptions';
import { OrchestrationReader } from '../itemReader';
import { ItemService } from '../itemService';
import { asAuthentication, serviceAccess } from '../service';
import * as accumulationAddress from './accumulationAddress';
import * as affiliate from './affiliate';
import * as liquidationAddress from './liquidationAddress';
import * as order from './order';
import * as quote from './quote';
import * as route from './route';
import * as standingAddress from './standingAddress';
import type { OperationModule } from './types';
import * as webhook from './webhook';

export const resources: Record<string, Record<string, OperationModule>> = {
	accumulationAddress: accumulationAddress.operations,
	affiliate: affiliate.operations,
	liquidationAddress: liquidationAddress.operations,
	order: order.operations,
	quote: quote.operations,
	route: route.operations,
	standingAddress: standingAddress.operations,
	webhook: webhook.operations,
};

/** Operations an AI agent may run only with "Allow Actions as AI Tool": they move funds or register a webhook and show its secret. */
export const TOOL_ACTIONS: Record<string, string> = {
	'order.submit': 'Order > Submit',
	'order.createOnramp': 'Order > Create Onramp',
	'webhook.create': 'Webhook > Create',
	// Issue 20: every POST is an action (test/integration/orchestration/toolMode.test.ts checks all
	// operations); a quote fixes the recipient and fees the deposit pays, reindex and sync change state.
	'quote.create': 'Quote > Create',
	'quote.createOfframp': 'Quote > Create Offramp',
	'accumulationAddress.reindex': 'Accumulation Address (Deprecated) > Reindex',
	'accumulationAddress.sync': 'Accumulation Address (Deprecated) > Sync',
	'affiliate.claim': 'Affiliate > Claim',
	'affiliate.upsert': 'Affiliate > Create or Update',
	'affiliate.disable': 'Affiliate > Disable',
	'standingAddress.createOrGet': 'Standing Deposit Address > Create or Get',
	'standingAddress.pause': 'Standing Deposit Address > Pause',
	'standingAddress.resume': 'Standing Deposit Address > Resume',
	'webhook.delete': 'Webhook > Delete',
	'order.acceptZeroconfOffer': 'Order > Accept ZeroConf Offer',
	'order.declineZeroconfOffer': 'Order > Decline ZeroConf Offer',
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const op = chosenOperation(this, resources, TOOL_ACTIONS);
	if (this.getInputData().length === 0) return [[]];
	const pacing = new ExecutionPacing(this, this.getInputData().length);
	const access = { ...(await serviceAccess(this, asAuthentication(this.getNodeParameter('authentication', 0)))), pacing };
	const output = new BinaryOutput(this);
	const items = await processItems(this, concurrencyOf(this, op.defaultConcurrency), async (itemIndex) => {
		try {
			const read = new OrchestrationReader(this, itemIndex);
			return await op.execute.call(this, read, { access, service: new ItemService(read, access), output });
		} finally {
			pacing.itemDone();
		}
	});
	pacing.finish();
	return [items];
}
