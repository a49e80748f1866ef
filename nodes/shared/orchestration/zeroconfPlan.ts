/**
 * The plan of Order > Accept / Decline ZeroConf Offer (public-notes "Other partner operations"): the
 * checked body and its idempotency key, derived from the order and the action so a retry or a re-run
 * replays the first answer. Pure.
 */
import { parseRequest } from '../errors';
import { zeroconfIdempotencyKey } from './idempotency';
import { z } from 'zod';
import { NonEmpty } from './schemas';

/** POST /v1/orchestration/zeroconf/accept body (public-notes): the order whose offer is accepted. */
export const ZeroconfAcceptRequestSchema = z.object({ orderId: NonEmpty }).passthrough();
/** Longest decline reason sent (the live limit is not shown; a reason is a short note). */
export const DECLINE_REASON_MAX_LENGTH = 500;
/** POST /v1/orchestration/zeroconf/decline body (public-notes): the order and an optional reason. */
export const ZeroconfDeclineRequestSchema = ZeroconfAcceptRequestSchema.extend({
	reason: z.string().min(1).max(DECLINE_REASON_MAX_LENGTH).optional(),
}).passthrough();

export type ZeroconfAction = 'accept' | 'decline';

export interface ZeroconfPlan {
	path: string;
	request: Record<string, unknown>;
	idempotencyKey: string;
}

/** Checks the answer before it leaves (orderId required, reason only on a decline). */
export function planZeroconfDecision(
	action: ZeroconfAction,
	input: { orderId: string; reason?: string },
): ZeroconfPlan {
	const request: Record<string, unknown> = { orderId: input.orderId };
	if (action === 'decline' && input.reason !== undefined && input.reason !== '')
		request.reason = input.reason;
	parseRequest(
		action === 'accept' ? ZeroconfAcceptRequestSchema : ZeroconfDeclineRequestSchema,
		request,
	);
	return {
		path: `/v1/orchestration/zeroconf/${action}`,
		request,
		idempotencyKey: zeroconfIdempotencyKey(action, input.orderId),
	};
}
