import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { AffiliateRefSchema, AppFeeSchema, ChainSchema, SlippageBpsSchema } from '../wire';
import { authenticate } from '../auth';
import type { Caller, OrchestrationContext } from '../context';
import { depositAddressFor } from '../addresses';
import { badRequest, conflict, notFound, parseInput } from '../errors';
import { resolveFeePlan } from '../fees';
import { idempotent } from '../idempotency';
import { checkKeyLimits } from '../rateLimits';
import type { AccumulationRecord, LiquidationRecord } from '../state';

// Creation bodies are not shown by the spec (§4.4); these follow the record fields of §2.4 and §2.5.
const AccumulationCreateSchema = z.object({
	label: z.string().default(''),
	sourceChain: ChainSchema,
	sourceAsset: z.string().min(1),
	destinationAsset: z.enum(['BTC', 'USDB']),
	recipientSparkAddress: z.string().min(1),
	slippageBps: SlippageBpsSchema.optional(),
	appFees: z.array(AppFeeSchema).min(1).max(16).optional(),
	// the fee inputs of spec §4.1, checked here too: resolveFeePlan reads them (integer feeBps, §2.4/§2.5)
	affiliateId: z.string().min(1).optional(),
	affiliateIds: z.array(AffiliateRefSchema).min(1).max(16).optional(),
}).passthrough();

const LiquidationCreateSchema = z.object({
	label: z.string().default(''),
	destination: z.object({ chain: ChainSchema, asset: z.string().min(1), address: z.string().min(1) }),
	slippageBps: SlippageBpsSchema.optional(),
	appFees: z.array(AppFeeSchema).min(1).max(16).optional(),
	// the fee inputs of spec §4.1, checked here too: resolveFeePlan reads them (integer feeBps, §2.4/§2.5)
	affiliateId: z.string().min(1).optional(),
	affiliateIds: z.array(AffiliateRefSchema).min(1).max(16).optional(),
}).passthrough();

/** spec §2.4 record with its watcher subscription (only `pending` is a documented status). */
function accumulationView(a: AccumulationRecord): Record<string, unknown> {
	const { partnerId: _p, ...rest } = a;
	const subscriptions = [{ provider: 'sandbox-watcher', chain: a.sourceChain, address: a.depositAddress, status: 'pending', lastError: null, createdAt: a.createdAt, updatedAt: a.updatedAt }];
	return { ...rest, subscriptions };
}

function liquidationView(l: LiquidationRecord): Record<string, unknown> {
	const { partnerId: _p, ...rest } = l;
	return rest;
}

/** The deprecated endpoints say so in a header. */
const deprecated = (reply: FastifyReply) => reply.header('deprecation', 'true');

export function registerLegacyEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	const now = () => new Date(ctx.clock.now()).toISOString();
	const ownAccumulation = (caller: Caller, idOrAddress: string) =>
		[...ctx.state.accumulation.values()].find((a) => a.partnerId === caller.partner.partnerId && (a.accumulationAddressId === idOrAddress || a.depositAddress === idOrAddress));

	// spec §4.4, §2.8: server keys only
	app.post('/v1/accumulation-addresses/sync', async (request, reply) => {
		const caller = authenticate(ctx, request, {}) as Caller;
		deprecated(reply);
		return idempotent(ctx, request, reply, 'accumulation-sync', caller.partner.partnerId, () => {
			const own = [...ctx.state.accumulation.values()].filter((a) => a.partnerId === caller.partner.partnerId && a.enabled);
			return { status: 200, body: { ok: true, enabledCount: own.length, solanaAddressCount: own.filter((a) => a.sourceChain === 'solana').length, errors: [] } };
		});
	});

	// spec §4.4, §5: reindex is allowed to client keys with accumulation:create
	app.post('/v1/accumulation-addresses/:idOrAddress/reindex', async (request, reply) => {
		const caller = authenticate(ctx, request, { clientScope: 'accumulation:create' }) as Caller;
		checkKeyLimits(ctx, caller, 'addresses', request, 'accumulation-reindex');
		deprecated(reply);
		return idempotent(ctx, request, reply, 'accumulation-reindex', caller.partner.partnerId, () => {
			const { idOrAddress } = request.params as { idOrAddress: string };
			const a = ownAccumulation(caller, idOrAddress);
			if (!a) throw notFound('accumulation address not found');
			if (!a.enabled) throw conflict('invalid_state', 'the accumulation address is disabled');
			const relay = {
				message: 'reindex triggered',
				triggeredCurrencies: [{ currency: `${a.sourceChain}:${a.sourceAsset}`, symbol: a.sourceAsset, balance: '0' }],
				checkedCurrencies: 1,
				failedCurrencies: 0,
			};
			const body = { ok: true, accumulationAddressId: a.accumulationAddressId, sourceChain: a.sourceChain, sourceAsset: a.sourceAsset, depositAddress: a.depositAddress, relay };
			return { status: 200, body };
		});
	});

	app.get('/v1/accumulation-addresses/:id', async (request, reply) => {
		const caller = authenticate(ctx, request, {}) as Caller;
		deprecated(reply);
		const a = ownAccumulation(caller, (request.params as { id: string }).id);
		if (!a) throw notFound('accumulation address not found');
		return accumulationView(a);
	});

	// spec §4.4: creation is gated by accumulation:create; client keys cannot set fees (spec §5)
	app.post('/v1/accumulation-addresses', async (request, reply) => {
		const caller = authenticate(ctx, request, { clientScope: 'accumulation:create' }) as Caller;
		checkKeyLimits(ctx, caller, 'addresses', request, 'accumulation-create');
		deprecated(reply);
		return idempotent(ctx, request, reply, 'accumulation-create', caller.partner.partnerId, () => {
			const body = parseInput(AccumulationCreateSchema, request.body);
			const source = ctx.catalogue.find(body.sourceChain, body.sourceAsset, { v2: true, equityAdmission: false, large: false });
			if (!source) throw badRequest(`${body.sourceAsset} on ${body.sourceChain} is not in the routes listing`, 'unsupported_route');
			const plan = resolveFeePlan(caller, body);
			const at = now();
			const record: AccumulationRecord = {
				accumulationAddressId: ctx.state.nextId('acc'), label: body.label, sourceChain: body.sourceChain, sourceAsset: source.asset,
				destinationAsset: body.destinationAsset, recipientSparkAddress: body.recipientSparkAddress,
				feeBps: plan?.totalFeeBps ?? 30, slippageBps: body.slippageBps ?? 100, enabled: true,
				depositAddress: depositAddressFor(source.chainInfo.format, ctx.state.nextCounter()),
				partnerId: caller.partner.partnerId, createdAt: at, updatedAt: at, disabledAt: null, appFees: plan?.appFees ?? [],
			};
			ctx.state.accumulation.set(record.accumulationAddressId, record);
			return { status: 201, body: accumulationView(record) };
		});
	});

	app.get('/v1/liquidation-addresses', async (request, reply) => {
		const caller = authenticate(ctx, request, {}) as Caller;
		deprecated(reply);
		const own = [...ctx.state.liquidation.values()].filter((l) => l.partnerId === caller.partner.partnerId);
		return { liquidationAddresses: own.map(liquidationView) };
	});

	app.get('/v1/liquidation-addresses/:id', async (request, reply) => {
		const caller = authenticate(ctx, request, {}) as Caller;
		deprecated(reply);
		const l = ctx.state.liquidation.get((request.params as { id: string }).id);
		if (!l || l.partnerId !== caller.partner.partnerId) throw notFound('liquidation address not found');
		return liquidationView(l);
	});

	app.post('/v1/liquidation-addresses', async (request, reply) => {
		const caller = authenticate(ctx, request, { clientScope: 'liquidation:create' }) as Caller;
		checkKeyLimits(ctx, caller, 'addresses', request, 'liquidation-create');
		deprecated(reply);
		return idempotent(ctx, request, reply, 'liquidation-create', caller.partner.partnerId, () => {
			const body = parseInput(LiquidationCreateSchema, request.body);
			const view = { v2: true, equityAdmission: false, large: false };
			if (!ctx.catalogue.find(body.destination.chain, body.destination.asset, view)) {
				throw badRequest(`${body.destination.asset} on ${body.destination.chain} is not in the routes listing`, 'unsupported_route');
			}
			const plan = resolveFeePlan(caller, body);
			const at = now();
			const counter = ctx.state.nextCounter();
			const record: LiquidationRecord = {
				liquidationAddressId: ctx.state.nextId('liq'), label: body.label,
				sparkAddress: depositAddressFor('spark', counter), l1DepositAddress: depositAddressFor('bitcoin', counter),
				destination: body.destination, feeBps: plan?.totalFeeBps ?? 30, slippageBps: body.slippageBps ?? 100, enabled: true,
				partnerId: caller.partner.partnerId, createdAt: at, updatedAt: at, disabledAt: null, appFees: plan?.appFees ?? [],
			};
			ctx.state.liquidation.set(record.liquidationAddressId, record);
			return { status: 201, body: liquidationView(record) };
		});
	});
}
