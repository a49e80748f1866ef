/**
 * quote.createOfframp: an exact-in, variable quote paying lightning:BTC to a payment-app $username
 * or a Lightning address (orchestration-service.md §1, §4.2; path per public-notes.md).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { OfframpRequestSchema } from '../../../shared/orchestration/schemas';
import { idempotencyKeyFor } from '../../../transport/idempotency';
import {
	additionalFieldsOption,
	affiliateIdOption,
	amountField,
	amountFormatField,
	concurrencyOption,
	idempotencyKeyOption,
	optionsCollection,
	recipientAddressField,
	refundAddressOption,
	showFor,
	slippageBpsOption,
	sourceAssetField,
	sourceChainField,
} from '../../helpers/fields';
import { optionInteger, optionText, optionsOf, text } from '../../helpers/params';
import {
	assertNoClientFeeFields,
	assetParam,
	catalogueFor,
	explicitIdempotencyKey,
	provisionalAmount,
	readAmount,
	wireAmount,
} from '../../helpers/quoteInput';
import { quoteOutput } from '../../helpers/quoteOutput';
import { OFFRAMP_DESTINATION } from '../../helpers/routes';
import { orchestrationRequest } from '../../helpers/request';
import { validateRequest, withAdditionalFields } from '../../helpers/validation';
import type { OperationEnv } from '../types';

const show = showFor('quote', ['createOfframp']);

export const description: INodeProperties[] = [
	sourceChainField(show, 'getOfframpSourceChains'),
	sourceAssetField(show, 'getOfframpSourceAssets'),
	...amountFormatField(show),
	amountField(show, 'Amount paid in, in the source asset (an offramp is always Exact In)'),
	recipientAddressField(
		show,
		'A payment-app $username or a Lightning address (name@domain). The recipient is resolved at delivery time.',
	),
	optionsCollection(show, [
		additionalFieldsOption,
		affiliateIdOption,
		concurrencyOption,
		idempotencyKeyOption,
		refundAddressOption,
		slippageBpsOption,
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const options = optionsOf(this, itemIndex);
	const amount = readAmount(this, itemIndex);
	const body: IDataObject = withAdditionalFields(this, itemIndex, options.additionalFields, {
		sourceChain: text(this, 'sourceChain', itemIndex),
		sourceAsset: assetParam(this, 'sourceAsset', itemIndex),
		amount: provisionalAmount(amount),
		recipientAddress: text(this, 'recipientAddress', itemIndex),
		refundAddress: optionText(this, itemIndex, options, 'refundAddress'),
		slippageBps: optionInteger(this, itemIndex, options, 'slippageBps'),
		affiliateId: optionText(this, itemIndex, options, 'affiliateId'),
	});
	validateRequest(this, itemIndex, OfframpRequestSchema, body);
	assertNoClientFeeFields(this, itemIndex, access, body);
	const explicitKey = explicitIdempotencyKey(this, itemIndex, options);

	const catalogue = await catalogueFor(this, access, itemIndex, amount.format === 'decimal');
	const source = catalogue?.find(body.sourceChain as string, body.sourceAsset as string);
	const destination = catalogue?.byRoutingKey(OFFRAMP_DESTINATION);
	body.amount = wireAmount(this, itemIndex, amount, source, `${body.sourceChain}:${body.sourceAsset}`);

	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'POST',
		path: '/v1/orchestration/offramp',
		body,
		idempotencyKey: idempotencyKeyFor(this, itemIndex, 'quote.createOfframp', body, explicitKey),
		itemIndex,
		requiredScope: 'orders:quote',
	});
	return quoteOutput(res.body, { catalogue, source, destination });
}
