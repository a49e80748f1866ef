/** quote.estimate: GET /v1/orchestration/estimate, public and without side effects (public-notes.md). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { EstimateRequestSchema } from '../../../shared/orchestration/schemas';
import {
	additionalFieldsOption,
	affiliateIdOption,
	amountField,
	concurrencyOption,
	optionsCollection,
	quoteRouteFields,
	showFor,
	slippageBpsOption,
} from '../../helpers/fields';
import { optionInteger, optionText, optionsOf, text } from '../../helpers/params';
import { assetParam, provisionalAmount, readAmount, resolveQuoteAmount } from '../../helpers/quoteInput';
import { formatQuoteAmounts } from '../../helpers/quoteOutput';
import { orchestrationRequest } from '../../helpers/request';
import { validateRequest, withAdditionalFields } from '../../helpers/validation';
import type { OperationEnv } from '../types';

const show = showFor('quote', ['estimate']);

export const description: INodeProperties[] = [
	...quoteRouteFields(show),
	amountField(show, 'Source amount, or the destination amount with Exact Out'),
	optionsCollection(show, [
		{ ...additionalFieldsOption, description: 'Raw JSON object added to the query, for fields this node does not name. A member the node already sets is refused.' },
		affiliateIdOption,
		concurrencyOption,
		{
			displayName: 'Recipient Address',
			name: 'recipientAddress',
			type: 'string',
			default: '',
			description: 'Destination address, for a more precise estimate',
		},
		slippageBpsOption,
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const options = optionsOf(this, itemIndex);
	const amountMode = text(this, 'amountMode', itemIndex) || 'exact_in';
	const amount = readAmount(this, itemIndex);
	const query: IDataObject = withAdditionalFields(this, itemIndex, options.additionalFields, {
		sourceChain: text(this, 'sourceChain', itemIndex),
		sourceAsset: assetParam(this, 'sourceAsset', itemIndex),
		destinationChain: text(this, 'destinationChain', itemIndex),
		destinationAsset: assetParam(this, 'destinationAsset', itemIndex),
		amount: provisionalAmount(amount),
		amountMode,
		deliveryMode: amountMode === 'exact_in' ? text(this, 'deliveryMode', itemIndex) || undefined : undefined,
		recipientAddress: optionText(this, itemIndex, options, 'recipientAddress'),
		slippageBps: optionInteger(this, itemIndex, options, 'slippageBps'),
		affiliateId: optionText(this, itemIndex, options, 'affiliateId'),
	});
	validateRequest(this, itemIndex, EstimateRequestSchema, query);

	const sides = await resolveQuoteAmount(this, itemIndex, access, amount, query);

	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'GET',
		path: '/v1/orchestration/estimate',
		qs: query,
		itemIndex,
	});
	return formatQuoteAmounts(res.body, sides);
}
