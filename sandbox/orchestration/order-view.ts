import type { PublicStatus } from './spec';
import type { OrderRecord } from './state';

/** How much more than the required input an exact-out deposit may pay (the sandbox's choice). */
const EXACT_OUT_BUFFER_BPS = 100n;

/** The public status: an internally paused order shows as processing (spec §3). */
export function publicStatus(order: OrderRecord): PublicStatus {
	return order.paused ? 'processing' : order.status;
}

/** The order snapshot (spec §2.10): webhook `data`, status `order`, order-by-quote `order`. */
export function orderSnapshot(order: OrderRecord): Record<string, unknown> {
	const exactOut = order.amountMode === 'exact_out';
	const paymentIntent = exactOut || order.fiat
		? {
			amountMode: order.amountMode,
			...(exactOut ? { amountOut: order.estimatedOut.toString(), ...exactOutIntent(order) } : {}),
			...(order.fiat ? { amountFiatUsd: order.fiat.amountFiatUsd, amountFiatCurrency: 'USD' } : {}),
		}
		: undefined;
	return {
		id: order.id,
		status: publicStatus(order),
		quoteId: order.quoteId,
		createdAt: order.createdAt,
		updatedAt: order.updatedAt,
		sourceChain: order.source.chain,
		sourceAsset: order.source.asset,
		destinationChain: order.destination.chain,
		destinationAsset: order.destination.asset,
		recipientAddress: order.recipientAddress,
		depositAddress: order.depositAddress,
		amountIn: order.amountIn.toString(),
		estimatedOut: order.estimatedOut.toString(),
		amountOut: order.amountOut === null ? null : order.amountOut.toString(),
		feeAmount: order.feeAmount.toString(),
		feeAsset: order.source.asset,
		feeBps: order.feeBps,
		...(paymentIntent ? { paymentIntent } : {}),
		...(order.fiat
			? { amountFiatUsd: order.fiat.amountFiatUsd, amountFiatCurrency: 'USD', spotUsdPerBtc: order.fiat.spotUsdPerBtc }
			: {}),
		payLinkId: order.payLink?.id ?? null,
		// spec 2.10: present only when the pay link was created with a label
		...(order.payLink?.label !== undefined ? { payLinkLabel: order.payLink.label } : {}),
		zeroconfOffer: order.zeroconfOffer,
		...(order.feePlan ? { feePlan: order.feePlan } : {}),
		...(order.feePayouts ? { feePayouts: order.feePayouts } : {}),
		...(order.swap ? { swap: order.swap } : {}),
		// public-notes: an RBF replacement links the two orders (the original stays unfulfilled)
		...(order.supersededByOperationId ? { supersededByOperationId: order.supersededByOperationId } : {}),
		...(order.recoveredFromOperationId ? { recoveredFromOperationId: order.recoveredFromOperationId } : {}),
		// public-notes (fourth harvest): a re-approval; `error` as webhooks nest it, `errorCode` as the status order keeps it
		...(order.priceLock ? { priceLock: order.priceLock } : {}),
		...(order.reprice ? { reprice: order.reprice } : {}),
		...(order.error !== undefined ? { error: order.error, errorCode: order.error?.code ?? null } : {}),
		...(order.refund ? { refund: { ...order.refund } } : {}),
	};
}

/** public-notes (fourth harvest): an exact-out order's `paymentIntent` members; the buffer and execution shape are the sandbox's. */
function exactOutIntent(order: OrderRecord): Record<string, unknown> {
	const required = order.lock?.quotedAmountIn ?? order.amountIn;
	return {
		version: 1,
		targetAmountOut: (order.lock?.quotedAmountOut ?? order.estimatedOut).toString(),
		requiredAmountIn: required.toString(),
		maxAcceptedAmountIn: ((required * (10_000n + EXACT_OUT_BUFFER_BPS)) / 10_000n).toString(),
		inputBufferBps: Number(EXACT_OUT_BUFFER_BPS),
		actualAmountIn: order.fundedAt ? order.amountIn.toString() : null,
		refundAddress: order.refundAddress ?? null,
		exactOutExecution: order.swap ? { status: 'executed', amountOut: order.estimatedOut.toString(), executedAt: (order.swap.execution as { executedAt: string }).executedAt } : null,
	};
}

/**
 * The status view (spec §4.6): nested `{order, stages: [{name, status, completedAt}]}` as the live
 * service answers (public-notes), or flat `{...order, stages: [names]}` with the `flat` switch.
 */
export function statusView(order: OrderRecord, shape: 'nested' | 'flat'): Record<string, unknown> {
	const snapshot = orderSnapshot(order);
	// the live service's spellings (upper case, statuses the spec does not list) and answers without stages
	if (order.reported?.status !== undefined) snapshot.status = order.reported.status;
	if (order.reported?.amountIn !== undefined) snapshot.amountIn = order.reported.amountIn;
	if (order.reported?.feePayouts !== undefined) snapshot.feePayouts = order.reported.feePayouts;
	if (order.reported?.fields !== undefined) Object.assign(snapshot, order.reported.fields);
	const omit = order.reported?.omitStages === true;
	if (shape === 'flat') return { ...snapshot, ...(omit ? {} : { stages: order.stages.map((s) => s.name) }) };
	return { order: snapshot, ...(omit ? {} : { stages: order.stages.map((s) => ({ ...s })) }) };
}
