/**
 * The plan of Quote > Create, Estimate and Create Offramp (orchestration-service.md §4.1, §4.2,
 * public-notes): every rule the client can check before a request leaves, what to fetch first (the
 * routes listing, §4.3, when a decimal amount needs the asset's decimals), the request once the
 * amount is in smallest units, and the answer shaped for the next node. Pure.
 */
import { inField, parseRequest, ProtocolError } from '../errors';
import { checkOffered, isStablecoin, type OfferedRoutes } from './enums';
import { explicitIdempotencyKey } from './idempotency';
import { checkedMembers, mergeAdditionalFields } from './additionalFields';
import {
	assertWholeCents,
	decimalToSmallestUnit,
	FEE_FIELDS,
	withFormattedAmounts,
	type AmountFormat,
} from './amounts';
import type { ZodType } from 'zod';
import { depositOf, paymentLink } from './paymentUri';
import { type RouteAsset } from './responseSchemas';
import { normalizedAffiliateId, QuoteDraftSchema } from './schemas';

/** An offramp delivers over Lightning (orchestration-service.md §1). */
export const OFFRAMP_DESTINATION = 'lightning:BTC';

/** An amount as the user typed it: smallest units, or a decimal converted with the asset's decimals. */
export interface AmountInput {
	value: string;
	format: AmountFormat;
}

/** What the item asks for: the members the operation sets (amount apart), the extra JSON, the key. */
export interface QuoteInput {
	request: Record<string, unknown>;
	amount: AmountInput;
	additionalFields: Record<string, unknown>;
	/** The key the user set, as text (the reader's), checked here; undefined when unset. */
	idempotencyKey: string | undefined;
	isClientKey: boolean;
	/** Quote > Create and Create Offramp: the refund rule of the live service applies (checkRefund). */
	refundRule?: boolean;
	/** The destination chain when the operation fixes it rather than the request (an offramp pays over Lightning). */
	destinationChain?: string;
}

export interface QuotePlan {
	/** The checked request, without its amount. */
	draft: Record<string, unknown>;
	amount: AmountInput;
	/** The routes listing is needed (decimal amount) or only adds readable amounts to the output. */
	routes: 'required' | 'optional';
	idempotencyKey?: string;
}

/** The routes listing as a plan reads it: what it offers (checkOffered), an asset by chain and asset input. */
export interface AssetLookup extends OfferedRoutes {
	find(chain: string, asset: string): RouteAsset | undefined;
}

/** The routes listing as plans and answers read it: also by routing key, and a symbol's decimals. */
export interface RoutesLookup extends AssetLookup {
	byRoutingKey(id: string): RouteAsset | undefined;
	decimalsOfSymbol(symbol: string, preferredChains: Array<string | undefined>): number | undefined;
}

export interface PlannedQuote {
	request: Record<string, unknown>;
	source?: RouteAsset;
	destination?: RouteAsset;
}

/** Drops undefined and empty-string members so optional parameters left blank are not sent. */
export function withoutBlanks(body: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined && v !== ''));
}

/** The fee field a body sets (app fees, or affiliate fee overrides), which client keys may not send (§5). */
export function feeFieldOf(body: {
	appFees?: unknown;
	affiliateIds?: unknown;
}): 'appFees' | 'affiliateIds' | undefined {
	if (body.appFees !== undefined) return 'appFees';
	if (Array.isArray(body.affiliateIds) && body.affiliateIds.some((a) => typeof a !== 'string'))
		return 'affiliateIds';
	return undefined;
}

/** §5: quote, onramp and accumulation creation refuse client-key fee fields (403 client_key_fee_fields_forbidden). */
export function assertNoClientFeeFields(body: Record<string, unknown>, isClientKey: boolean): void {
	const field = isClientKey ? feeFieldOf(body) : undefined;
	if (field === undefined) return;
	const message =
		field === 'appFees'
			? 'client keys cannot send fee fields; remove the app fees or use a server key'
			: 'client keys cannot send affiliate fee overrides; give plain affiliate IDs or use a server key';
	throw new ProtocolError(message, { field, reason: 'client_key_fee_fields_forbidden' });
}

/** Whether the route needs a refund address: exact_out, or a Lightning destination (public-notes, live service). */
export function needsRefundAddress(
	draft: Record<string, unknown>,
	destinationChain: unknown = draft.destinationChain,
): boolean {
	return draft.amountMode === 'exact_out' || destinationChain === 'lightning';
}

/**
 * The refund rule before sending (public-notes: the live service answers 400 otherwise): a refund
 * address where the route needs one, and its chain the source chain (spec §4.1 "a source-chain
 * refund address"), which is also the default. Completes `draft.refundChain` in place. An
 * operation that fixes the destination (an offramp pays lightning:BTC) names its chain.
 */
export function checkRefund(
	draft: Record<string, unknown>,
	destinationChain: unknown = draft.destinationChain,
): void {
	const { refundAddress, refundChain, sourceChain } = draft;
	if (refundAddress === undefined && needsRefundAddress(draft, destinationChain)) {
		const fixed =
			draft.destinationChain === destinationChain
				? ''
				: ` (this operation always pays out on ${String(destinationChain)})`;
		const why =
			draft.amountMode === 'exact_out' ? 'Exact Out quotes' : `Lightning destinations${fixed}`;
		throw new ProtocolError(
			`is required for ${why}: give an address on the source chain (${String(sourceChain)}) where the service can send the funds back if the order cannot complete`,
			{ field: 'refundAddress', reason: 'refund_address_required' },
		);
	}
	if (refundChain !== undefined && refundChain !== sourceChain) {
		throw new ProtocolError(
			`must be the source chain (${String(sourceChain)}), got ${String(refundChain)}: refunds go back to the chain the deposit was paid on`,
			{
				field: 'refundChain',
				reason: 'refund_chain_not_source',
			},
		);
	}
	if (refundAddress !== undefined && refundChain === undefined) draft.refundChain = sourceChain;
}

/** An affiliate ID as the docs' rule reads it (trimmed, lowercased); the schema already refused a bad one. */
function affiliateIdText(value: unknown): unknown {
	return typeof value === 'string' ? (normalizedAffiliateId(value) ?? value) : value;
}

/** A list member with its affiliateId normalized (an `{affiliateId, ...}` object), others as they are. */
function withAffiliateId(entry: unknown): unknown {
	if (typeof entry !== 'object' || entry === null || !('affiliateId' in entry)) return entry;
	return {
		...entry,
		affiliateId: affiliateIdText((entry as { affiliateId: unknown }).affiliateId),
	};
}

/**
 * Every affiliate ID of a checked body as the service reads it (public-notes: trimmed and lowercased):
 * `affiliateId`, `affiliateIds[*]` (ids or overrides) and `appFees[*].affiliateId`. In place.
 */
export function normalizeAffiliateIds(draft: Record<string, unknown>): void {
	if (draft.affiliateId !== undefined) draft.affiliateId = affiliateIdText(draft.affiliateId);
	if (Array.isArray(draft.affiliateIds))
		draft.affiliateIds = draft.affiliateIds.map((ref) =>
			typeof ref === 'string' ? affiliateIdText(ref) : withAffiliateId(ref),
		);
	if (Array.isArray(draft.appFees)) draft.appFees = draft.appFees.map(withAffiliateId);
}

/**
 * Checks the item's quote (or estimate) request against its draft schema; additional fields may add
 * members, never replace the operation's (amount included).
 */
export function planQuote(input: QuoteInput, draftSchema: ZodType = QuoteDraftSchema): QuotePlan {
	const own = withoutBlanks(input.request);
	const draft = inField('additionalFields', () =>
		mergeAdditionalFields(own, input.additionalFields, ['amount'], checkedMembers(draftSchema)),
	);
	// The request goes out as built (members in the order set); the schema only checks it.
	parseRequest(draftSchema, draft);
	normalizeAffiliateIds(draft);
	assertNoClientFeeFields(draft, input.isClientKey);
	if (input.refundRule === true)
		checkRefund(draft, input.destinationChain ?? draft.destinationChain);
	const idempotencyKey = explicitIdempotencyKey(input.idempotencyKey);
	return {
		draft,
		amount: input.amount,
		routes: input.amount.format === 'decimal' ? 'required' : 'optional',
		idempotencyKey,
	};
}

/** The amount in smallest units of `asset` (the routes listing's decimals for a decimal amount). */
export function smallestUnitAmount(
	amount: AmountInput,
	asset: RouteAsset | undefined,
	assetLabel: string,
): string {
	if (amount.format === 'smallestUnit') return amount.value;
	if (asset === undefined) {
		const message = `the decimals of ${assetLabel} are not in the routes listing, so a decimal amount cannot be converted; give smallest units instead`;
		throw new ProtocolError(message, { field: 'amount', reason: 'unknown_decimals' });
	}
	return inField('amount', () => decimalToSmallestUnit(amount.value, asset.decimals, asset.id));
}

/** The request with `amount` right after the member `after` (where the service's examples put it). */
export function requestWithAmount(
	draft: Record<string, unknown>,
	amount: string,
	after: string,
): Record<string, unknown> {
	const request: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(draft)) {
		request[key] = value;
		if (key === after) request.amount = amount;
	}
	return request;
}

/**
 * The request with its amount in smallest units of the side it counts (§4.1: the source, or the
 * destination under exact_out); a stablecoin exact_out amount must be whole cents (§4.1). A chain
 * or asset the routes listing does not offer is refused first (checkOffered; none without a listing).
 */
export function completeQuote(plan: QuotePlan, routes: AssetLookup | undefined): PlannedQuote {
	const { sourceChain, sourceAsset, destinationChain, destinationAsset, amountMode } =
		plan.draft as Record<string, string>;
	checkOffered(routes, [
		{
			chainField: 'sourceChain',
			chain: sourceChain,
			assetField: 'sourceAsset',
			asset: sourceAsset,
		},
		{
			chainField: 'destinationChain',
			chain: destinationChain,
			assetField: 'destinationAsset',
			asset: destinationAsset,
		},
	]);
	const source = routes?.find(sourceChain, sourceAsset);
	const destination = routes?.find(destinationChain, destinationAsset);
	const exactOut = amountMode === 'exact_out';
	const label = exactOut
		? `${destinationChain}:${destinationAsset}`
		: `${sourceChain}:${sourceAsset}`;
	const amount = smallestUnitAmount(plan.amount, exactOut ? destination : source, label);
	if (exactOut && destination && isStablecoin(destination.asset)) {
		inField('amount', () => assertWholeCents(amount, destination.decimals, destination.id));
	}
	return {
		request: requestWithAmount(plan.draft, amount, 'destinationAsset'),
		source,
		destination,
	};
}

/**
 * Create Offramp's request: its source checked against the routes listing, the amount in smallest
 * units of the source (an offramp is exact in, §1), the destination lightning:BTC.
 */
export function completeOfframp(plan: QuotePlan, routes: RoutesLookup | undefined): PlannedQuote {
	const { sourceChain, sourceAsset } = plan.draft as Record<string, string>;
	checkOffered(routes, [
		{
			chainField: 'sourceChain',
			chain: sourceChain,
			assetField: 'sourceAsset',
			asset: sourceAsset,
		},
	]);
	const source = routes?.find(sourceChain, sourceAsset);
	const amount = smallestUnitAmount(plan.amount, source, `${sourceChain}:${sourceAsset}`);
	return {
		request: requestWithAmount(plan.draft, amount, 'sourceAsset'),
		source,
		destination: routes?.byRoutingKey(OFFRAMP_DESTINATION),
	};
}

// ---------------------------------------------------------------- the answer

export interface QuoteSides {
	catalogue?: RoutesLookup;
	source?: RouteAsset;
	destination?: RouteAsset;
}

function decimalsOf(symbol: unknown, sides: QuoteSides): number | undefined {
	if (typeof symbol !== 'string' || symbol === '') return undefined;
	for (const side of [sides.source, sides.destination]) {
		if (side && (side.asset === symbol || side.id === symbol || side.assetDisplaySymbol === symbol))
			return side.decimals;
	}
	return sides.catalogue?.decimalsOfSymbol(symbol, [sides.source?.chain, sides.destination?.chain]);
}

/** `...Formatted` next to amountIn (source), estimatedOut and lockedMinAmountOut (destination) and each fee. */
export function formatQuoteAmounts<T extends Record<string, unknown>>(
	body: T,
	sides: QuoteSides,
): T {
	const feeDecimals = decimalsOf(body.feeAsset, sides);
	const decimals: Record<string, number | undefined> = {
		amountIn: sides.source?.decimals,
		estimatedOut: sides.destination?.decimals,
		lockedMinAmountOut: sides.destination?.decimals,
		networkCostAmount: decimalsOf(body.networkCostAsset, sides),
	};
	for (const f of FEE_FIELDS) decimals[f] = feeDecimals;
	return withFormattedAmounts(body, decimals);
}

/** Whole seconds until `expiresAt` (never negative), or undefined when it is not a timestamp. */
export function secondsUntil(expiresAt: unknown, nowMs = Date.now()): number | undefined {
	if (typeof expiresAt !== 'string') return undefined;
	const t = Date.parse(expiresAt);
	if (Number.isNaN(t)) return undefined;
	return Math.max(0, Math.floor((t - nowMs) / 1000));
}

/**
 * A quote for the next node: formatted amounts, `secondsUntilExpiry` (a quote is firm for 2 min,
 * §1), `depositMemoRequired` (a memo or tag must go with the deposit when present, §2.2) and
 * `paymentUri` (the deposit as a wallet link, paymentUri.ts; null where no standard one fits or the
 * answer's address is not valid for its chain, and then `paymentUriUnavailable` says why).
 */
export function quoteOutput<T extends Record<string, unknown>>(
	body: T,
	sides: QuoteSides,
	nowMs = Date.now(),
): T {
	const out: Record<string, unknown> = formatQuoteAmounts(body, sides);
	const seconds = secondsUntil(body.expiresAt, nowMs);
	if (seconds !== undefined) out.secondsUntilExpiry = seconds;
	if ('depositAddress' in body) {
		out.depositMemoRequired =
			typeof body.depositMemo === 'string' && body.depositMemo.trim() !== '';
		const deposit = depositOf(body, sides.source);
		const link = deposit
			? paymentLink(deposit)
			: {
					unavailable:
						'no payment link: the deposit address, its amount or the source asset (routes listing) is missing',
				};
		out.paymentUri = 'uri' in link ? link.uri : null;
		if ('unavailable' in link) out.paymentUriUnavailable = link.unavailable;
	}
	return out as T;
}

// ---------------------------------------------------------------- is the quote still payable

export interface PayableCheck {
	/** The service replayed an earlier answer to this key (public-notes: X-Idempotency-Replayed: true). */
	replayed: boolean;
	/** Seconds the quote must still be firm for the next steps (0..EXPIRY_MARGIN_MAX_SECONDS of schemas.ts). */
	marginSeconds: number;
	nowMs?: number;
	/** Whether the operation has "Re-Quote When Expired" (Quote > Create), named in the next step; true when unset. */
	requoteOption?: boolean;
}

/** Why a quote answer must not be paid (expired, or firm for less than the margin), with the next step; undefined when payable. */
export interface UnpayableQuote {
	message: string;
	nextStep: string;
	/** Only a replayed answer is cured by a new key; a fresh one would come back the same. */
	requotable: boolean;
}

/**
 * A quote is payable until `expiresAt` (§1, §2.2); a replayed answer (public-notes) can be long
 * expired, and paying its deposit address would pay a dead quote. Needs `marginSeconds` of life left.
 */
export function unpayableQuote(
	body: Record<string, unknown>,
	check: PayableCheck,
): UnpayableQuote | undefined {
	const nowMs = check.nowMs ?? Date.now();
	const expiresMs = typeof body.expiresAt === 'string' ? Date.parse(body.expiresAt) : Number.NaN;
	if (Number.isNaN(expiresMs)) return undefined;
	const left = Math.floor((expiresMs - nowMs) / 1000);
	if (left >= check.marginSeconds && expiresMs > nowMs) return undefined;
	const quote = `Quote ${typeof body.quoteId === 'string' ? body.quoteId : '(no quoteId)'}`;
	const when =
		expiresMs <= nowMs
			? `expired at ${body.expiresAt as string} (${Math.floor((nowMs - expiresMs) / 1000)} s ago)`
			: `expires at ${body.expiresAt as string}, in ${left} s, less than the margin of ${check.marginSeconds} s ("Expiry Margin (Seconds)")`;
	if (check.replayed) {
		return {
			message: `${quote} ${when}: the service replayed an earlier answer to this idempotency key, so its deposit address must not be paid`,
			nextStep:
				check.requoteOption === false
					? 'Give this payout a new Idempotency Key (for example with the recipient and the date in it): a new key gets a new quote.'
					: 'Give this payout a new Idempotency Key (for example with the recipient and the date in it), or turn on the option "Re-Quote When Expired" to get a new quote under a key derived from this one.',
			requotable: true,
		};
	}
	return {
		message: `${quote} ${when}, so its deposit address must not be paid`,
		nextStep:
			'Run the step again for a new quote, or lower "Expiry Margin (Seconds)" (a quote is firm for 2 minutes).',
		requotable: false,
	};
}
