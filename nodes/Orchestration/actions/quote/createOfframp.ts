/**
 * quote.createOfframp: an exact-in, variable quote paying lightning:BTC to a payment-app $username
 * or a Lightning address (orchestration-service.md §1, §4.2; path per public-notes.md).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import {
	OFFRAMP_DESTINATION,
	planQuote,
	quoteOutput,
	requestWithAmount,
	smallestUnitAmount,
	type QuoteInput,
} from '../../../shared/orchestration/quotePlan';
import { OfframpDraftSchema } from '../../../shared/orchestration/schemas';
import {
	amountField,
	amountFormatField,
	QUOTE_CONCURRENCY,
	quoteOperationOptions,
	recipientAddressField,
	showFor,
	sourceAssetField,
	sourceChainField,
} from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import type { OperationEnv } from '../types';

const show = showFor('quote', ['createOfframp']);

/** Items in flight when "Concurrency" is not set: quotes move no funds. */
export const defaultConcurrency = QUOTE_CONCURRENCY;

export const description: INodeProperties[] = [
	sourceChainField(show, 'getOfframpSourceChains'),
	sourceAssetField(show, 'getOfframpSourceAssets'),
	...amountFormatField(show),
	amountField(show, 'Amount paid in, in the source asset (an offramp is always Exact In)'),
	recipientAddressField(
		show,
		'A payment-app $username or a Lightning address (name@domain). The recipient is resolved at delivery time.',
	),
	optionsCollection(show, quoteOperationOptions),
];

/** The item's offramp request, read once; checked by planQuote against the offramp's draft schema. */
function readOfframpInput(read: OrchestrationReader, isClientKey: boolean): QuoteInput {
	const amount = read.amount();
	const request = {
		sourceChain: read.textParameter('sourceChain'),
		sourceAsset: read.asset('sourceAsset'),
		recipientAddress: read.textParameter('recipientAddress'),
		refundAddress: read.optionText('refundAddress'),
		slippageBps: read.optionInteger('slippageBps'),
		affiliateId: read.optionText('affiliateId'),
	};
	return { request, amount, additionalFields: read.additionalFields(), idempotencyKey: read.idempotencyKey(), isClientKey };
}

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, { access, service }: OperationEnv): Promise<IDataObject> {
	const plan = read.plan(() => planQuote(readOfframpInput(read, access.isClientKey), OfframpDraftSchema));
	const catalogue = await service.catalogue(plan.routes === 'required');
	const { sourceChain, sourceAsset } = plan.draft as Record<string, string>;
	const source = catalogue?.find(sourceChain, sourceAsset);
	const destination = catalogue?.byRoutingKey(OFFRAMP_DESTINATION);
	const amount = read.plan(() => smallestUnitAmount(plan.amount, source, `${sourceChain}:${sourceAsset}`));
	const body = requestWithAmount(plan.draft, amount, 'sourceAsset') as IDataObject;
	const res = await service.request<IDataObject>({
		method: 'POST',
		path: '/v1/orchestration/offramp',
		body,
		idempotencyKey: service.idempotencyKey({ operation: 'quote.createOfframp', body, explicitKey: plan.idempotencyKey }),
		requiredScope: 'orders:quote',
	});
	return quoteOutput(res.body, { catalogue, source, destination });
}
