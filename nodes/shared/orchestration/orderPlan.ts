/**
 * The plans of Order > Submit and Order > Create Onramp (public-notes.md, orchestration-service.md
 * §4.6, §5): every rule the client can check before a request leaves, the idempotency key, and for
 * an onramp paid in sats the amount in smallest units once the routes listing is known. Pure.
 */
import { inField, parseRequest, ProtocolError } from '../errors';
import { explicitIdempotencyKey, submitIdempotencyKey } from './idempotency';
import { checkOffered } from './enums';
import {
	assertNoClientFeeFields,
	normalizeAffiliateIds,
	requestWithAmount,
	smallestUnitAmount,
	withoutBlanks,
	type AmountInput,
	type RoutesLookup,
} from './quotePlan';
import { checkedMembers, mergeAdditionalFields } from './additionalFields';
import { type RouteAsset } from './responseSchemas';
import { OnrampDraftSchema, onrampAmountProblem, SubmitRequestSchema } from './schemas';

/** What the item asks for: the members the operation sets, the extra JSON, the key the user set. */
export interface OrderInput {
	request: Record<string, unknown>;
	additionalFields: Record<string, unknown>;
	/** The key the user set, as text (the reader's), checked here; undefined when unset. */
	idempotencyKey: string | undefined;
}

export interface SubmitPlan {
	request: Record<string, unknown>;
	idempotencyKey: string;
}

/**
 * Checks a submit body; its key is the user's, else one derived from the quote and the deposit
 * reference, so submitting one payment again replays the first answer instead of a second submit.
 */
export function planSubmit(input: OrderInput): SubmitPlan {
	const request = inField('additionalFields', () =>
		mergeAdditionalFields(
			withoutBlanks(input.request),
			input.additionalFields,
			[],
			checkedMembers(SubmitRequestSchema),
		),
	);
	parseRequest(SubmitRequestSchema, request);
	const idempotencyKey =
		explicitIdempotencyKey(input.idempotencyKey) ?? submitIdempotencyKey(request);
	return { request, idempotencyKey };
}

/** An onramp is paid over Lightning (orchestration-service.md §1). */
export const ONRAMP_SOURCE = 'lightning:BTC';

export interface OnrampInput extends OrderInput {
	/** The sats side, or undefined when the onramp is priced in USD (amountFiatUsd). */
	amount?: AmountInput;
	isClientKey: boolean;
}

export interface OnrampPlan {
	/** The checked request, without its amount. */
	draft: Record<string, unknown>;
	amount?: AmountInput;
	/** The routes listing is needed (decimal amount) or only adds readable amounts to the output. */
	routes: 'required' | 'optional';
	idempotencyKey?: string;
}

/** Checks an onramp without its amount: one of sats and USD, no client-key fee fields (§5), the key. */
export function planOnramp(input: OnrampInput): OnrampPlan {
	const draft = inField('additionalFields', () =>
		mergeAdditionalFields(
			withoutBlanks(input.request),
			input.additionalFields,
			input.amount ? ['amount'] : [],
			checkedMembers(OnrampDraftSchema),
		),
	);
	parseRequest(OnrampDraftSchema, draft);
	normalizeAffiliateIds(draft);
	const problem = onrampAmountProblem(
		input.amount !== undefined || draft.amount !== undefined,
		draft.amountFiatUsd !== undefined,
	);
	if (problem)
		throw new ProtocolError(problem.message, { field: problem.field, reason: 'invalid_request' });
	assertNoClientFeeFields(draft, input.isClientKey);
	const idempotencyKey = explicitIdempotencyKey(input.idempotencyKey);
	return {
		draft,
		amount: input.amount,
		routes: input.amount?.format === 'decimal' ? 'required' : 'optional',
		idempotencyKey,
	};
}

export interface PlannedOnramp {
	request: Record<string, unknown>;
	source?: RouteAsset;
	destination?: RouteAsset;
}

/**
 * The request with its sats amount in smallest units of the side it counts (the destination under
 * exact_out); a destination the routes listing does not offer is refused first (none without a listing).
 */
export function completeOnramp(plan: OnrampPlan, routes: RoutesLookup | undefined): PlannedOnramp {
	const { destinationChain, destinationAsset, amountMode } = plan.draft as Record<string, string>;
	checkOffered(routes, [
		{
			chainField: 'destinationChain',
			chain: destinationChain,
			assetField: 'destinationAsset',
			asset: destinationAsset,
		},
	]);
	const source = routes?.byRoutingKey(ONRAMP_SOURCE);
	const destination = routes?.find(destinationChain, destinationAsset);
	if (plan.amount === undefined) return { request: plan.draft, source, destination };
	const exactOut = amountMode === 'exact_out';
	const label = exactOut ? `${destinationChain}:${destinationAsset}` : ONRAMP_SOURCE;
	const amount = smallestUnitAmount(plan.amount, exactOut ? destination : source, label);
	return {
		request: requestWithAmount(plan.draft, amount, 'recipientAddress'),
		source,
		destination,
	};
}
