/** order.declineZeroconfOffer: POST /v1/orchestration/zeroconf/decline {orderId, reason?} (public-notes): the order waits for one on-chain confirmation. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { DECLINE_REASON_MAX_LENGTH } from '../../../shared/orchestration/zeroconfPlan';
import { concurrencyOption, showFor } from '../common.descriptions';
import { answerOffer, orderIdField } from './zeroconfAnswer';

const show = showFor('order', ['declineZeroconfOffer']);

/** An action: it changes how an order is paid (answers a ZeroConf offer), so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	orderIdField(show, 'declined'),
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'string',
		default: '',
		description: `Why the offer is declined, for the service's records (optional, at most ${DECLINE_REASON_MAX_LENGTH} characters)`,
		displayOptions: show,
	},
	optionsCollection(show, [concurrencyOption]),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	return await answerOffer(this, i, 'decline');
}
