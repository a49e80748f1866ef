/** order.approveReprice: POST /v1/orchestration/reprice/approve {orderId, approvedMinAmountOut} (public-notes "Re-approvals"). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dropdown, optionsCollection } from '../../../n8n/descriptions';
import { getNodeParameter, textParameter } from '../../../n8n/items';
import { inField, ProtocolError } from '../../../shared/errors';
import {
	decimalToSmallestUnit,
	smallestUnitToDecimal,
} from '../../../shared/orchestration/amounts';
import type { RouteAsset } from '../../../shared/orchestration/responseSchemas';
import { planRepriceApproval, repriceOf } from '../../../shared/orchestration/repricePlan';
import { catalogueFor } from '../../helpers/routes';
import { concurrencyOption, showFor } from '../common.descriptions';
import { orderIdField, orderToAnswer, sendAnswer } from './repriceAnswer';

const show = showFor('order', ['approveReprice']);

/** An action: it lets an order go on at a new price, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	orderIdField(show, 'approved'),
	{
		displayName: 'Approved Minimum Output',
		name: 'approvedMinAmountOut',
		type: 'string',
		default: '',
		placeholder: 'Empty: the proposed minimum',
		description:
			'The least the order may deliver at the new price, in the destination asset. Empty: the minimum the service proposes (reprice.proposedMinAmountOut). Never above the minimum locked before.',
		displayOptions: show,
	},
	dropdown(
		[
			[
				'Decimal',
				'decimal',
				'Human units such as 99.5 USDC, converted exactly with the destination asset decimals',
			],
			[
				'Smallest Unit',
				'smallestUnit',
				'Integer in the smallest unit of the destination asset, as reprice shows it',
			],
		],
		{
			displayName: 'Amount Format',
			name: 'approvedAmountFormat',
			description: 'How the approved minimum is written',
			displayOptions: show,
		},
	),
	optionsCollection(show, [concurrencyOption]),
];

/** The approved minimum in smallest units of the destination asset; undefined leaves the proposed one. */
function approvedAmount(
	ctx: IExecuteFunctions,
	i: number,
	destination: RouteAsset | undefined,
	asset: unknown,
): string | undefined {
	const given = textParameter(ctx, 'approvedMinAmountOut', i);
	if (
		given === '' ||
		getNodeParameter(ctx, 'approvedAmountFormat', i, 'decimal') === 'smallestUnit'
	)
		return given === '' ? undefined : given;
	if (destination === undefined) {
		throw new ProtocolError(
			`the decimals of ${String(asset)} are not in the routes listing; give smallest units`,
			{ field: 'approvedMinAmountOut', reason: 'unknown_decimals' },
		);
	}
	return inField('approvedMinAmountOut', () =>
		decimalToSmallestUnit(given, destination.decimals, destination.id),
	);
}

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const { orderId, order } = await orderToAnswer(this, i);
	const reprice = repriceOf(order) ?? {};
	const listing = await catalogueFor(this, i, false);
	const destination = listing?.find(
		String(order.destinationChain ?? ''),
		String(order.destinationAsset ?? ''),
	);
	const plan = planRepriceApproval(
		orderId,
		reprice,
		approvedAmount(this, i, destination, order.destinationAsset),
	);
	const out = await sendAnswer(this, i, plan, 'approved');
	const figures: IDataObject = {
		approvedMinAmountOut: plan.request.approvedMinAmountOut as string,
		previousLockedMinAmountOut: reprice.previousLockedMinAmountOut ?? null,
	};
	if (destination !== undefined) {
		for (const [name, value] of Object.entries(figures))
			if (typeof value === 'string')
				figures[`${name}Formatted`] = smallestUnitToDecimal(value, destination.decimals);
	}
	return { ...out, ...figures };
}
