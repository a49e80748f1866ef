/**
 * quote.createOfframp: an exact-in, variable quote paying lightning:BTC to a payment-app $username
 * or a Lightning address (orchestration-service.md §1, §4.2; path per public-notes.md).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { planQuote, requestWithAmount, smallestUnitAmount, type QuoteInput } from '../../../shared/orchestration/quotePlan';
import { OfframpDraftSchema } from '../../../shared/orchestration/schemas';
import { idempotencyKeyFor } from '../../helpers/request';
import { planned } from '../../../transport/nodeErrors';
import type { ServiceAccess } from '../../helpers/access';
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
import { assetParam, catalogueFor, readAmount } from '../../helpers/quoteInput';
import { quoteOutput } from '../../helpers/quoteOutput';
import { OFFRAMP_DESTINATION } from '../../helpers/routes';
import { orchestrationRequest } from '../../helpers/request';
import { parseAdditionalFields } from '../../helpers/validation';
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

/** The item's offramp request, read once; checked by planQuote against the offramp's draft schema. */
function readOfframpInput(ctx: IExecuteFunctions, itemIndex: number, access: ServiceAccess): QuoteInput {
	const options = optionsOf(ctx, itemIndex);
	const amount = readAmount(ctx, itemIndex);
	const request = {
		sourceChain: text(ctx, 'sourceChain', itemIndex),
		sourceAsset: assetParam(ctx, 'sourceAsset', itemIndex),
		recipientAddress: text(ctx, 'recipientAddress', itemIndex),
		refundAddress: optionText(ctx, itemIndex, options, 'refundAddress'),
		slippageBps: optionInteger(ctx, itemIndex, options, 'slippageBps'),
		affiliateId: optionText(ctx, itemIndex, options, 'affiliateId'),
	};
	const additionalFields = parseAdditionalFields(ctx, itemIndex, options.additionalFields);
	return { request, amount, additionalFields, idempotencyKey: options.idempotencyKey, isClientKey: access.isClientKey };
}

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const plan = planned(this, itemIndex, () => planQuote(readOfframpInput(this, itemIndex, access), OfframpDraftSchema));
	const catalogue = await catalogueFor(this, access, itemIndex, plan.routes === 'required');
	const { sourceChain, sourceAsset } = plan.draft as Record<string, string>;
	const source = catalogue?.find(sourceChain, sourceAsset);
	const destination = catalogue?.byRoutingKey(OFFRAMP_DESTINATION);
	const amount = planned(this, itemIndex, () => smallestUnitAmount(plan.amount, source, `${sourceChain}:${sourceAsset}`));
	const body = requestWithAmount(plan.draft, amount, 'sourceAsset') as IDataObject;
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'POST',
		path: '/v1/orchestration/offramp',
		body,
		idempotencyKey: idempotencyKeyFor(this, itemIndex, { operation: 'quote.createOfframp', body, explicitKey: plan.idempotencyKey }),
		itemIndex,
		requiredScope: 'orders:quote',
	});
	return quoteOutput(res.body, { catalogue, source, destination });
}
