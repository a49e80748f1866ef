/** quote.estimate: GET /v1/orchestration/estimate, public and without side effects (public-notes.md). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { catalogueFor, orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
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

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const plan = planQuote(readEstimateInput(read), EstimateDraftSchema);
	const catalogue = await catalogueFor(read, access, plan.routes === 'required');
	const { request, source, destination } = completeQuote(plan, catalogue);
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'GET',
		path: '/v1/orchestration/estimate',
		qs: request as IDataObject,
		itemIndex: read.itemIndex,
	});
	return formatQuoteAmounts(res.body, { catalogue, source, destination });
}
