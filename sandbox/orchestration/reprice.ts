/**
 * Price re-approval (public-notes "Re-approvals, pay links, fee invoices"): an order whose locked
 * price can no longer be honoured waits in `awaiting_approval` with `error.code`
 * `reprice_approval_required`, a `priceLock` in mode `approval_required` and a pending `reprice`;
 * the partner approves a new minimum, rejects, or (Bitcoin sources) has the deposit refunded.
 */
import { badRequest } from './errors';
import type { OrderRecord } from './state';

/** How far the market moved against a scripted re-approval (the sandbox's choice): 3 %. */
const DEFAULT_MOVE_BPS = 300n;
const BPS = 10_000n;

/** What a test may set of a re-approval (POST /sandbox/orders/:id/reprice); the rest is derived. */
export interface RepriceTerms {
	latestExpectedAmountOut?: bigint;
	proposedMinAmountOut?: bigint;
	reason?: string;
}

export type RepriceAnswer =
	| { kind: 'approve'; approvedMinAmountOut: bigint }
	| { kind: 'reject'; reason?: string }
	| { kind: 'refund'; reason?: string; refundAddress: string };

/** The documented `priceLock` and `reprice` of an order asked for a re-approval now. */
export function repriceOf(order: OrderRecord, terms: RepriceTerms, now: string): { priceLock: Record<string, unknown>; reprice: Record<string, unknown> } {
	const lock = order.lock;
	const slippageBps = lock?.slippageBps ?? 100;
	const quotedAmountOut = lock?.quotedAmountOut ?? order.estimatedOut;
	const previous = order.priceLock ? BigInt(order.priceLock.lockedMinAmountOut as string) : (lock?.lockedMinAmountOut ?? (order.estimatedOut * (BPS - BigInt(slippageBps))) / BPS);
	const latest = terms.latestExpectedAmountOut ?? (order.estimatedOut * (BPS - DEFAULT_MOVE_BPS)) / BPS;
	const proposed = terms.proposedMinAmountOut ?? (latest * (BPS - BigInt(slippageBps))) / BPS;
	const version = order.reprice ? Number(order.reprice.version) + 1 : 1;
	return {
		priceLock: {
			version: order.priceLock ? Number(order.priceLock.version) : 1,
			mode: 'approval_required',
			amountIn: order.amountIn.toString(),
			quotedAmountOut: quotedAmountOut.toString(),
			lockedMinAmountOut: previous.toString(),
			slippageBps,
			createdAt: lock?.createdAt ?? order.createdAt,
			expiresAt: lock?.expiresAt ?? order.createdAt,
		},
		reprice: {
			version,
			status: 'awaiting_approval',
			previousLockedMinAmountOut: previous.toString(),
			proposedMinAmountOut: proposed.toString(),
			latestExpectedAmountOut: latest.toString(),
			requestedAt: now,
			resolvedAt: null,
			reason: terms.reason ?? 'insufficient_input',
		},
	};
}

/** 400 `invalid_state` unless the order is the partner's, in awaiting_approval, with a pending re-approval (public-notes). */
export function assertRepricePending(order: OrderRecord, partnerId: string): void {
	const refuse = (why: string) => badRequest(`order ${order.id} ${why}`, 'invalid_state');
	if (order.partnerId !== partnerId) throw refuse('belongs to another partner');
	if (order.status !== 'awaiting_approval' || order.paused) throw refuse(`is ${order.paused ? 'paused' : order.status}, not awaiting_approval`);
	if (order.reprice?.status !== 'awaiting_approval') throw refuse('has no pending price re-approval');
}

/** `approvedMinAmountOut`: smallest units, positive, at most the previous locked minimum (public-notes). */
export function approvedMinimumOf(order: OrderRecord, text: string): bigint {
	const approved = BigInt(text);
	const previous = BigInt((order.reprice as Record<string, unknown>).previousLockedMinAmountOut as string);
	if (approved === 0n) throw badRequest('approvedMinAmountOut: must be at least 1 smallest unit');
	if (approved > previous) throw badRequest(`approvedMinAmountOut: ${approved} is above reprice.previousLockedMinAmountOut ${previous}`);
	return approved;
}
