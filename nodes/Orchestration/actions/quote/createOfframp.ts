/** quote.createOfframp: POST /v1/orchestration/offramp, exact in to lightning:BTC for a $username or a Lightning address (orchestration-service.md §1, §4.2; path: public-notes). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import {
	integerOption,
	itemFailure,
	optionsOf,
	textOption,
	textParameter,
} from '../../../n8n/items';
import { isReplayed } from '../../../shared/orchestration/idempotency';
import {
	completeOfframp,
	OFFRAMP_DESTINATION,
	planQuote,
	quoteOutput,
	unpayableQuote,
	type QuoteInput,
} from '../../../shared/orchestration/quotePlan';
import {
	EXPIRY_MARGIN_DEFAULT_SECONDS,
	EXPIRY_MARGIN_MAX_SECONDS,
	OfframpDraftSchema,
} from '../../../shared/orchestration/schemas';
import {
	amountField,
	amountFormatField,
	QUOTE_CONCURRENCY,
	quoteOperationOptions,
	recipientAddressField,
	refundAddressOption,
	refundChainOption,
	showFor,
	sourceAssetField,
	sourceChainField,
} from '../common.descriptions';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import {
	amountParameter,
	assetParameter,
	expiryMarginOption,
	idempotencyKeyOption,
	jsonOption,
} from '../../helpers/parameters';
import { catalogueFor } from '../../helpers/routes';
import { withRouteBounds } from '../../helpers/limits';
import { orchestrationApiRequest, serviceAccess } from '../../transport';
import { verifiedTransfer } from './verifiedTransfer';

const show = showFor('quote', ['createOfframp']);

/** Items in flight when "Concurrency" is not set: quotes move no funds. */
export const defaultConcurrency = QUOTE_CONCURRENCY;

/** The chain an offramp delivers on: its refund rule is a Lightning destination's. */
const OFFRAMP_CHAIN = OFFRAMP_DESTINATION.split(':')[0];

/** "Refund Address" as every quote operation has it, its description saying what that means for an offramp. */
const offrampRefundAddressOption: INodeProperties = {
	...refundAddressOption,
	description: `${refundAddressOption.description} An offramp pays out over Lightning, so it is required here.`,
};

/** "Expiry Margin (Seconds)", as Quote > Create has it. */
const expiryMarginProperty: INodeProperties = {
	displayName: 'Expiry Margin (Seconds)',
	name: 'expiryMarginSeconds',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: EXPIRY_MARGIN_MAX_SECONDS },
	default: EXPIRY_MARGIN_DEFAULT_SECONDS,
	description:
		'A quote is firm for 2 minutes. One with less time left than this (or expired, as a replayed answer can be) fails the item instead of being returned as payable.',
};

/** An action: it fixes where a deposit goes and the fees it pays, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	sourceChainField(show, 'getOfframpSourceChains'),
	sourceAssetField(show, 'getOfframpSourceAssets'),
	...amountFormatField(show),
	amountField(show, 'Amount paid in, in the source asset (an offramp is always Exact In)'),
	recipientAddressField(
		show,
		'A payment-app $username or a Lightning address (name@domain). The recipient is resolved at delivery time.',
	),
	optionsCollection(show, [
		...quoteOperationOptions.map((o) =>
			o === refundAddressOption ? offrampRefundAddressOption : o,
		),
		expiryMarginProperty,
		refundChainOption,
	]),
];

/** The item's offramp request; planQuote checks it against the offramp's draft schema and the refund rule. */
function offrampInput(ctx: IExecuteFunctions, i: number, isClientKey: boolean): QuoteInput {
	const amount = amountParameter(ctx, i);
	const options = optionsOf(ctx, i);
	const request = {
		sourceChain: textParameter(ctx, 'sourceChain', i),
		sourceAsset: assetParameter(ctx, 'sourceAsset', i),
		recipientAddress: textParameter(ctx, 'recipientAddress', i),
		refundAddress: textOption(options, 'refundAddress'),
		refundChain: textOption(options, 'refundChain'),
		slippageBps: integerOption(options, 'slippageBps'),
		affiliateId: textOption(options, 'affiliateId'),
	};
	const idempotencyKey = idempotencyKeyOption(ctx, i);
	return {
		request,
		amount,
		additionalFields: jsonOption(ctx, i),
		idempotencyKey,
		isClientKey,
		refundRule: true,
		destinationChain: OFFRAMP_CHAIN,
	};
}

/** Checks every input before the first request; an expired quote, a replayed one included, is never returned as payable. */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const plan = planQuote(
		offrampInput(this, i, (await serviceAccess(this)).isClientKey),
		OfframpDraftSchema,
	);
	const marginSeconds = expiryMarginOption(this, i);
	const catalogue = await catalogueFor(this, i, plan.routes === 'required');
	const { request, source, destination } = completeOfframp(plan, catalogue);
	const idempotencyKey = idempotencyKeyFor(this, i, {
		operation: 'quote.createOfframp',
		body: request,
		explicitKey: plan.idempotencyKey,
	});
	const res = await orchestrationApiRequest
		.call(this, 'POST', '/v1/orchestration/offramp', request as IDataObject, {
			idempotencyKey,
			itemIndex: i,
		})
		.catch(
			async (error: unknown) =>
				await Promise.reject(
					await withRouteBounds(
						this,
						i,
						{ ...request, destinationChain: 'lightning', destinationAsset: 'BTC' },
						error,
					),
				),
		);
	const replayed = isReplayed(res.headers);
	const problem = unpayableQuote(res.body, { replayed, marginSeconds, requoteOption: false });
	if (problem !== undefined)
		throw itemFailure(this, i, problem.message, {
			description: problem.nextStep,
			errorCode: 'quote_expired',
		});
	const transfer = await verifiedTransfer(this, i, res.body, {
		chain: String(request.sourceChain),
		asset: String(request.sourceAsset),
		entry: source,
	});
	return { ...quoteOutput(res.body, { catalogue, source, destination }), ...transfer, replayed };
}
