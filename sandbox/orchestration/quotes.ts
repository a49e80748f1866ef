import type { FastifyRequest } from 'fastify';
import type { DepositTransactionRule } from '../faults';
import { isStablecoin, parseRoutingKey, QUOTE_TTL_MS, withoutTonAlias } from './spec';
import { isWholeCents } from './units';
import { checkAddress, depositAddressFor, depositMemoFor } from './addresses';
import type { CatalogueAsset, CatalogueView } from './catalogue';
import type { Caller, OrchestrationContext } from './context';
import { honestDepositTransaction, placeAt, ruleFits, variantDepositTransaction } from './depositTransaction';
import { ApiError, badRequest } from './errors';
import { type FeeInput, resolveFeePlan, totalFeeBps } from './fees';
import { type Economics, PLATFORM_FEE_BPS, priceExactIn, priceExactOut, routeLimits, usdToUnits } from './pricing';
import type { FeePlan, Outcome, QuoteRecord } from './state';

/** The quote inputs shared by quote, estimate, offramp and onramp (spec §4.1, public-notes). */
export interface QuoteInput extends FeeInput {
	sourceChain: string;
	sourceAsset: string;
	destinationChain: string;
	destinationAsset: string;
	amount: string;
	amountMode?: 'exact_in' | 'exact_out';
	deliveryMode?: 'variable' | 'fixed';
	recipientAddress?: string;
	slippageBps?: number;
	includeCalldata?: boolean;
	refundAddress?: string;
	refundChain?: string;
	zeroconfEnabled?: boolean;
	/** spec §1: mint an amountless invoice (request name unconfirmed, public-notes). */
	amountlessInvoice?: boolean;
}

export interface PricedQuote {
	input: QuoteInput;
	source: CatalogueAsset;
	destination: CatalogueAsset;
	amountMode: 'exact_in' | 'exact_out';
	fixed: boolean;
	economics: Economics;
	feePlan?: FeePlan;
	/** The partner is billed by invoice: no platform fee in the economics (public-notes, fourth harvest). */
	invoiced?: boolean;
}

/** Addresses the sandbox treats as sanctioned (spec §4.1: sanctioned refund addresses are rejected). */
export const SANCTIONED_ADDRESSES = new Set(['0x000000000000000000000000000000000000dEaD'.toLowerCase()]);
const DEFAULT_SLIPPAGE_BPS = 100;

/** A symbol or routing key (TON alias included, spec §2.1) resolved on `chain`. */
export function resolveAsset(ctx: OrchestrationContext, chain: string, input: string, view: CatalogueView, field: string): CatalogueAsset {
	const normalized = withoutTonAlias(input);
	const key = parseRoutingKey(normalized);
	if (key && key.chain !== chain) throw badRequest(`${field}: routing key ${normalized} is not on ${chain}`);
	const symbol = key ? key.asset : normalized;
	// public-notes "Chains": the routes listing is the authority on which chains exist
	const chainField = field.replace(/Asset$/, 'Chain');
	if (!ctx.catalogue.hasChain(chain)) throw badRequest(`${chainField}: ${chain} is not a chain of the routes listing`, 'unsupported_route');
	const found = ctx.catalogue.find(chain, symbol, view);
	if (!found) throw badRequest(`${field}: ${symbol} on ${chain} is not in the routes listing`, 'unsupported_route');
	return found;
}

/** Whether a partner is billed by invoice (the `invoiceBilling` switch). */
export function isInvoiceBilled(ctx: OrchestrationContext, partnerId: string | null | undefined): boolean {
	return partnerId !== null && partnerId !== undefined && ctx.switches.invoiceBilling[partnerId] === true;
}

/** Validation and economics without side effects (spec §4.1, §8). */
export interface PriceOptions {
	/** Quote creation enforces the live service's refund-address rule; estimates and offramps do not. */
	requireRefund?: boolean;
	/** Offramp recipients ($username) were already checked by their schema. */
	skipRecipientCheck?: boolean;
}

export function priceQuote(
	ctx: OrchestrationContext,
	caller: Caller | undefined,
	input: QuoteInput,
	view: CatalogueView,
	options: PriceOptions = {},
): PricedQuote {
	const feePlan = resolveFeePlan(caller, input);
	const source = resolveAsset(ctx, input.sourceChain, input.sourceAsset, view, 'sourceAsset');
	const destination = resolveAsset(ctx, input.destinationChain, input.destinationAsset, view, 'destinationAsset');
	if (!ctx.catalogue.reaches(source, destination, 'to')) {
		throw badRequest(`no route from ${source.id} to ${destination.id}`, 'unsupported_route');
	}
	const amountMode = input.amountMode ?? 'exact_in';
	const fixed = input.deliveryMode === 'fixed';
	if (amountMode === 'exact_out') {
		if (!ctx.catalogue.reaches(source, destination, 'exactOutTo')) {
			throw badRequest(`exact_out is not offered from ${source.id} to ${destination.id}`, 'unsupported_amount_mode');
		}
		// spec §4.1: stablecoin exact_out amounts must be whole cents
		if (isStablecoin(destination.asset) && !isWholeCents(input.amount, destination.decimals)) {
			throw badRequest(`amount: stablecoin exact_out amounts must be whole cents (${destination.asset} has ${destination.decimals} decimals)`);
		}
	}
	if (fixed && !ctx.catalogue.reaches(source, destination, 'fixedTo')) {
		throw badRequest(`fixed delivery is not offered from ${source.id} to ${destination.id}`, 'unsupported_route');
	}
	if (input.includeCalldata && !source.chainInfo.chainId?.startsWith('eip155:')) {
		throw badRequest('includeCalldata is supported only for EVM native and ERC-20 sources', 'calldata_unsupported_source');
	}
	checkAddresses(input, source, destination, amountMode, options);
	const amount = BigInt(input.amount);
	const invoiced = isInvoiceBilled(ctx, caller?.partner.partnerId);
	const bps = totalFeeBps(feePlan) - (invoiced ? PLATFORM_FEE_BPS : 0);
	const economics = amountMode === 'exact_out'
		? priceExactOut(amount, source, destination, bps)
		: priceExactIn(amount, source, destination, bps);
	checkAmountBounds(source, destination, amountMode, amount, economics.estimatedOut);
	return { input, source, destination, amountMode, fixed, economics, feePlan, ...(invoiced ? { invoiced } : {}) };
}

/**
 * public-notes (fourth harvest): 400 amount_too_small / amount_too_large outside the bounds GET /limits
 * reports for the request's leg (`exactIn.requestAmount` in source units, `exactOut.requestAmount`
 * in destination units; both the route's `orderNotionalUsd`); an amount that delivers nothing is too small.
 */
export function checkAmountBounds(source: CatalogueAsset, destination: CatalogueAsset, amountMode: string, amount: bigint, estimatedOut: bigint): void {
	const { minAmount, maxAmount, minCents, maxCents } = routeLimits(source, destination);
	const leg = amountMode === 'exact_out' ? destination : source;
	const [min, max] = amountMode === 'exact_out' ? [usdToUnits(minCents / 100n, destination), usdToUnits(maxCents / 100n, destination)] : [minAmount, maxAmount];
	const usd = (cents: bigint) => `${cents / 100n} USD`;
	if (amount < min || estimatedOut === 0n) throw badRequest(`amount: below the route minimum of ${min} ${leg.asset} smallest units (${usd(minCents)})`, 'amount_too_small');
	if (amount > max) throw badRequest(`amount: above the route maximum of ${max} ${leg.asset} smallest units (${usd(maxCents)})`, 'amount_too_large');
}

function checkAddresses(input: QuoteInput, source: CatalogueAsset, destination: CatalogueAsset, amountMode: string, options: PriceOptions): void {
	if (input.recipientAddress !== undefined && !options.skipRecipientCheck) {
		const problem = checkAddress(destination.chainInfo.format, input.recipientAddress);
		if (problem) throw badRequest(`recipientAddress ${problem}`, 'invalid_address');
		if (SANCTIONED_ADDRESSES.has(input.recipientAddress.toLowerCase())) throw badRequest('recipientAddress is not allowed', 'invalid_address');
	}
	// public-notes: the live service needs a refund address for exact_out and Lightning destinations
	const needsRefund = amountMode === 'exact_out' || destination.chain === 'lightning';
	if (options.requireRefund && needsRefund && input.refundAddress === undefined) {
		throw badRequest('refundAddress: required for exact_out quotes and Lightning destinations');
	}
	if (input.refundChain !== undefined && input.refundChain !== source.chain) {
		throw badRequest(`refundChain: must be the source chain ${source.chain}`);
	}
	if (input.refundAddress !== undefined) {
		const problem = checkAddress(source.chainInfo.format, input.refundAddress);
		if (problem) throw badRequest(`refundAddress ${problem}`, 'invalid_address');
		if (SANCTIONED_ADDRESSES.has(input.refundAddress.toLowerCase())) throw badRequest('refundAddress is sanctioned', 'invalid_address');
	}
}

/** The economics part of a quote answer (also the estimate answer). */
export function economicsBody(p: PricedQuote): Record<string, unknown> {
	const e = p.economics;
	const slippage = BigInt(p.input.slippageBps ?? DEFAULT_SLIPPAGE_BPS);
	const lockedMin = p.fixed ? e.estimatedOut : (e.estimatedOut * (10_000n - slippage)) / 10_000n;
	const appFeeBps = p.feePlan ? p.feePlan.totalFeeBps - p.feePlan.platformFeeBps : 0;
	return {
		amountMode: p.amountMode,
		sourceChain: p.source.chain,
		sourceAsset: p.source.asset,
		destinationChain: p.destination.chain,
		destinationAsset: p.destination.asset,
		amountIn: e.amountIn.toString(),
		estimatedOut: e.estimatedOut.toString(),
		feeAmount: e.feeAmount.toString(),
		roundingFeeAmount: e.roundingFeeAmount.toString(),
		totalFeeAmount: (e.feeAmount + e.roundingFeeAmount).toString(),
		feeBps: e.feeBps,
		feeAsset: p.source.asset,
		...(appFeeBps > 0 ? { appFeeAmount: ((e.amountIn * BigInt(appFeeBps)) / 10_000n).toString() } : {}),
		route: p.source.asset === p.destination.asset ? [p.source.asset] : [p.source.asset, p.destination.asset],
		...(p.fixed ? { deliveryMode: 'fixed', priceLockMode: 'strict_requote' } : {}),
		lockedMinAmountOut: lockedMin.toString(),
		networkCostAmount: '0',
		networkCostAsset: p.source.asset,
		networkCostRequired: false,
		networkCosts: [],
	};
}

/** Stores a priced quote with a fresh deposit address; firm for 2 minutes, scaled (spec §1, §3). */
export function createQuote(
	ctx: OrchestrationContext,
	caller: Caller | undefined,
	p: PricedQuote,
	kind: QuoteRecord['kind'],
	idempotencyKey: string | null,
	extras: { outcome?: Outcome; fiat?: QuoteRecord['fiat']; request?: FastifyRequest } = {},
): QuoteRecord {
	const quoteId = ctx.state.nextId('q');
	const counter = ctx.state.nextCounter();
	const format = p.source.chainInfo.format;
	const depositAddress = depositAddressFor(format, counter, format === 'lightning' ? p.economics.amountIn : undefined);
	const depositMemo = depositMemoFor(format, counter);
	const createdAtMs = ctx.clock.now();
	const expiresAtMs = ctx.clock.after(QUOTE_TTL_MS);
	const response: Record<string, unknown> = {
		quoteId,
		...economicsBody(p),
		recipientAddress: p.input.recipientAddress,
		depositAddress,
		...(depositMemo ? { depositMemo } : {}),
		expiresAt: new Date(expiresAtMs).toISOString(),
		...(p.input.includeCalldata ? { depositTransaction: honestDepositTransaction(p.source, depositAddress, p.economics.amountIn) } : {}),
		// spec §2.2: a boolean `true` marks an amountless invoice (response name unconfirmed too)
		...(p.input.amountlessInvoice ? { amountlessInvoice: true } : {}),
	};
	const rule = extras.request
		? ctx.faults.takeForHandler(extras.request, 'depositTransaction', (r) => r.depositTransaction !== undefined && ruleFits(r.depositTransaction, p.source))
		: undefined;
	if (rule?.depositTransaction) applyDepositTransactionRule(response, rule.depositTransaction, p, depositAddress);
	const record: QuoteRecord = {
		quoteId, kind, idempotencyKey, createdAtMs, expiresAtMs, response, depositAddress, depositMemo,
		partnerId: caller?.partner.partnerId ?? null,
		keyId: caller?.keyId ?? null,
		source: p.source,
		destination: p.destination,
		recipientAddress: p.input.recipientAddress ?? '',
		amountMode: p.amountMode,
		feePlan: p.feePlan,
		// public-notes: an opted-in Bitcoin L1 deposit gets an offer that waits for the partner's answer
		outcome: extras.outcome ?? (p.input.zeroconfEnabled && p.source.chain === 'bitcoin' ? 'zeroconf_offer' : undefined),
		fiat: extras.fiat,
		...(p.input.amountlessInvoice ? { amountless: true } : {}),
		slippageBps: p.input.slippageBps ?? DEFAULT_SLIPPAGE_BPS,
		...(p.invoiced ? { invoiceBilled: true } : {}),
		refundAddress: p.input.refundAddress,
	};
	ctx.state.quotes.set(quoteId, record);
	ctx.state.quotesByDeposit.set(depositAddress, quoteId);
	return record;
}

/** A `depositTransaction` fault rule: the answer carries its variant (and the honest one too with `keepHonest`). */
function applyDepositTransactionRule(response: Record<string, unknown>, rule: DepositTransactionRule, p: PricedQuote, depositAddress: string): void {
	const amountIn = p.economics.amountIn;
	const member = rule.member ?? 'depositTransaction';
	delete response.depositTransaction;
	if (rule.keepHonest) response.depositTransaction = honestDepositTransaction(p.source, depositAddress, amountIn, rule.chainIdForm);
	placeAt(response, member, variantDepositTransaction(rule, p.source, depositAddress, amountIn));
}

/** 409 `quote_expired` once `expiresAt` has passed (public-notes). */
export function assertQuoteLive(ctx: OrchestrationContext, quote: QuoteRecord): void {
	if (ctx.clock.now() >= quote.expiresAtMs) {
		throw new ApiError(409, 'quote_expired', `quote ${quote.quoteId} expired at ${new Date(quote.expiresAtMs).toISOString()}`);
	}
}
