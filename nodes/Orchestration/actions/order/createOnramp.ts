/** order.createOnramp: POST /v1/orchestration/onramp, a Lightning onramp paid by BOLT11 invoice (orchestration-service.md §4.6, public-notes). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dropdown, optionsCollection } from '../../../n8n/descriptions';
import {
	integerOption,
	itemFailure,
	optionsOf,
	textOption,
	textParameter,
} from '../../../n8n/items';
import {
	completeOnramp,
	planOnramp,
	type OnrampInput,
} from '../../../shared/orchestration/orderPlan';
import { isReplayed } from '../../../shared/orchestration/idempotency';
import { quoteOutput, unpayableQuote } from '../../../shared/orchestration/quotePlan';
import {
	EXPIRY_MARGIN_DEFAULT_SECONDS,
	EXPIRY_MARGIN_MAX_SECONDS,
} from '../../../shared/orchestration/schemas';
import {
	amountField,
	amountFormatField,
	destinationAssetField,
	destinationChainField,
	quoteCreationOptions,
	recipientAddressField,
	showFor,
	turnstileTokenOption,
} from '../common.descriptions';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import {
	amountParameter,
	assetParameter,
	decimalParameter,
	expiryMarginOption,
	idempotencyKeyOption,
	jsonOption,
	turnstileHeaders,
} from '../../helpers/parameters';
import { catalogueFor } from '../../helpers/routes';
import { orchestrationApiRequest, serviceAccess } from '../../transport';

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
			{
				displayName: 'Amount Mode',
				name: 'amountMode',
				description:
					'Whether the amount is what is paid (Exact In) or what is delivered (Exact Out)',
			},
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

/** The item's onramp, in sats (amount) or USD (amountFiatUsd); planOnramp checks it. */
function onrampInput(ctx: IExecuteFunctions, i: number, isClientKey: boolean): OnrampInput {
	const bySats = textParameter(ctx, 'amountType', i) !== 'amountFiatUsd';
	const amount = bySats ? amountParameter(ctx, i) : undefined;
	const options = optionsOf(ctx, i);
	const request = {
		destinationChain: textParameter(ctx, 'destinationChain', i),
		destinationAsset: assetParameter(ctx, 'destinationAsset', i),
		recipientAddress: textParameter(ctx, 'recipientAddress', i),
		amountFiatUsd: bySats ? undefined : decimalParameter(ctx, 'amountFiatUsd', i),
		amountMode: textOption(options, 'amountMode'),
		slippageBps: integerOption(options, 'slippageBps'),
		refundAddress: textOption(options, 'refundAddress'),
		affiliateId: textOption(options, 'affiliateId'),
	};
	return {
		request,
		amount,
		additionalFields: jsonOption(ctx, i),
		idempotencyKey: idempotencyKeyOption(ctx, i),
		isClientKey,
	};
}

/** Checks every input before the first request; an expired answer, a replayed one included, is never returned as payable. */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const plan = planOnramp(onrampInput(this, i, (await serviceAccess(this)).isClientKey));
	const marginSeconds = expiryMarginOption(this, i);
	const headers = turnstileHeaders(this, i);
	const catalogue = await catalogueFor(this, i, plan.routes === 'required');
	const { request, source, destination } = completeOnramp(plan, catalogue);
	const idempotencyKey = idempotencyKeyFor(this, i, {
		operation: 'order.createOnramp',
		body: request,
		explicitKey: plan.idempotencyKey,
	});
	const res = await orchestrationApiRequest.call(
		this,
		'POST',
		'/v1/orchestration/onramp',
		request as IDataObject,
		{
			headers,
			idempotencyKey,
			secrets: [headers?.['cf-turnstile-response']],
			itemIndex: i,
		},
	);
	const replayed = isReplayed(res.headers);
	const problem = unpayableQuote(res.body, { replayed, marginSeconds, requoteOption: false });
	if (problem !== undefined)
		throw itemFailure(this, i, problem.message, {
			description: problem.nextStep,
			errorCode: 'quote_expired',
		});
	return { ...quoteOutput(res.body, { catalogue, source, destination }), replayed };
}
