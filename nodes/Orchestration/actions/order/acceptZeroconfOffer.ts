/** order.acceptZeroconfOffer: POST /v1/orchestration/zeroconf/accept {orderId} (public-notes): the order goes on at once on the offer's instant amount. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { concurrencyOption, showFor } from '../common.descriptions';
import { answerOffer, orderIdField } from './zeroconfAnswer';

const show = showFor('order', ['acceptZeroconfOffer']);

/** An action: it moves funds (answers a ZeroConf offer), so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	orderIdField(show, 'accepted'),
	optionsCollection(show, [concurrencyOption]),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	return await answerOffer(this, i, 'accept');
}
