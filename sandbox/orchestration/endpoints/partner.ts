import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { WebhookCreateRequestSchema } from '../wire';
import { authenticate } from '../auth';
import type { Caller, OrchestrationContext } from '../context';
import { notFound, parseInput } from '../errors';
import { idempotent } from '../idempotency';
import type { WebhookRecord } from '../state';

const RecoverySchema = z.object({ reviewStatus: z.enum(['pending_review', 'blocked_wallet']).default('pending_review') });

export function registerPartnerEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	// spec §2.9, §6: the secret is shown once, at creation; webhook management needs a server key.
	// public-notes: recovery subscriptions (POST /v1/webhooks/recovery) receive order.recovery_required only.
	for (const kind of ['orders', 'recovery'] as const) {
		const path = kind === 'recovery' ? '/v1/webhooks/recovery' : '/v1/webhooks';
		app.post(path, async (request, reply) => {
			const caller = authenticate(ctx, request, {}) as Caller;
			return idempotent(ctx, request, reply, `webhooks.${kind}`, caller.partner.partnerId, () => {
				const { url } = parseInput(WebhookCreateRequestSchema, request.body);
				const record: WebhookRecord = {
					webhookId: ctx.state.nextId(kind === 'recovery' ? 'whr' : 'wh'),
					partnerId: caller.partner.partnerId,
					url,
					secret: `whsec_${randomBytes(32).toString('hex')}`,
					createdAt: new Date(ctx.clock.now()).toISOString(),
					...(kind === 'recovery' ? { kind } : {}),
				};
				ctx.state.webhooks.push(record);
				return { status: 201, body: { webhookId: record.webhookId, url, secret: record.secret, createdAt: record.createdAt } };
			});
		});
		// public-notes: DELETE disables an endpoint ({ok: true}); an unknown, foreign or disabled one is 404
		app.delete(`${path}/:webhookId`, async (request, reply) => {
			const caller = authenticate(ctx, request, {}) as Caller;
			return idempotent(ctx, request, reply, `webhooks.${kind}.delete`, caller.partner.partnerId, () => {
				const { webhookId } = request.params as { webhookId: string };
				const hook = ctx.state.webhooks.find(
					(w) => w.webhookId === webhookId && w.partnerId === caller.partner.partnerId && (w.kind === 'recovery') === (kind === 'recovery') && !w.disabledAt,
				);
				if (!hook) throw notFound(`no active ${kind === 'recovery' ? 'recovery subscription' : 'webhook endpoint'} ${JSON.stringify(webhookId)}`);
				hook.disabledAt = new Date(ctx.clock.now()).toISOString();
				return { status: 200, body: { ok: true } };
			});
		});
	}

	// Control: an operator's decision is needed on an order (public-notes: order.recovery_required,
	// status processing with a reviewStatus), delivered signed to the partner's recovery subscriptions.
	app.post('/sandbox/orders/:id/recovery-required', async (request, reply) => {
		const order = ctx.state.orders.get((request.params as { id: string }).id);
		if (!order) throw notFound('order not found');
		const { reviewStatus } = parseInput(RecoverySchema, request.body ?? {});
		return reply.code(202).send({ deliveries: ctx.webhooks.emitRecovery(order, reviewStatus) });
	});
}
