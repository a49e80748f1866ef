import type { FastifyInstance } from 'fastify';
import { ZeroconfAcceptRequestSchema, ZeroconfDeclineRequestSchema } from '../wire';
import { authenticate } from '../auth';
import type { Caller, OrchestrationContext } from '../context';
import { notFound, parseInput } from '../errors';
import { idempotent } from '../idempotency';
import { assertOfferOpen } from '../zeroconf';

/**
 * public-notes: the partner answers a pending ZeroConf offer with a server key and an
 * X-Idempotency-Key; accepted, the order goes on in `processing`, declined, it waits in `confirming`.
 */
export function registerZeroconfEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	for (const action of ['accept', 'decline'] as const) {
		const schema = action === 'accept' ? ZeroconfAcceptRequestSchema : ZeroconfDeclineRequestSchema;
		app.post(`/v1/orchestration/zeroconf/${action}`, async (request, reply) => {
			const caller = authenticate(ctx, request, {}) as Caller;
			const partnerId = caller.partner.partnerId;
			return idempotent(ctx, request, reply, `zeroconf_${action}`, partnerId, () => {
				const body = parseInput(schema, request.body) as { orderId: string; reason?: string };
				const order = ctx.state.orders.get(body.orderId);
				if (!order) throw notFound(`order ${body.orderId} not found`);
				assertOfferOpen(order, partnerId, ctx.clock.now());
				if (body.reason !== undefined) order.zeroconfOffer = { ...order.zeroconfOffer, declineReason: body.reason };
				ctx.orders.resolveOffer(order, action === 'accept' ? 'accepted' : 'declined');
				return { status: 200, body: { orderId: order.id, status: order.status } };
			});
		});
	}
}
