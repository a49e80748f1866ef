/** quote.estimate: GET /v1/orchestration/estimate, public and without side effects (public-notes.md). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { completeQuote, formatQuoteAmounts, planQuote, type QuoteInput } from '../../../shared/orchestration/quotePlan';
import { EstimateDraftSchema } from '../../../shared/orchestration/schemas';
import {
	additionalFieldsOption,
	affiliateIdOption,
	amountField,
	QUOTE_CONCURRENCY,
	quoteConcurrencyOption,
	quoteRouteFields,
	showFor,
	slippageBpsOption,
} from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import type { OperationEnv } from '../types';

const show = showFor('quote', ['estimate']);

/** Items in flight when "Concurrency" is not set: quotes move no funds. */
export const defaultConcurrency = QUOTE_CONCURRENCY;

export const description: INodeProperties[] = [
	...quoteRouteFields(show),
	amountField(show, 'Source amount, or the destination amount with Exact Out'),
	optionsCollection(show, [
		{ ...additionalFieldsOption, description: 'Raw JSON object added to the query, for fields this node does not name. A member the node already sets is refused.' },
		affiliateIdOption,
		quoteConcurrencyOption,
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

/** The item's estimate query, read once; checked by planQuote against the estimate's draft schema. */
function readEstimateInput(read: OrchestrationReader): QuoteInput {
	const amount = read.amount();
	const request = {
		...read.quoteRoute(),
		recipientAddress: read.optionText('recipientAddress'),
		slippageBps: read.optionInteger('slippageBps'),
		affiliateId: read.optionText('affiliateId'),
	};
	// An estimate has no fee fields and no idempotency key (a GET without side effects).
	return { request, amount, additionalFields: read.additionalFields(), idempotencyKey: undefined, isClientKey: false };
}

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, { service }: OperationEnv): Promise<IDataObject> {
	const plan = read.plan(() => planQuote(readEstimateInput(read), EstimateDraftSchema));
	const catalogue = await service.catalogue(plan.routes === 'required');
	const { request, source, destination } = read.plan(() => completeQuote(plan, catalogue));
	const res = await service.request<IDataObject>({
		method: 'GET',
		path: '/v1/orchestration/estimate',
		qs: request as IDataObject,
	});
	return formatQuoteAmounts(res.body, { catalogue, source, destination });
}
