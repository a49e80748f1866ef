/** quote.estimate: GET /v1/orchestration/estimate, public and without side effects (public-notes.md). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { integerOption, optionsOf, textOption } from '../../../n8n/items';
import {
	completeQuote,
	formatQuoteAmounts,
	planQuote,
	type QuoteInput,
} from '../../../shared/orchestration/quotePlan';
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
} from '../common.descriptions';
import { amountParameter, jsonOption, quoteRoute } from '../../helpers/parameters';
import { catalogueFor } from '../../helpers/routes';
import { withRouteBounds } from '../../helpers/limits';
import { orchestrationApiRequest } from '../../transport';

const show = showFor('quote', ['estimate']);

/** Items in flight when "Concurrency" is not set: quotes move no funds. */
export const defaultConcurrency = QUOTE_CONCURRENCY;

export const description: INodeProperties[] = [
	...quoteRouteFields(show),
	amountField(show, 'Source amount, or the destination amount with Exact Out'),
	optionsCollection(show, [
		{
			...additionalFieldsOption,
			description:
				'Raw JSON object added to the query, for fields this node does not name. A member the node already sets is refused.',
		},
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

/** The item's estimate query; planQuote checks it against the estimate's draft schema. */
function estimateInput(ctx: IExecuteFunctions, i: number): QuoteInput {
	const amount = amountParameter(ctx, i);
	const options = optionsOf(ctx, i);
	const request = {
		...quoteRoute(ctx, i),
		recipientAddress: textOption(options, 'recipientAddress'),
		slippageBps: integerOption(options, 'slippageBps'),
		affiliateId: textOption(options, 'affiliateId'),
	};
	// An estimate has no fee fields and no idempotency key (a GET without side effects).
	return {
		request,
		amount,
		additionalFields: jsonOption(ctx, i),
		idempotencyKey: undefined,
		isClientKey: false,
	};
}

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const plan = planQuote(estimateInput(this, i), EstimateDraftSchema);
	const catalogue = await catalogueFor(this, i, plan.routes === 'required');
	const { request, source, destination } = completeQuote(plan, catalogue);
	const res = await orchestrationApiRequest
		.call(this, 'GET', '/v1/orchestration/estimate', undefined, {
			qs: request as IDataObject,
			itemIndex: i,
		})
		.catch(
			async (error: unknown) =>
				await Promise.reject(await withRouteBounds(this, i, request as IDataObject, error)),
		);
	return formatQuoteAmounts(res.body, { catalogue, source, destination });
}
