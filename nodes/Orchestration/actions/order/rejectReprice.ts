/** order.rejectReprice: POST /v1/orchestration/reprice/reject {orderId, reason?} (public-notes "Re-approvals"): the order fails. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { textParameter } from '../../../n8n/items';
import { planRepriceReject } from '../../../shared/orchestration/repricePlan';
import { concurrencyOption, showFor } from '../common.descriptions';
import { orderIdField, orderToAnswer, reasonField, sendAnswer } from './repriceAnswer';

const show = showFor('order', ['rejectReprice']);

/** An action: it fails an order, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	orderIdField(show, 'rejected (the order fails)'),
	reasonField(show),
	optionsCollection(show, [concurrencyOption]),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const { orderId } = await orderToAnswer(this, i);
	return await sendAnswer(
		this,
		i,
		planRepriceReject(orderId, textParameter(this, 'reason', i)),
		'rejected',
	);
}
