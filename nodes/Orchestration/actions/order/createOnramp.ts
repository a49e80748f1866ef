/**
 * order.createOnramp: POST /v1/orchestration/onramp, a Lightning onramp paid by BOLT11 invoice
 * (orchestration-service.md §4.6, public-notes.md). Client keys need orders:onramp and get an
 * order-bound read token (§5). Like Quote > Create, it never returns an expired answer (a replayed
 * one included) as payable.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { catalogueFor, orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { dropdown, optionsCollection } from '../../../n8n/descriptions';
import { completeOnramp, planOnramp, type OnrampInput } from '../../../shared/orchestration/orderPlan';
import { isReplayed } from '../../../shared/orchestration/idempotency';
import { quoteOutput, unpayableQuote } from '../../../shared/orchestration/quotePlan';
import { EXPIRY_MARGIN_DEFAULT_SECONDS, EXPIRY_MARGIN_MAX_SECONDS } from '../../../shared/orchestration/schemas';
import {
	amountField,
	amountFormatField,
	destinationAssetField,
	destinationChainField,
	quoteCreationOptions,
	recipientAddressField,
	showFor,
	turnstileTokenOption,
} from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { idempotencyKeyFor } from '../../idempotencyKey';

const show = showFor('order', ['createOnramp']);
const showSats = showFor('order', ['createOnramp'], { amountType: ['amount'] });

/** An action: it moves funds (an order to pay), so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	destinationChainField(show, 'getOnrampDestinationChains'),
	destinationAssetField(show, 'getOnrampDestinationAssets'),
	recipientAddressField(show, 'Destination address of the bought asset'),
	dropdown(
		[
			['Bitcoin Amount', 'amount', 'An amount of BTC paid over Lightning'],
			['US Dollars', 'amountFiatUsd', 'A USD amount, converted at the current price'],
		],
		{ displayName: 'Amount Type', name: 'amountType', displayOptions: show },
	),
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
		...quoteCreationOptions,
		dropdown(
			[
				['Exact In', 'exact_in'],
				['Exact Out', 'exact_out'],
			],
			{ displayName: 'Amount Mode', name: 'amountMode', description: 'Whether the amount is what is paid (Exact In) or what is delivered (Exact Out)' },
		),
		{
			displayName: 'Expiry Margin (Seconds)',
			name: 'expiryMarginSeconds',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: EXPIRY_MARGIN_MAX_SECONDS },
			default: EXPIRY_MARGIN_DEFAULT_SECONDS,
			description:
				'The invoice of an onramp is payable until its expiresAt. One with less time left than this (or expired, as a replayed answer can be) fails the item instead of being returned as payable.',
		},
		turnstileTokenOption,
	]),
];

/** The item's onramp, read once: sats (amount) or USD (amountFiatUsd); checked by planOnramp. */
function readOnrampInput(read: OrchestrationReader, isClientKey: boolean): OnrampInput {
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
	return { request, amount, additionalFields: read.additionalFields(), idempotencyKey: read.idempotencyKey(), isClientKey };
}

/** Read, plan (every check before the first request), fetch the routes listing, send, refuse an unpayable answer, shape. */
export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const plan = planOnramp(readOnrampInput(read, access.isClientKey));
	const marginSeconds = read.expiryMargin();
	const headers = read.turnstileHeaders();
	const catalogue = await catalogueFor(read, access, plan.routes === 'required');
	const { request, source, destination } = completeOnramp(plan, catalogue);
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'POST',
		path: '/v1/orchestration/onramp',
		body: request as IDataObject,
		headers,
		idempotencyKey: idempotencyKeyFor(read, { operation: 'order.createOnramp', body: request, explicitKey: plan.idempotencyKey }),
		requiredScope: 'orders:onramp',
		secrets: [headers?.['cf-turnstile-response']],
		itemIndex: read.itemIndex,
	});
	const replayed = isReplayed(res.headers);
	const problem = unpayableQuote(res.body, { replayed, marginSeconds, requoteOption: false });
	if (problem !== undefined) throw read.failure(problem.message, { description: problem.nextStep, errorCode: 'quote_expired' });
	return { ...quoteOutput(res.body, { catalogue, source, destination }), replayed };
}
