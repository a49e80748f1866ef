/** quote.create: POST /v1/orchestration/quote (orchestration-service.md §4.1). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { QuoteRequestSchema } from '../../../shared/orchestration/schemas';
import { idempotencyKeyFor } from '../../../transport/idempotency';
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
import {
	assertNoClientFeeFields,
	assetParam,
	explicitIdempotencyKey,
	provisionalAmount,
	readAmount,
	readFeeFields,
	resolveQuoteAmount,
} from '../../helpers/quoteInput';
import { quoteOutput } from '../../helpers/quoteOutput';
import { orchestrationRequest } from '../../helpers/request';
import { validateRequest, withAdditionalFields } from '../../helpers/validation';
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

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const options = optionsOf(this, itemIndex);
	const amountMode = text(this, 'amountMode', itemIndex) || 'exact_in';
	const amount = readAmount(this, itemIndex);
	const body: IDataObject = withAdditionalFields(this, itemIndex, options.additionalFields, {
		sourceChain: text(this, 'sourceChain', itemIndex),
		sourceAsset: assetParam(this, 'sourceAsset', itemIndex),
		destinationChain: text(this, 'destinationChain', itemIndex),
		destinationAsset: assetParam(this, 'destinationAsset', itemIndex),
		amount: provisionalAmount(amount),
		recipientAddress: text(this, 'recipientAddress', itemIndex),
		amountMode,
		deliveryMode: amountMode === 'exact_in' ? text(this, 'deliveryMode', itemIndex) || undefined : undefined,
		includeCalldata: options.includeCalldata === true ? true : undefined,
		amountlessInvoice: options.amountlessInvoice === true ? true : undefined,
		affiliateId: optionText(this, itemIndex, options, 'affiliateId'),
		refundAddress: optionText(this, itemIndex, options, 'refundAddress'),
		refundChain: optionText(this, itemIndex, options, 'refundChain'),
		slippageBps: optionInteger(this, itemIndex, options, 'slippageBps'),
		...readFeeFields(this, itemIndex, options),
	});
	// Everything that can be checked without the service is checked before the first request.
	validateRequest(this, itemIndex, QuoteRequestSchema, body);
	assertNoClientFeeFields(this, itemIndex, access, body);
	const explicitKey = explicitIdempotencyKey(this, itemIndex, options);

	const sides = await resolveQuoteAmount(this, itemIndex, access, amount, body);

	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'POST',
		path: '/v1/orchestration/quote',
		body,
		idempotencyKey: idempotencyKeyFor(this, itemIndex, 'quote.create', body, explicitKey),
		itemIndex,
		requiredScope: 'orders:quote',
	});
	return quoteOutput(res.body, sides);
}
