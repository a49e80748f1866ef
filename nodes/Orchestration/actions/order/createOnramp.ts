/**
 * order.createOnramp: POST /v1/orchestration/onramp, a Lightning onramp paid by BOLT11 invoice
 * (orchestration-service.md §4.6, public-notes.md). Client keys need orders:onramp and get an
 * order-bound read token (§5).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { completeOnramp, planOnramp, type OnrampInput } from '../../../shared/orchestration/orderPlan';
import { quoteOutput } from '../../../shared/orchestration/quotePlan';
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
	turnstileTokenOption,
} from '../../parameters';
import type { ItemReader } from '../../itemReader';
import { catalogueFor, idempotencyKeyFor, orchestrationRequest } from '../../service';
import type { OperationEnv } from '../types';

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

/** The item's onramp, read once: sats (amount) or USD (amountFiatUsd); checked by planOnramp. */
function readOnrampInput(read: ItemReader, isClientKey: boolean): OnrampInput {
	const bySats = read.textParameter('amountType') !== 'amountFiatUsd';
	const amount = bySats ? read.amount() : undefined;
	const request = {
		destinationChain: read.textParameter('destinationChain'),
		destinationAsset: read.asset('destinationAsset'),
		recipientAddress: read.textParameter('recipientAddress'),
		amountFiatUsd: bySats ? undefined : read.decimal('amountFiatUsd'),
		amountMode: read.optionText('amountMode'),
		slippageBps: read.optionInteger('slippageBps'),
		refundAddress: read.optionText('refundAddress'),
		affiliateId: read.optionText('affiliateId'),
	};
	return { request, amount, additionalFields: read.additionalFields(), idempotencyKey: read.options.idempotencyKey, isClientKey };
}

/** Read, plan (every check before the first request), fetch the routes listing, send, shape. */
export async function execute(this: IExecuteFunctions, read: ItemReader, { access }: OperationEnv): Promise<IDataObject> {
	const plan = read.plan(() => planOnramp(readOnrampInput(read, access.isClientKey)));
	const headers = read.turnstileHeaders();
	const catalogue = await catalogueFor(read, access, plan.routes === 'required');
	const { request, source, destination } = read.plan(() => completeOnramp(plan, catalogue));
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'POST',
		path: '/v1/orchestration/onramp',
		body: request as IDataObject,
		headers,
		idempotencyKey: idempotencyKeyFor(read, { operation: 'order.createOnramp', body: request, explicitKey: plan.idempotencyKey }),
		itemIndex: read.itemIndex,
		requiredScope: 'orders:onramp',
		secrets: [headers?.['cf-turnstile-response']],
	});
	return quoteOutput(res.body, { catalogue, source, destination });
}
