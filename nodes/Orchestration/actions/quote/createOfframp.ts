/**
 * quote.createOfframp: an exact-in, variable quote paying lightning:BTC to a payment-app $username
 * or a Lightning address (orchestration-service.md §1, §4.2; path per public-notes.md). Like Quote >
 * Create, it needs a refund address (a Lightning destination on the live service) and never returns
 * an expired quote, a replayed one included, as payable.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { catalogueFor, orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { optionsCollection } from '../../../n8n/descriptions';
import { isReplayed } from '../../../shared/orchestration/idempotency';
import {
	completeOfframp,
	OFFRAMP_DESTINATION,
	planQuote,
	quoteOutput,
	unpayableQuote,
	type QuoteInput,
} from '../../../shared/orchestration/quotePlan';
import { EXPIRY_MARGIN_DEFAULT_SECONDS, EXPIRY_MARGIN_MAX_SECONDS, OfframpDraftSchema } from '../../../shared/orchestration/schemas';
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
} from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { verifiedTransfer } from './verifiedTransfer';
import { idempotencyKeyFor } from '../../idempotencyKey';

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
const expiryMarginOption: INodeProperties = {
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
		...quoteOperationOptions.map((o) => (o === refundAddressOption ? offrampRefundAddressOption : o)),
		expiryMarginOption,
		refundChainOption,
	]),
];

/** The item's offramp request, read once; checked by planQuote against the offramp's draft schema and the refund rule. */
function readOfframpInput(read: OrchestrationReader, isClientKey: boolean): QuoteInput {
	const amount = read.amount();
	const request = {
		sourceChain: read.textParameter('sourceChain'),
		sourceAsset: read.asset('sourceAsset'),
		recipientAddress: read.textParameter('recipientAddress'),
		refundAddress: read.optionText('refundAddress'),
		refundChain: read.optionText('refundChain'),
		slippageBps: read.optionInteger('slippageBps'),
		affiliateId: read.optionText('affiliateId'),
	};
	const idempotencyKey = read.idempotencyKey();
	return { request, amount, additionalFields: read.additionalFields(), idempotencyKey, isClientKey, refundRule: true, destinationChain: OFFRAMP_CHAIN };
}

/** Read, plan (every check before the first request), fetch the routes listing, send, refuse an unpayable answer, shape. */
export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const plan = planQuote(readOfframpInput(read, access.isClientKey), OfframpDraftSchema);
	const marginSeconds = read.expiryMargin();
	const catalogue = await catalogueFor(read, access, plan.routes === 'required');
	const { request, source, destination } = completeOfframp(plan, catalogue);
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'POST',
		path: '/v1/orchestration/offramp',
		body: request as IDataObject,
		idempotencyKey: idempotencyKeyFor(read, { operation: 'quote.createOfframp', body: request, explicitKey: plan.idempotencyKey }),
		requiredScope: 'orders:quote',
		itemIndex: read.itemIndex,
	});
	const replayed = isReplayed(res.headers);
	const problem = unpayableQuote(res.body, { replayed, marginSeconds, requoteOption: false });
	if (problem !== undefined) throw read.failure(problem.message, { description: problem.nextStep, errorCode: 'quote_expired' });
	const transfer = await verifiedTransfer(read, access, res.body, { chain: String(request.sourceChain), asset: String(request.sourceAsset), entry: source });
	return { ...quoteOutput(res.body, { catalogue, source, destination }), ...transfer, replayed };
}
