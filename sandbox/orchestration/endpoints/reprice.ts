import type { FastifyInstance } from 'fastify';
import { RepriceApproveRequestSchema, RepriceRefundRequestSchema, RepriceRejectRequestSchema } from '../wire';
import { checkAddress } from '../addresses';
import { authenticate } from '../auth';
import type { Caller, OrchestrationContext } from '../context';
import { badRequest, notFound, parseInput } from '../errors';
import { idempotent } from '../idempotency';
import { SANCTIONED_ADDRESSES } from '../quotes';
import { approvedMinimumOf, assertRepricePending } from '../reprice';
import type { OrderRecord } from '../state';

/**
 * public-notes (fourth harvest): the partner's answer to a price re-approval, server key and
 * X-Idempotency-Key; approve → swapping, reject → failed, refund (Bitcoin sources) → refunding.
 */
export function registerRepriceEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	const pendingOrder = (orderId: string, caller: Caller): OrderRecord => {
		const order = ctx.state.orders.get(orderId);
		if (!order) throw notFound(`order ${orderId} not found`);
		assertRepricePending(order, caller.partner.partnerId);
		return order;
	};

	app.post('/v1/orchestration/reprice/approve', async (request, reply) => {
		const caller = authenticate(ctx, request, {}) as Caller;
		return idempotent(ctx, request, reply, 'reprice_approve', caller.partner.partnerId, () => {
			const body = parseInput(RepriceApproveRequestSchema, request.body);
			const order = pendingOrder(body.orderId, caller);
			ctx.orders.answerReprice(order, { kind: 'approve', approvedMinAmountOut: approvedMinimumOf(order, body.approvedMinAmountOut) });
			return { status: 200, body: { orderId: order.id, status: order.status } };
		});
	});

	app.post('/v1/orchestration/reprice/reject', async (request, reply) => {
		const caller = authenticate(ctx, request, {}) as Caller;
		return idempotent(ctx, request, reply, 'reprice_reject', caller.partner.partnerId, () => {
			const body = parseInput(RepriceRejectRequestSchema, request.body);
			const order = pendingOrder(body.orderId, caller);
			ctx.orders.answerReprice(order, { kind: 'reject', reason: body.reason });
			return { status: 200, body: { orderId: order.id, status: order.status } };
		});
	});

	app.post('/v1/orchestration/reprice/refund', async (request, reply) => {
		const caller = authenticate(ctx, request, {}) as Caller;
		return idempotent(ctx, request, reply, 'reprice_refund', caller.partner.partnerId, () => {
			const body = parseInput(RepriceRefundRequestSchema, request.body);
			const order = pendingOrder(body.orderId, caller);
			if (order.source.chain !== 'bitcoin') throw badRequest(`order ${order.id}: a re-approval refund is offered for Bitcoin-source orders only (this one is from ${order.source.chain})`);
			// the quote's refund address unless one is given (public-notes)
			const refundAddress = body.refundAddress ?? order.refundAddress;
			if (refundAddress === undefined) throw badRequest('refundAddress: required, the quote named none');
			const problem = checkAddress(order.source.chainInfo.format, refundAddress);
			if (problem) throw badRequest(`refundAddress ${problem}`, 'invalid_address');
			if (SANCTIONED_ADDRESSES.has(refundAddress.toLowerCase())) throw badRequest('refundAddress is sanctioned', 'invalid_address');
			ctx.orders.answerReprice(order, { kind: 'refund', reason: body.reason, refundAddress });
			return { status: 200, body: { orderId: order.id, status: order.status } };
		});
	});
}
