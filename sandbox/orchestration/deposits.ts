import { randomBytes } from 'node:crypto';
import type { OrchestrationContext } from './context';
import { ApiError, conflict, notFound } from './errors';
import { priceExactIn } from './pricing';
import { assertQuoteLive } from './quotes';
import type { OrderRecord, Outcome, QuoteRecord } from './state';

export interface DepositOptions {
	outcome?: Outcome;
	autoAdvance?: boolean;
	/** The deposit transaction (status by txHash + sourceChain finds the order by it). */
	txHash?: string;
}

/** A deposit transaction id as the chain writes it: 64 hex digits, with 0x on EVM-style chains. */
export function simulatedTxHash(chain: string): string {
	const hex = randomBytes(32).toString('hex');
	return chain === 'bitcoin' || chain === 'litecoin' || chain === 'spark' || chain === 'lightning' ? hex : `0x${hex}`;
}

/** Creates the order of a quote; `funded` starts it moving (submit and deposits), null waits (onramp). */
export function orderFromQuote(
	ctx: OrchestrationContext,
	quote: QuoteRecord,
	funded: { amountPaid: bigint } | null,
	options: DepositOptions = {},
): OrderRecord {
	const r = quote.response;
	const order = ctx.orders.create(
		{
			origin: quote.kind === 'onramp' ? 'onramp' : 'quote',
			partnerId: quote.partnerId,
			keyId: quote.keyId,
			quoteId: quote.quoteId,
			source: quote.source,
			destination: quote.destination,
			recipientAddress: quote.recipientAddress,
			depositAddress: quote.depositAddress,
			amountIn: BigInt(r.amountIn as string),
			estimatedOut: BigInt(r.estimatedOut as string),
			feeAmount: BigInt(r.feeAmount as string),
			feeBps: r.feeBps as number,
			amountMode: quote.amountMode,
			feePlan: quote.feePlan,
			fiat: quote.fiat,
			outcome: options.outcome ?? quote.outcome ?? 'completed',
			autoAdvance: options.autoAdvance ?? ctx.switches.autoAdvance,
			...(quote.amountless ? { amountless: true } : {}),
			...(options.txHash ? { depositTxHash: options.txHash } : {}),
			lock: {
				quotedAmountIn: BigInt(r.amountIn as string),
				quotedAmountOut: BigInt(r.estimatedOut as string),
				lockedMinAmountOut: BigInt(r.lockedMinAmountOut as string),
				slippageBps: quote.slippageBps ?? 100,
				createdAt: new Date(quote.createdAtMs).toISOString(),
				expiresAt: r.expiresAt as string,
			},
			...(quote.refundAddress ? { refundAddress: quote.refundAddress } : {}),
			...(quote.payLink ? { payLink: quote.payLink } : {}),
			...(quote.invoiceBilled ? { invoiceBilled: true } : {}),
		},
		null,
	);
	quote.orderId = order.id;
	if (funded) ctx.orders.fund(order, funded.amountPaid);
	return order;
}

/**
 * POST /sandbox/deposits: paying a deposit address creates (or funds) the order. A deposit to an
 * expired quote's address creates no order (409 quote_expired); accumulation and liquidation
 * addresses create orders with `quoteId` null (spec §2.10). A deposit to the address of an
 * `unfulfilled` order is a late deposit: the order resumes (public-notes), expired quote or not.
 */
export function simulateDeposit(ctx: OrchestrationContext, depositAddress: string, amount: bigint, options: DepositOptions): OrderRecord {
	if (options.outcome?.startsWith('zeroconf')) assertZeroconfSource(ctx, depositAddress);
	const quoteId = ctx.state.quotesByDeposit.get(depositAddress);
	if (quoteId) {
		const quote = ctx.state.quotes.get(quoteId) as QuoteRecord;
		const existing = quote.orderId ? ctx.state.orders.get(quote.orderId) : undefined;
		if (existing) {
			if (existing.status === 'unfulfilled' && existing.fundedAt) {
				ctx.orders.resume(existing, amount, options);
				return existing;
			}
			if (existing.origin !== 'onramp') throw conflict('conflict', `the deposit address of quote ${quoteId} was already paid`);
			assertQuoteLive(ctx, quote);
			if (options.txHash) existing.depositTxHash = options.txHash;
			ctx.orders.fund(existing, amount, options);
			return existing;
		}
		assertQuoteLive(ctx, quote);
		return orderFromQuote(ctx, quote, { amountPaid: amount }, options);
	}
	return standingAddressDeposit(ctx, depositAddress, amount, options);
}

function standingAddressDeposit(ctx: OrchestrationContext, depositAddress: string, amount: bigint, options: DepositOptions): OrderRecord {
	const view = { v2: true, equityAdmission: true, large: true };
	const acc = [...ctx.state.accumulation.values()].find((a) => a.depositAddress === depositAddress);
	const liq = acc ? undefined : [...ctx.state.liquidation.values()].find((l) => l.l1DepositAddress === depositAddress || l.sparkAddress === depositAddress);
	if (!acc && !liq) throw notFound('no quote, accumulation or liquidation address has this deposit address');
	if ((acc ?? liq)?.enabled === false) throw conflict('invalid_state', 'this standing address is disabled');
	const source = acc
		? ctx.catalogue.find(acc.sourceChain, acc.sourceAsset, view)
		: ctx.catalogue.find(liq?.l1DepositAddress === depositAddress ? 'bitcoin' : 'spark', 'BTC', view);
	const destination = acc
		? ctx.catalogue.find('spark', acc.destinationAsset, view)
		: ctx.catalogue.find(liq?.destination.chain ?? '', liq?.destination.asset ?? '', view);
	if (!source || !destination) throw new ApiError(500, 'internal_error', 'a seeded standing address names an asset missing from the catalogue');
	const feeBps = (acc ?? liq)?.feeBps ?? 30;
	const priced = priceExactIn(amount, source, destination, feeBps);
	return ctx.orders.create(
		{
			origin: acc ? 'accumulation' : 'liquidation',
			partnerId: (acc ?? liq)?.partnerId ?? null,
			keyId: null,
			quoteId: null,
			source,
			destination,
			recipientAddress: acc ? acc.recipientSparkAddress : (liq?.destination.address ?? ''),
			depositAddress,
			amountIn: amount,
			estimatedOut: priced.estimatedOut,
			feeAmount: priced.feeAmount,
			feeBps,
			amountMode: 'exact_in',
			outcome: options.outcome ?? 'completed',
			autoAdvance: options.autoAdvance ?? ctx.switches.autoAdvance,
			...(options.txHash ? { depositTxHash: options.txHash } : {}),
		},
		{ amountPaid: amount },
	);
}

/** ZeroConf offers exist for Bitcoin L1 deposits only (spec §1). */
function assertZeroconfSource(ctx: OrchestrationContext, depositAddress: string): void {
	const quoteId = ctx.state.quotesByDeposit.get(depositAddress);
	const chain = quoteId ? ctx.state.quotes.get(quoteId)?.source.chain : depositAddress.startsWith('bc1') ? 'bitcoin' : undefined;
	if (chain !== 'bitcoin') throw new ApiError(400, 'invalid_request', 'outcome zeroconf needs a Bitcoin L1 deposit');
}
