/** quote.estimate: GET /v1/orchestration/estimate, public and without side effects (public-notes.md). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { completeQuote, planQuote, type QuoteInput } from '../../../shared/orchestration/quotePlan';
import { EstimateDraftSchema } from '../../../shared/orchestration/schemas';
import { planned } from '../../../transport/nodeErrors';
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
import { optionInteger, optionText, optionsOf } from '../../helpers/params';
import { catalogueFor, readAmount, readQuoteRoute } from '../../helpers/quoteInput';
import { formatQuoteAmounts } from '../../helpers/quoteOutput';
import { orchestrationRequest } from '../../helpers/request';
import { parseAdditionalFields } from '../../helpers/validation';
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

/** The item's estimate query, read once; checked by planQuote against the estimate's draft schema. */
function readEstimateInput(ctx: IExecuteFunctions, itemIndex: number): QuoteInput {
	const options = optionsOf(ctx, itemIndex);
	const amount = readAmount(ctx, itemIndex);
	const request = {
		...readQuoteRoute(ctx, itemIndex),
		recipientAddress: optionText(ctx, itemIndex, options, 'recipientAddress'),
		slippageBps: optionInteger(ctx, itemIndex, options, 'slippageBps'),
		affiliateId: optionText(ctx, itemIndex, options, 'affiliateId'),
	};
	const additionalFields = parseAdditionalFields(ctx, itemIndex, options.additionalFields);
	// An estimate has no fee fields and no idempotency key (a GET without side effects).
	return { request, amount, additionalFields, idempotencyKey: undefined, isClientKey: false };
}

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const plan = planned(this, itemIndex, () => planQuote(readEstimateInput(this, itemIndex), EstimateDraftSchema));
	const catalogue = await catalogueFor(this, access, itemIndex, plan.routes === 'required');
	const { request, source, destination } = planned(this, itemIndex, () => completeQuote(plan, catalogue));
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'GET',
		path: '/v1/orchestration/estimate',
		qs: request as IDataObject,
		itemIndex,
	});
	return formatQuoteAmounts(res.body, { catalogue, source, destination });
}
