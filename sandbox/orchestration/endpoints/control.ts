import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PUBLIC_STATUSES } from '../spec';
import { mergeSwitches, SwitchesSchema } from '../../config';
import { type FaultInjector, FaultRuleSchema } from '../../faults';
import type { OrchestrationContext } from '../context';
import { simulatedTxHash, simulateDeposit } from '../deposits';
import { badRequest, notFound, parseInput } from '../errors';
import { orderSnapshot, statusView } from '../order-view';
import { OUTCOMES } from '../state';
import { payStandingAddress, settleHeldRefund, standingOf, depositView } from '../standingDeposits';
import { settleClaim } from '../claims';
import { claimView } from '../partnerBook';

const DepositSchema = z.object({
	depositAddress: z.string().min(1),
	amount: z.string().regex(/^[1-9][0-9]*$/, 'must be a positive integer string in smallest units'),
	outcome: z.enum(OUTCOMES).optional(),
	autoAdvance: z.boolean().optional(),
	/** The deposit transaction; one is made up when absent (status by txHash + sourceChain). */
	txHash: z.string().min(1).max(200).optional(),
	/** A payment to a standing address: the chain and asset paid (a default per address family), the sender, the output index. */
	sourceChain: z.string().min(1).optional(),
	sourceAsset: z.string().min(1).optional(),
	senderAddress: z.string().min(1).max(200).optional(),
	sourceTxIndex: z.number().int().min(0).optional(),
});

const SettleClaimSchema = z.object({ outcome: z.enum(['paid', 'failed', 'retry']) });
const SettleBatchSchema = z.object({ outcome: z.enum(['refunded', 'failed']).default('refunded') });

const RedeliverSchema = z.object({ url: z.string().url().optional(), restamp: z.boolean().optional() });
const TestWebhookSchema = z.object({
	url: z.string().url(),
	secret: z.string().min(1).optional(),
	partnerId: z.string().min(1).optional(),
});

const RawDeliverySchema = z.object({ rawBody: z.string(), event: z.string().min(1).optional() });

const AdvanceSchema = z.object({ status: z.enum([...PUBLIC_STATUSES, 'paused']) });
/** An RBF replacement of a Bitcoin deposit: the replacing transaction and what it pays (default: the order's amount). */
const ReplaceSchema = z.object({
	amount: z.string().regex(/^[1-9][0-9]*$/, 'must be a positive integer string in smallest units').optional(),
	txHash: z.string().min(1).max(200).optional(),
	autoAdvance: z.boolean().optional(),
});
/** Any status text (upper case, `expired`, kinds the spec does not list) and whether stages are left out. */
const ReportSchema = z.object({
	status: z.string().min(1).max(64).optional(),
	omitStages: z.boolean().optional(),
	// an oversized amount text, for tests of what a client does with hostile response fields
	amountIn: z.string().min(1).max(2_000_000).optional(),
	// fee payout entries as the live service may write them (roles and legs the spec does not list)
	feePayouts: z.object({ entries: z.array(z.record(z.unknown())).max(50) }).optional(),
	// order members the sandbox does not model, as the live docs show them (priceLock, errorCode, ...)
	fields: z.record(z.unknown()).refine((f) => Object.keys(f).length <= 50, 'at most 50 fields').optional(),
});

/** A re-approval's numbers (derived from the order when absent) and its reason (default `insufficient_input`). */
const RepriceSchema = z.object({
	latestExpectedAmountOut: z.string().regex(/^[0-9]+$/, 'must be an integer string in smallest units').optional(),
	proposedMinAmountOut: z.string().regex(/^[0-9]+$/, 'must be an integer string in smallest units').optional(),
	reason: z.string().min(1).max(200).optional(),
});

type Query = Record<string, string | undefined>;

/** The chain a deposit address belongs to (its quote's source), for a made-up transaction id. */
function depositChainOf(ctx: OrchestrationContext, depositAddress: string): string {
	const quoteId = ctx.state.quotesByDeposit.get(depositAddress);
	const quote = quoteId ? ctx.state.quotes.get(quoteId) : undefined;
	return quote?.source.chain ?? (depositAddress.startsWith('bc1') ? 'bitcoin' : 'ethereum');
}

/** Control endpoints under /sandbox (no auth): seeds, switches, faults, records, deposits, order moves. */
export function registerControlEndpoints(app: FastifyInstance, ctx: OrchestrationContext, keysJson: () => unknown, reset: () => void): void {
	app.get('/sandbox/health', async () => ({ ok: true }));
	app.get('/sandbox/keys', async () => keysJson());

	app.get('/sandbox/config', async () => ({ switches: ctx.switches }));
	app.post('/sandbox/config', async (request) => {
		const next = parseInput(SwitchesSchema, mergeSwitches(ctx.switches, (request.body ?? {}) as object));
		Object.assign(ctx.switches, next);
		if ((request.body as { faults?: unknown } | undefined)?.faults !== undefined) ctx.faults.replace(next.faults);
		return { switches: ctx.switches };
	});

	app.post('/sandbox/reset', async () => {
		reset();
		return { ok: true };
	});

	// Faults apply to this service, or to the gateway with `service: "gateway"`.
	const injector = (service: unknown): FaultInjector => {
		if (service === undefined || service === 'orchestration') return ctx.faults;
		if (service === 'gateway' && ctx.gatewayFaults) return ctx.gatewayFaults;
		throw badRequest('service: must be "orchestration" or "gateway"');
	};
	app.get('/sandbox/faults', async () => ({ faults: ctx.faults.list(), gatewayFaults: ctx.gatewayFaults?.list() ?? [] }));
	app.post('/sandbox/faults', async (request, reply) => {
		const { service, ...rule } = (request.body ?? {}) as Record<string, unknown>;
		const fault = injector(service).add(parseInput(FaultRuleSchema, rule));
		return reply.code(201).send(fault);
	});
	app.delete('/sandbox/faults', async (request) => {
		const service = (request.query as Query).service;
		if (service === undefined) {
			ctx.faults.clear();
			ctx.gatewayFaults?.clear();
		} else injector(service).clear();
		return { ok: true };
	});

	app.get('/sandbox/requests', async (request) => {
		const q = request.query as Query;
		const requests = ctx.state.requests.filter((r) =>
			(!q.path || r.path === q.path || r.route === q.path) &&
			(!q.method || r.method === String(q.method).toUpperCase()) && // a repeated ?method= arrives as an array
			(!q.idempotencyKey || r.idempotencyKey === q.idempotencyKey));
		return { requests, dropped: ctx.state.droppedRequests };
	});
	app.delete('/sandbox/requests', async () => {
		ctx.state.requests = [];
		return { ok: true };
	});

	app.get('/sandbox/quotes', async (request) => {
		const q = request.query as Query;
		const quotes = [...ctx.state.quotes.values()]
			.filter((r) => !q.idempotencyKey || r.idempotencyKey === q.idempotencyKey)
			.map((r) => ({ quoteId: r.quoteId, kind: r.kind, partnerId: r.partnerId, idempotencyKey: r.idempotencyKey, orderId: r.orderId ?? null, quote: r.response }));
		return { quotes };
	});

	app.get('/sandbox/orders', async () => ({
		orders: [...ctx.state.orders.values()].map((o) => ({ ...statusView(o, 'nested'), origin: o.origin, partnerId: o.partnerId, paused: o.paused })),
	}));
	app.get('/sandbox/orders/:id', async (request) => {
		const order = ctx.state.orders.get((request.params as { id: string }).id);
		if (!order) throw notFound('order not found');
		return {
			...statusView(order, 'nested'), origin: order.origin, partnerId: order.partnerId, paused: order.paused, remainingPlan: order.plan,
			statusHistory: order.history, depositTxHash: order.depositTxHash ?? null,
		};
	});

	// Registrations without their secrets (spec §2.9: the secret is shown once).
	app.get('/sandbox/webhooks', async () => ({
		webhooks: ctx.state.webhooks.map(({ secret: _secret, ...rest }) => rest),
	}));
	// Test registrations with a chosen secret, and deliveries of chosen bytes (golden vectors, retry schedule).
	app.post('/sandbox/webhooks', async (request, reply) => {
		const body = parseInput(TestWebhookSchema, request.body);
		const partnerId = body.partnerId ?? ctx.config.partners[0].partnerId;
		if (!ctx.config.partners.some((p) => p.partnerId === partnerId)) throw badRequest(`partnerId: unknown partner ${partnerId}`);
		const record = {
			webhookId: ctx.state.nextId('wh'),
			partnerId,
			url: body.url,
			secret: body.secret ?? `whsec_${randomBytes(32).toString('hex')}`,
			createdAt: new Date(ctx.clock.now()).toISOString(),
		};
		ctx.state.webhooks.push(record);
		return reply.code(201).send(record);
	});
	app.post('/sandbox/webhooks/:webhookId/deliveries', async (request, reply) => {
		const hook = ctx.state.webhooks.find((w) => w.webhookId === (request.params as { webhookId: string }).webhookId);
		if (!hook) throw notFound('webhook not found');
		const { rawBody, event } = parseInput(RawDeliverySchema, request.body);
		return reply.code(202).send(ctx.webhooks.sendRaw(hook, event ?? 'test', rawBody));
	});
	app.get('/sandbox/deliveries', async (request) => {
		const q = request.query as Query;
		const deliveries = ctx.state.deliveries.filter((d) =>
			(!q.webhookId || d.webhookId === q.webhookId) && (!q.orderId || d.orderId === q.orderId) && (!q.event || d.event === q.event));
		return { deliveries };
	});

	app.post('/sandbox/deliveries/:id/redeliver', async (request, reply) => {
		const { url, restamp } = parseInput(RedeliverSchema, request.body ?? {});
		const delivery = await ctx.webhooks.redeliver((request.params as { id: string }).id, { url, restamp });
		if (!delivery) throw notFound('delivery not found');
		return reply.code(201).send({ delivery });
	});

	app.post('/sandbox/deposits', async (request, reply) => {
		const body = parseInput(DepositSchema, request.body);
		// a standing address: a deposit record, and an order (quoteId null) unless the instruction is paused
		const standing = standingOf(ctx, body.depositAddress);
		if (standing) {
			const { deposit, order } = payStandingAddress(ctx, standing, body.depositAddress, BigInt(body.amount), body);
			return reply.code(201).send({
				orderId: order?.id ?? null, txHash: deposit.sourceTxId, sourceChain: deposit.chain,
				order: order ? orderSnapshot(order) : null, deposit: depositView(deposit, order ?? undefined), reference: standing.record.reference,
			});
		}
		const chain = depositChainOf(ctx, body.depositAddress);
		const txHash = body.txHash ?? simulatedTxHash(chain);
		const order = simulateDeposit(ctx, body.depositAddress, BigInt(body.amount), { ...body, txHash });
		return reply.code(201).send({ orderId: order.id, txHash: order.depositTxHash ?? txHash, sourceChain: order.source.chain, order: orderSnapshot(order) });
	});

	// The end of a held batch's requested refund, by hand (with autoAdvance off it waits for this).
	app.post('/sandbox/standing-batches/:batchId/settle', async (request) => {
		const { batchId } = request.params as { batchId: string };
		const deposits = [...ctx.state.partnerBook.standing.values()].flatMap((r) => r.deposits).filter((d) => d.batchId === batchId);
		if (deposits.length === 0) throw notFound('batch not found');
		if (!deposits.some((d) => d.status === 'refund_requested')) throw badRequest(`batch ${batchId} has no refund in progress`, 'invalid_state');
		settleHeldRefund(deposits, parseInput(SettleBatchSchema, request.body ?? {}).outcome);
		return { deposits: deposits.map((d) => depositView(d)) };
	});

	// One payout attempt of a processing claim, by hand (claims move by themselves only with autoAdvance on).
	app.post('/sandbox/claims/:claimId/settle', async (request) => {
		const claim = ctx.state.partnerBook.claims.find((c) => c.id === (request.params as { claimId: string }).claimId);
		if (!claim) throw notFound('claim not found');
		settleClaim(ctx, claim, parseInput(SettleClaimSchema, request.body).outcome);
		return { claim: claimView(claim) };
	});

	// How the status view reports an order from now on (the order itself does not change).
	app.post('/sandbox/orders/:id/report', async (request) => {
		const order = ctx.state.orders.get((request.params as { id: string }).id);
		if (!order) throw notFound('order not found');
		order.reported = parseInput(ReportSchema, request.body);
		return statusView(order, ctx.switches.statusShape);
	});

	// public-notes: an RBF-replaced Bitcoin deposit; the original stays unfulfilled and names its successor
	app.post('/sandbox/orders/:id/replace', async (request, reply) => {
		const order = ctx.state.orders.get((request.params as { id: string }).id);
		if (!order) throw notFound('order not found');
		const body = parseInput(ReplaceSchema, request.body ?? {});
		const successor = ctx.orders.replaceDeposit(order, {
			amountPaid: body.amount === undefined ? order.amountIn : BigInt(body.amount),
			txHash: body.txHash ?? simulatedTxHash('bitcoin'),
			autoAdvance: body.autoAdvance,
		});
		return reply.code(201).send({ orderId: order.id, successorOrderId: successor.id, txHash: successor.depositTxHash, order: orderSnapshot(order), successor: orderSnapshot(successor) });
	});

	// public-notes (fourth harvest): the locked price can no longer be honoured; the order waits for the partner's answer
	app.post('/sandbox/orders/:id/reprice', async (request) => {
		const order = ctx.state.orders.get((request.params as { id: string }).id);
		if (!order) throw notFound('order not found');
		const body = parseInput(RepriceSchema, request.body ?? {});
		const big = (v: string | undefined) => (v === undefined ? undefined : BigInt(v));
		ctx.orders.requestReprice(order, { latestExpectedAmountOut: big(body.latestExpectedAmountOut), proposedMinAmountOut: big(body.proposedMinAmountOut), reason: body.reason });
		return statusView(order, 'nested');
	});

	app.post('/sandbox/orders/:id/advance', async (request) => {
		const order = ctx.state.orders.get((request.params as { id: string }).id);
		if (!order) throw notFound('order not found');
		ctx.orders.advance(order, parseInput(AdvanceSchema, request.body).status);
		return statusView(order, 'nested');
	});
}
