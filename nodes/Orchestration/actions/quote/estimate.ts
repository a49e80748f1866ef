/** quote.estimate: GET /v1/orchestration/estimate, public and without side effects (public-notes.md). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { EstimateRequestSchema } from '../../../shared/orchestration/schemas';
import {
	additionalFieldsOption,
	affiliateIdOption,
	amountField,
	amountFormatField,
	amountModeField,
	concurrencyOption,
	deliveryModeField,
	destinationAssetField,
	destinationChainField,
	optionsCollection,
	showFor,
	slippageBpsOption,
	sourceAssetField,
	sourceChainField,
} from '../../helpers/fields';
import { optionInteger, optionText, optionsOf, text } from '../../helpers/params';
import { assetParam, catalogueFor, checkWholeCents, provisionalAmount, readAmount, wireAmount } from '../../helpers/quoteInput';
import { formatQuoteAmounts } from '../../helpers/quoteOutput';
import { orchestrationRequest } from '../../helpers/request';
import { compact, parseAdditionalFields, validateRequest } from '../../helpers/validation';
import type { OperationEnv } from '../types';

const show = showFor('quote', ['estimate']);

export const description: INodeProperties[] = [
	sourceChainField(show),
	sourceAssetField(show),
	destinationChainField(show),
	destinationAssetField(show),
	amountModeField(show),
	deliveryModeField(show),
	amountFormatField(show),
	amountField(show, 'Source amount, or the destination amount with Exact Out'),
	optionsCollection(show, [
		{ ...additionalFieldsOption, description: 'Raw JSON object merged into the query (its members win)' },
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
	const query: IDataObject = compact({
		sourceChain: text(this, 'sourceChain', itemIndex),
		sourceAsset: assetParam(this, 'sourceAsset', itemIndex),
		destinationChain: text(this, 'destinationChain', itemIndex),
		destinationAsset: assetParam(this, 'destinationAsset', itemIndex),
		amount: provisionalAmount(amount),
		amountMode,
		deliveryMode: amountMode === 'exact_in' ? text(this, 'deliveryMode', itemIndex) || undefined : undefined,
		recipientAddress: optionText(options, 'recipientAddress'),
		slippageBps: optionInteger(this, itemIndex, options, 'slippageBps'),
		affiliateId: optionText(options, 'affiliateId'),
		...parseAdditionalFields(this, itemIndex, options.additionalFields),
	});
	validateRequest(this, itemIndex, EstimateRequestSchema, query);

	const catalogue = await catalogueFor(this, access, itemIndex, amount.format === 'decimal');
	const source = catalogue?.find(query.sourceChain as string, query.sourceAsset as string);
	const destination = catalogue?.find(query.destinationChain as string, query.destinationAsset as string);
	const exactOut = query.amountMode === 'exact_out';
	query.amount = wireAmount(
		this,
		itemIndex,
		amount,
		exactOut ? destination : source,
		exactOut ? `${query.destinationChain}:${query.destinationAsset}` : `${query.sourceChain}:${query.sourceAsset}`,
	);
	checkWholeCents(this, itemIndex, query.amount as string, query.amountMode as string, destination);

	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'GET',
		path: '/v1/orchestration/estimate',
		qs: query,
		itemIndex,
	});
	return formatQuoteAmounts(res.body, { catalogue, source, destination });
}
