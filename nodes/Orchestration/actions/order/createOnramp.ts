/**
 * order.createOnramp: POST /v1/orchestration/onramp, a Lightning onramp paid by BOLT11 invoice
 * (orchestration-service.md §4.6, public-notes.md). Client keys need orders:onramp and get an
 * order-bound read token (§5).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { OnrampRequestSchema } from '../../../shared/orchestration/schemas';
import { smallestUnitAmount } from '../../../shared/orchestration/quotePlan';
import { idempotencyKeyFor } from '../../helpers/request';
import { planned } from '../../../transport/nodeErrors';
import {
	additionalFieldsOption,
	affiliateIdOption,
	amountField,
	amountFormatField,
	concurrencyOption,
	destinationAssetField,
	destinationChainField,
	idempotencyKeyOption,
	optionsCollection,
	recipientAddressField,
	refundAddressOption,
	showFor,
	slippageBpsOption,
} from '../../helpers/fields';
import { decimalText, optionInteger, optionText, optionsOf, text } from '../../helpers/params';
import {
	assertNoClientFeeFields,
	assetParam,
	catalogueFor,
	explicitIdempotencyKey,
	provisionalAmount,
	readAmount,
} from '../../helpers/quoteInput';
import { quoteOutput } from '../../helpers/quoteOutput';
import { ONRAMP_SOURCE } from '../../helpers/routes';
import { orchestrationRequest } from '../../helpers/request';
import { validateRequest, withAdditionalFields } from '../../helpers/validation';
import type { OperationEnv } from '../types';
import { turnstileHeaders, turnstileTokenOption } from '../../helpers/turnstile';

const show = showFor('order', ['createOnramp']);
const showSats = showFor('order', ['createOnramp'], { amountType: ['amount'] });

export const description: INodeProperties[] = [
	destinationChainField(show, 'getOnrampDestinationChains'),
	destinationAssetField(show, 'getOnrampDestinationAssets'),
	recipientAddressField(show, 'Destination address of the bought asset'),
	{
		displayName: 'Amount Type',
		name: 'amountType',
		type: 'options',
		options: [
			{ name: 'Bitcoin Amount', value: 'amount', description: 'An amount of BTC paid over Lightning' },
			{ name: 'US Dollars', value: 'amountFiatUsd', description: 'A USD amount, converted at the current price' },
		],
		default: 'amount',
		displayOptions: show,
	},
	...amountFormatField(showSats),
	amountField(showSats, 'Amount paid over Lightning (sats in smallest units, or BTC as a decimal)'),
	{
		displayName: 'Amount (USD)',
		name: 'amountFiatUsd',
		type: 'string',
		required: true,
		default: '',
		placeholder: '25.00',
		description: 'US dollars with at most 2 decimals',
		displayOptions: showFor('order', ['createOnramp'], { amountType: ['amountFiatUsd'] }),
	},
	optionsCollection(show, [
		additionalFieldsOption,
		affiliateIdOption,
		{
			displayName: 'Amount Mode',
			name: 'amountMode',
			type: 'options',
			options: [
				{ name: 'Exact In', value: 'exact_in' },
				{ name: 'Exact Out', value: 'exact_out' },
			],
			default: 'exact_in',
			description: 'Whether the amount is what is paid (Exact In) or what is delivered (Exact Out)',
		},
		concurrencyOption,
		idempotencyKeyOption,
		refundAddressOption,
		slippageBpsOption,
		turnstileTokenOption,
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const options = optionsOf(this, itemIndex);
	const bySats = text(this, 'amountType', itemIndex) !== 'amountFiatUsd';
	const amount = bySats ? readAmount(this, itemIndex) : undefined;
	const body: IDataObject = withAdditionalFields(this, itemIndex, options.additionalFields, {
		destinationChain: text(this, 'destinationChain', itemIndex),
		destinationAsset: assetParam(this, 'destinationAsset', itemIndex),
		recipientAddress: text(this, 'recipientAddress', itemIndex),
		amount: amount ? provisionalAmount(amount) : undefined,
		amountFiatUsd: bySats ? undefined : decimalText(this, 'amountFiatUsd', itemIndex),
		amountMode: optionText(this, itemIndex, options, 'amountMode'),
		slippageBps: optionInteger(this, itemIndex, options, 'slippageBps'),
		refundAddress: optionText(this, itemIndex, options, 'refundAddress'),
		affiliateId: optionText(this, itemIndex, options, 'affiliateId'),
	});
	validateRequest(this, itemIndex, OnrampRequestSchema, body);
	assertNoClientFeeFields(this, itemIndex, access, body);
	const explicitKey = explicitIdempotencyKey(this, itemIndex, options);

	const catalogue = await catalogueFor(this, access, itemIndex, amount?.format === 'decimal');
	const source = catalogue?.byRoutingKey(ONRAMP_SOURCE);
	const destination = catalogue?.find(body.destinationChain as string, body.destinationAsset as string);
	if (amount) {
		const exactOut = body.amountMode === 'exact_out';
		const label = exactOut ? `${body.destinationChain}:${body.destinationAsset}` : ONRAMP_SOURCE;
		body.amount = planned(this, itemIndex, () => smallestUnitAmount(amount, exactOut ? destination : source, label));
	}
	const headers = turnstileHeaders(this, itemIndex, options);
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'POST',
		path: '/v1/orchestration/onramp',
		body,
		headers,
		idempotencyKey: idempotencyKeyFor(this, itemIndex, { operation: 'order.createOnramp', body, explicitKey: explicitKey }),
		itemIndex,
		requiredScope: 'orders:onramp',
		secrets: [headers?.['cf-turnstile-response']],
	});
	return quoteOutput(res.body, { catalogue, source, destination });
}
