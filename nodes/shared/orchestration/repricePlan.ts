/**
 * Order > Approve / Reject / Refund Reprice (public-notes "Re-approvals, pay links, fee invoices"):
 * an order in `awaiting_approval` whose locked price can no longer be honoured carries `reprice`;
 * the partner approves a new minimum output (at most the previously locked one), rejects, or, for a
 * Bitcoin-source order, asks for a refund. Every check before the request; the key derives from the
 * order and the action, so a retry or a re-run replays the first answer. Pure.
 */
import { ProtocolError } from '../errors';
import { sha256Hex } from '../sha256';

export type RepriceAction = 'approve' | 'reject' | 'refund';

/** The order's `reprice` as the notes show it; amounts in smallest units of the destination asset. */
export interface Reprice {
	status?: string;
	previousLockedMinAmountOut?: string;
	proposedMinAmountOut?: string;
	latestExpectedAmountOut?: string;
	reason?: string;
}

export interface RepricePlan {
	path: string;
	request: Record<string, unknown>;
	idempotencyKey: string;
}

/** Longest reason sent (the live limit is not shown; a reason is a short note). */
export const REPRICE_REASON_MAX_LENGTH = 500;

const DIGITS = /^[0-9]{1,78}$/;

/** The `reprice` member of an order, leniently: its text members, amounts only when they are whole numbers. */
export function repriceOf(order: Record<string, unknown>): Reprice | undefined {
	const raw = order.reprice;
	if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
	const r = raw as Record<string, unknown>;
	const amount = (v: unknown) =>
		typeof v === 'string' && DIGITS.test(v)
			? v
			: typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
				? String(v)
				: undefined;
	const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
	return {
		status: text(r.status),
		previousLockedMinAmountOut: amount(r.previousLockedMinAmountOut),
		proposedMinAmountOut: amount(r.proposedMinAmountOut),
		latestExpectedAmountOut: amount(r.latestExpectedAmountOut),
		reason: text(r.reason),
	};
}

/** The key of one answer to one order's re-approval: the same on every retry and re-run. */
export function repriceIdempotencyKey(action: RepriceAction, orderId: string): string {
	return `n8n-reprice-${action}-${sha256Hex(orderId)}`;
}

function plan(action: RepriceAction, request: Record<string, unknown>): RepricePlan {
	return {
		path: `/v1/orchestration/reprice/${action}`,
		request,
		idempotencyKey: repriceIdempotencyKey(action, String(request.orderId)),
	};
}

function withReason(
	request: Record<string, unknown>,
	reason: string | undefined,
): Record<string, unknown> {
	if (reason === undefined || reason === '') return request;
	if (reason.length > REPRICE_REASON_MAX_LENGTH) {
		throw new ProtocolError(
			`is ${reason.length} characters long; at most ${REPRICE_REASON_MAX_LENGTH} are sent`,
			{ field: 'reason', reason: 'too_long' },
		);
	}
	return { ...request, reason };
}

/**
 * Why the order has nothing to answer, or undefined. An order whose re-approval was already answered
 * is still sent: under the same key the service replays its first answer (a retry after a lost one).
 */
export function repriceStateProblem(order: Record<string, unknown>): string | undefined {
	if (repriceOf(order) !== undefined) return undefined;
	if (order.status === 'awaiting_approval')
		return 'waits in awaiting_approval without a price re-approval (a ZeroConf offer or an operator hold)';
	return `is ${String(order.status ?? 'in no status')} and has no price re-approval to answer`;
}

/**
 * `POST /v1/orchestration/reprice/approve {orderId, approvedMinAmountOut}`: the approved minimum in
 * smallest units, the proposed one by default, never above `reprice.previousLockedMinAmountOut`.
 */
export function planRepriceApproval(
	orderId: string,
	reprice: Reprice,
	approved: string | undefined,
): RepricePlan {
	const amount = approved ?? reprice.proposedMinAmountOut;
	if (amount === undefined) {
		throw new ProtocolError(
			'is required: the order shows no proposed minimum output to default to',
			{ field: 'approvedMinAmountOut', reason: 'blank' },
		);
	}
	if (!DIGITS.test(amount) || BigInt(amount) === 0n) {
		throw new ProtocolError(
			`${JSON.stringify(amount.slice(0, 80))} is not a positive whole number of smallest units`,
			{ field: 'approvedMinAmountOut', reason: 'invalid_amount' },
		);
	}
	const locked = reprice.previousLockedMinAmountOut;
	if (locked !== undefined && BigInt(amount) > BigInt(locked)) {
		throw new ProtocolError(
			`${amount} is above the minimum output locked before (${locked}); the service accepts at most that`,
			{
				field: 'approvedMinAmountOut',
				reason: 'above_locked_minimum',
			},
		);
	}
	return plan('approve', { orderId, approvedMinAmountOut: amount });
}

/** `POST /v1/orchestration/reprice/reject {orderId, reason?}`: the order fails. */
export function planRepriceReject(orderId: string, reason: string | undefined): RepricePlan {
	return plan('reject', withReason({ orderId }, reason));
}

/**
 * `POST /v1/orchestration/reprice/refund {orderId, reason?, refundAddress?}`: Bitcoin-source orders
 * only; without an address the service refunds to the quote's refund address.
 */
export function planRepriceRefund(
	orderId: string,
	sourceChain: unknown,
	refundAddress: string | undefined,
	reason: string | undefined,
): RepricePlan {
	if (sourceChain !== 'bitcoin') {
		throw new ProtocolError(
			`a refund of a re-approval is offered only for Bitcoin-source orders; this order's source is ${String(sourceChain ?? 'not shown')}: approve or reject it`,
			{
				field: 'orderId',
				reason: 'refund_not_offered',
			},
		);
	}
	const request =
		refundAddress === undefined || refundAddress === '' ? { orderId } : { orderId, refundAddress };
	return plan('refund', withReason(request, reason));
}
