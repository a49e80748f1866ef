/**
 * Payments to standing deposit addresses (public-notes "Standing deposit addresses"): each one is a
 * deposit record of its reference; while the instruction is enabled it becomes an order with
 * `quoteId = null` (reported by the partner webhooks, like every order), while paused it is held
 * instead of converted. Resuming converts later payments; what was held stays held until the
 * partner asks for its refund (an asynchronous refund to one address).
 */
import { checkAddress } from './addresses';
import { CHAIN_INFO } from './catalogue-data';
import type { CatalogueAsset } from './catalogue';
import { catalogueView, type OrchestrationContext } from './context';
import { simulatedTxHash, type DepositOptions } from './deposits';
import { ApiError, badRequest } from './errors';
import { PLATFORM_FEE_BPS, priceExactIn } from './pricing';
import type { OrderRecord } from './state';
import type { StandingDeposit, StandingRecord } from './partnerBook';
import { SANCTIONED_ADDRESSES } from './quotes';
import { depositOfferView } from './zeroconf';

/** The asset a payment to each address family is in when the control call names none. */
const DEFAULT_SOURCE: Record<string, { chain: string; asset: string }> = {
	evm: { chain: 'base', asset: 'USDC' },
	solana: { chain: 'solana', asset: 'USDC' },
	bitcoin: { chain: 'bitcoin', asset: 'BTC' },
	tron: { chain: 'tron', asset: 'USDT' },
};

/** What a control payment may say about itself besides the address and the amount. */
export interface StandingPayment extends DepositOptions {
	sourceChain?: string;
	sourceAsset?: string;
	senderAddress?: string;
	/** The transaction output the deposit is (Bitcoin), else null. */
	sourceTxIndex?: number;
}

/** The instruction one of whose addresses is `address`, with the address family. */
export function standingOf(ctx: OrchestrationContext, address: string): { record: StandingRecord; family: string } | undefined {
	for (const record of ctx.state.partnerBook.standing.values()) {
		const family = Object.entries(record.addresses).find(([, a]) => a === address)?.[0];
		if (family !== undefined) return { record, family };
	}
	return undefined;
}

/** The paid asset: the named one, which must be on a chain of the address's family, or the family's default. */
function sourceOf(ctx: OrchestrationContext, record: StandingRecord, family: string, payment: StandingPayment): CatalogueAsset {
	const fallback = DEFAULT_SOURCE[family];
	const chain = payment.sourceChain ?? fallback.chain;
	const asset = payment.sourceAsset ?? (payment.sourceChain === undefined ? fallback.asset : undefined);
	if (asset === undefined) throw badRequest('sourceAsset: required with sourceChain');
	if (CHAIN_INFO[chain]?.format !== family) throw badRequest(`sourceChain: ${chain} cannot pay the ${family} address of this instruction`);
	const found = ctx.catalogue.find(chain, asset, catalogueView(ctx, record.partnerId));
	if (!found) throw badRequest(`${chain}:${asset} is not in the catalogue`);
	return found;
}

/** The order of a converted deposit: the instruction's destination, its fee and its frozen affiliates. */
function orderOf(ctx: OrchestrationContext, record: StandingRecord, source: CatalogueAsset, deposit: StandingDeposit, depositAddress: string, payment: StandingPayment): OrderRecord {
	const { destination } = record.instruction as { destination: { chain: string; asset: string; address: string } };
	const target = ctx.catalogue.find(destination.chain, destination.asset, catalogueView(ctx, record.partnerId));
	if (!target) throw new ApiError(500, 'internal_error', 'a standing instruction names a destination missing from the catalogue');
	const partnerFeeBps = Number(record.instruction.feeBps ?? 0);
	const appFees = record.frozenAffiliates;
	const appBps = appFees.reduce((sum, a) => sum + a.feeBps, 0) + partnerFeeBps;
	const feeBps = PLATFORM_FEE_BPS + appBps;
	const priced = priceExactIn(deposit.amount, source, target, feeBps);
	return ctx.orders.create(
		{
			origin: 'standing',
			partnerId: record.partnerId,
			keyId: null,
			quoteId: null,
			source,
			destination: target,
			recipientAddress: destination.address,
			depositAddress,
			amountIn: deposit.amount,
			estimatedOut: priced.estimatedOut,
			feeAmount: priced.feeAmount,
			feeBps,
			amountMode: 'exact_in',
			...(appFees.length > 0 ? { feePlan: { platformFeeBps: PLATFORM_FEE_BPS, appFees: appFees.map((a) => ({ ...a })), totalFeeBps: feeBps } } : {}),
			outcome: payment.outcome ?? 'completed',
			autoAdvance: payment.autoAdvance ?? ctx.switches.autoAdvance,
			depositTxHash: deposit.sourceTxId,
		},
		{ amountPaid: deposit.amount },
	);
}

/** A payment of `amount` to a standing address: its deposit record, and the order when the instruction is enabled. */
export function payStandingAddress(
	ctx: OrchestrationContext,
	found: { record: StandingRecord; family: string },
	depositAddress: string,
	amount: bigint,
	payment: StandingPayment,
): { deposit: StandingDeposit; order: OrderRecord | null } {
	const { record, family } = found;
	const source = sourceOf(ctx, record, family, payment);
	if (payment.outcome?.startsWith('zeroconf') && source.chain !== 'bitcoin') throw badRequest('outcome zeroconf needs a Bitcoin L1 deposit');
	const held = !record.enabled;
	if (held) record.heldBatchId ??= ctx.state.nextId('bat');
	const deposit: StandingDeposit = {
		id: ctx.state.nextId('dep'),
		chain: source.chain,
		asset: source.asset,
		amount,
		sourceTxId: payment.txHash ?? simulatedTxHash(source.chain),
		sourceTxIndex: payment.sourceTxIndex ?? (source.chain === 'bitcoin' ? 0 : null),
		senderAddress: payment.senderAddress ?? null,
		observedAt: new Date(ctx.clock.now()).toISOString(),
		status: held ? 'held' : 'converted',
		code: held ? 'standing_address_paused' : null,
		batchId: held ? record.heldBatchId : null,
		batchState: held ? 'held' : null,
		orderId: null,
		refundTxId: null,
	};
	record.deposits.push(deposit);
	const order = held ? null : orderOf(ctx, record, source, deposit, depositAddress, payment);
	if (order) deposit.orderId = order.id;
	return { deposit, order };
}

/** Pause (hold later deposits in a new batch) or resume (convert later deposits). */
export function setStandingEnabled(record: StandingRecord, enabled: boolean): void {
	if (record.enabled !== enabled) record.heldBatchId = null;
	record.enabled = enabled;
}

/** A deposit as the listing answers it (amounts as integer strings). */
export function depositView(d: StandingDeposit, order?: OrderRecord): Record<string, unknown> {
	return {
		id: d.id,
		chain: d.chain,
		asset: d.asset,
		amount: d.amount.toString(),
		sourceTxId: d.sourceTxId,
		sourceTxIndex: d.sourceTxIndex,
		senderAddress: d.senderAddress,
		observedAt: d.observedAt,
		status: d.status,
		code: d.code,
		batchId: d.batchId,
		orderId: d.orderId,
		quoteId: null,
		batchState: d.batchState,
		refundTxId: d.refundTxId,
		zeroconfOffer: depositOfferView(order?.zeroconfOffer),
	};
}

/**
 * The refund of held deposits (public-notes: asynchronous eligibility checks): 400 `invalid_state`
 * unless each is held, 400 `invalid_address` unless the address fits each deposit's chain; then
 * `refund_requested`, and `refunded` with a `refundTxId` one order step later (scaled) while
 * `autoAdvance` is on (by hand otherwise: POST /sandbox/standing-batches/:batchId/settle).
 */
export function requestHeldRefund(ctx: OrchestrationContext, record: StandingRecord, deposits: StandingDeposit[], refundAddress: string): void {
	for (const d of deposits) {
		if (d.status !== 'held') throw badRequest(`deposit ${d.id} is ${d.status}, not held`, 'invalid_state');
	}
	for (const chain of new Set(deposits.map((d) => d.chain))) {
		const problem = checkAddress(CHAIN_INFO[chain].format, refundAddress);
		if (problem) throw badRequest(`refundAddress ${problem} (the deposit to refund is on ${chain})`, 'invalid_address');
	}
	if (SANCTIONED_ADDRESSES.has(refundAddress.toLowerCase())) throw badRequest('refundAddress is sanctioned', 'invalid_address');
	for (const d of deposits) Object.assign(d, { status: 'refund_requested', batchState: 'refund_requested', refundAddress });
	// a batch with nothing held any more takes no later payment: the next one while paused opens a new batch
	if (record.heldBatchId !== null && !record.deposits.some((d) => d.batchId === record.heldBatchId && d.status === 'held')) record.heldBatchId = null;
	if (ctx.switches.autoAdvance) ctx.clock.schedule(ctx.switches.orderStepMs, () => settleHeldRefund(deposits, 'refunded'));
}

/** The end of a requested refund: `refunded` with a refund transaction, or `refund_failed` (held deposits the checks refused). */
export function settleHeldRefund(deposits: StandingDeposit[], outcome: 'refunded' | 'failed'): void {
	for (const d of deposits) {
		if (d.status !== 'refund_requested') continue;
		const state = outcome === 'refunded' ? 'refunded' : 'refund_failed';
		Object.assign(d, { status: state, batchState: state, refundTxId: outcome === 'refunded' ? simulatedTxHash(d.chain) : null });
	}
}
