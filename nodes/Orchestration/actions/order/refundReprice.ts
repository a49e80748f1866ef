/** order.refundReprice: POST /v1/orchestration/reprice/refund {orderId, reason?, refundAddress?} (public-notes "Re-approvals"): Bitcoin-source orders only. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { textParameter } from '../../../n8n/items';
import { planRepriceRefund } from '../../../shared/orchestration/repricePlan';
import { concurrencyOption, showFor } from '../common.descriptions';
import { orderIdField, orderToAnswer, reasonField, sendAnswer } from './repriceAnswer';

const show = showFor('order', ['refundReprice']);

/** An action: it sends a deposit back, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	orderIdField(show, 'refused, its deposit refunded (Bitcoin-source orders only)'),
	{
		displayName: 'Refund Address',
		name: 'refundAddress',
		type: 'string',
		default: '',
		placeholder: 'Empty: the refund address of the quote',
		description:
			"A Bitcoin address for the refund. Empty: the service refunds to the quote's refund address.",
		displayOptions: show,
	},
	reasonField(show),
	optionsCollection(show, [concurrencyOption]),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const { orderId, order } = await orderToAnswer(this, i);
	const plan = planRepriceRefund(
		orderId,
		order.sourceChain,
		textParameter(this, 'refundAddress', i),
		textParameter(this, 'reason', i),
	);
	return await sendAnswer(this, i, plan, 'refund requested');
}
