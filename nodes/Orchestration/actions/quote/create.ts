/** quote.create: POST /v1/orchestration/quote (orchestration-service.md §4.1). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { completeQuote, planQuote, type QuoteInput } from '../../../shared/orchestration/quotePlan';
import { idempotencyKeyFor } from '../../helpers/request';
import { planned } from '../../../transport/nodeErrors';
import type { ServiceAccess } from '../../helpers/access';
import {
	additionalFieldsOption,
	affiliateIdOption,
	amountField,
	concurrencyOption,
	idempotencyKeyOption,
	optionsCollection,
	quoteRouteFields,
	recipientAddressField,
	refundAddressOption,
	refundChainOption,
	showFor,
	slippageBpsOption,
} from '../../helpers/fields';
import { optionInteger, optionText, optionsOf, text } from '../../helpers/params';
import { catalogueFor, readAmount, readFeeFields, readQuoteRoute } from '../../helpers/quoteInput';
import { quoteOutput } from '../../helpers/quoteOutput';
import { orchestrationRequest } from '../../helpers/request';
import { parseAdditionalFields } from '../../helpers/validation';
import type { OperationEnv } from '../types';

const show = showFor('quote', ['create']);

export const description: INodeProperties[] = [
	...quoteRouteFields(show),
	amountField(show, 'Source amount, or the destination amount with Exact Out. Stablecoin Exact Out amounts must be whole cents.'),
	recipientAddressField(
		show,
		'Destination address. Solana tokens take the owner address; Lightning takes a Lightning address or a BOLT11 invoice.',
	),
	optionsCollection(show, [
		additionalFieldsOption,
		affiliateIdOption,
		{
			displayName: 'Affiliate IDs',
			name: 'affiliateIds',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			description: 'Registered affiliates (1 to 16), optionally with a fee override (server keys only). Not together with App Fees.',
			options: [
				{
					displayName: 'Affiliate',
					name: 'affiliate',
					values: [
						{ displayName: 'Affiliate ID', name: 'affiliateId', type: 'string', default: '' },
						{
							displayName: 'Fee Override (Bps)',
							name: 'feeBps',
							type: 'string',
							default: '',
							description: 'Leave empty to use the fee registered for the affiliate',
						},
					],
				},
			],
		},
		{
			displayName: 'App Fees',
			name: 'appFees',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			description: 'Inline app fees (1 to 16 entries); server keys only. Not together with Affiliate IDs.',
			options: [
				{
					displayName: 'Fee',
					name: 'fee',
					values: [
						{ displayName: 'Recipient', name: 'recipient', type: 'string', default: '' },
						{ displayName: 'Fee (Bps)', name: 'feeBps', type: 'number', default: 0 },
						{ displayName: 'Affiliate ID', name: 'affiliateId', type: 'string', default: '' },
					],
				},
			],
		},
		{
			displayName: 'Amountless Lightning Invoice',
			name: 'amountlessInvoice',
			type: 'boolean',
			default: false,
			description:
				'Whether to mint an amountless invoice (Exact In, Variable, to lightning:BTC only): the amount only prices an indicative size and the order runs on the amount actually paid. Sent as amountlessInvoice, a name the spec does not show (unconfirmed); if the service names it otherwise, pass that name in Additional Body Fields.',
		},
		concurrencyOption,
		idempotencyKeyOption,
		{
			displayName: 'Include Calldata',
			name: 'includeCalldata',
			type: 'boolean',
			default: false,
			description: 'Whether to return an unsigned deposit transfer (EVM native and ERC-20 sources only)',
		},
		refundAddressOption,
		refundChainOption,
		slippageBpsOption,
	]),
];

/** The item's quote request, read once (item index inside); checked by planQuote. */
function readQuoteInput(ctx: IExecuteFunctions, itemIndex: number, access: ServiceAccess): QuoteInput {
	const options = optionsOf(ctx, itemIndex);
	const amount = readAmount(ctx, itemIndex);
	const request = {
		...readQuoteRoute(ctx, itemIndex),
		recipientAddress: text(ctx, 'recipientAddress', itemIndex),
		includeCalldata: options.includeCalldata === true ? true : undefined,
		amountlessInvoice: options.amountlessInvoice === true ? true : undefined,
		affiliateId: optionText(ctx, itemIndex, options, 'affiliateId'),
		refundAddress: optionText(ctx, itemIndex, options, 'refundAddress'),
		refundChain: optionText(ctx, itemIndex, options, 'refundChain'),
		slippageBps: optionInteger(ctx, itemIndex, options, 'slippageBps'),
		...readFeeFields(ctx, itemIndex, options),
	};
	const additionalFields = parseAdditionalFields(ctx, itemIndex, options.additionalFields);
	return { request, amount, additionalFields, idempotencyKey: options.idempotencyKey, isClientKey: access.isClientKey };
}

/** Read, plan (every check before the first request), fetch the routes listing, send, shape. */
export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const plan = planned(this, itemIndex, () => planQuote(readQuoteInput(this, itemIndex, access)));
	const catalogue = await catalogueFor(this, access, itemIndex, plan.routes === 'required');
	const { request, source, destination } = planned(this, itemIndex, () => completeQuote(plan, catalogue));
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'POST',
		path: '/v1/orchestration/quote',
		body: request as IDataObject,
		idempotencyKey: idempotencyKeyFor(this, itemIndex, { operation: 'quote.create', body: request, explicitKey: plan.idempotencyKey }),
		itemIndex,
		requiredScope: 'orders:quote',
	});
	return quoteOutput(res.body, { catalogue, source, destination });
}
