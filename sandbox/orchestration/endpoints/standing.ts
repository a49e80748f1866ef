/**
 * Standing deposit addresses (public-notes): server key only, reads included; PUT creates the
 * instruction of a reference or returns the identical one, a changed body is 409
 * instruction_conflict; unknown fields are refused; every mutation needs X-Idempotency-Key. The
 * deposits of a reference are listed newest first with `limit`/`offset` and `nextOffset`; PATCH
 * `/{ref}/enabled` pauses or resumes conversion (the path of public client code); held deposits are
 * refunded by batch at `/{ref}/refund` (the path is not shown: the sandbox's guess) or by deposit at
 * `/{ref}/resolve` (one public client's).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { canonicalJson } from '../canonicalJson';
import { ChainSchema } from '../wire';
import { affiliateRefsOf } from '../affiliateIds';
import { authenticate } from '../auth';
import type { Caller, OrchestrationContext } from '../context';
import { badRequest, conflict, notFound, parseInput } from '../errors';
import { idempotent } from '../idempotency';
import { PartnerBook, affiliatesOf, type StandingRecord } from '../partnerBook';
import { depositView, requestHeldRefund, setStandingEnabled } from '../standingDeposits';

/** What a standing address can deliver (the live list is not shown; the sandbox's own). */
export const STANDING_DESTINATIONS = [
	{ chain: 'base', asset: 'USDC' },
	{ chain: 'ethereum', asset: 'USDC' },
	{ chain: 'solana', asset: 'USDC' },
	{ chain: 'arbitrum', asset: 'USDT' },
	{ chain: 'bitcoin', asset: 'BTC' },
	{ chain: 'spark', asset: 'BTC' },
	{ chain: 'spark', asset: 'USDB' },
	// a chain outside spec §2.1's list, as the live service adds them
	{ chain: 'stellar', asset: 'USDC' },
];

/** public-notes (fourth harvest): an affiliate override on a standing address is 1 to 9999 bps. */
const StandingAffiliateRefSchema = z.union([
	z.string().min(1),
	z.object({ affiliateId: z.string().min(1), feeBps: z.number({ invalid_type_error: 'must be a number' }).int('must be an integer').min(1).max(9_999) }).passthrough(),
]);

const InstructionSchema = z
	.object({
		destination: z.object({ chain: ChainSchema, asset: z.string().min(1), address: z.string().min(1) }).strict(),
		slippageBps: z.number().int().min(0).max(10_000).default(50),
		feeBps: z.number().int().min(0).max(9_999).default(0),
		affiliateIds: z.array(StandingAffiliateRefSchema).max(16).optional(),
		refundAddresses: z.record(z.unknown()).optional(),
	})
	.strict();

function referenceOf(request: FastifyRequest): string {
	const ref = (request.params as { ref: string }).ref;
	if (ref.length < 1 || ref.length > 128) throw badRequest('ref: must be 1 to 128 characters');
	return ref;
}

function view(record: StandingRecord): Record<string, unknown> {
	return {
		standingAddressId: record.standingAddressId,
		reference: record.reference,
		addresses: record.addresses,
		enabled: record.enabled,
		...record.instruction,
		createdAt: record.createdAt,
	};
}

/** The instruction's affiliates as configured now (frozen into it, public-notes); all fees together under 10,000 bps. */
function checkFees(caller: Caller, instruction: z.infer<typeof InstructionSchema>): StandingRecord['frozenAffiliates'] {
	let total = instruction.feeBps;
	const frozen: StandingRecord['frozenAffiliates'] = [];
	for (const ref of instruction.affiliateIds ?? []) {
		const id = typeof ref === 'string' ? ref : ref.affiliateId;
		const affiliate = affiliatesOf(caller.partner).find((a) => a.affiliateId === id);
		if (!affiliate || !affiliate.enabled) throw badRequest(`affiliate ${JSON.stringify(id)} is not a registered, enabled affiliate of this partner`, 'unsupported_fee_plan');
		const feeBps = typeof ref === 'string' ? affiliate.feeBps : ref.feeBps;
		frozen.push({ affiliateId: id, recipient: affiliate.payoutAddress, feeBps });
		total += feeBps;
	}
	if (total >= 10_000) throw badRequest(`fees add up to ${total} bps; all fees together must stay under 10000`, 'unsupported_fee_plan');
	return frozen;
}

const EnabledSchema = z.object({ enabled: z.boolean() }).strict();
/** public-notes (docs): the refund of a held batch. */
const BatchRefundSchema = z.object({ batchId: z.string().min(1), refundAddress: z.string().min(1) }).strict();
/** public-notes (one public client, unconfirmed): the refund of held deposits by id. */
const ResolveSchema = z.object({ depositIds: z.array(z.string().min(1)).min(1).max(100), refundAddress: z.string().min(1) }).strict();

/** `limit` (1..100, default 50) and `offset` of the deposits listing; 400 invalid_query otherwise (the live bounds are not shown). */
function depositsPage(request: FastifyRequest): { limit: number; offset: number } {
	const q = request.query as Record<string, string | undefined>;
	const int = (name: string, value: string | undefined, dflt: number, lo: number, hi: number): number => {
		if (value === undefined) return dflt;
		if (!/^[0-9]{1,9}$/.test(value) || Number(value) < lo || Number(value) > hi) throw badRequest(`${name}: must be an integer from ${lo} to ${hi}`, 'invalid_query');
		return Number(value);
	};
	return { limit: int('limit', q.limit, 50, 1, 100), offset: int('offset', q.offset, 0, 0, 1_000_000_000) };
}

export function registerStandingEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	const book = ctx.state.partnerBook;
	const server = (request: FastifyRequest) => authenticate(ctx, request, {}) as Caller;

	app.get('/v1/standing-deposit-addresses/destinations', async (request) => {
		server(request);
		return { destinations: STANDING_DESTINATIONS };
	});

	const recordOf = (request: FastifyRequest, caller: Caller): StandingRecord => {
		const record = book.standing.get(PartnerBook.standingKey(caller.partner.partnerId, referenceOf(request)));
		if (!record) throw notFound('no standing deposit address with this reference');
		return record;
	};

	app.get('/v1/standing-deposit-addresses/:ref', async (request) => view(recordOf(request, server(request))));

	// public-notes: deposits newest first, `nextOffset` null on the last page
	app.get('/v1/standing-deposit-addresses/:ref/deposits', async (request) => {
		const record = recordOf(request, server(request));
		const { limit, offset } = depositsPage(request);
		const newestFirst = [...record.deposits].reverse();
		const page = newestFirst.slice(offset, offset + limit);
		return { deposits: page.map((d) => depositView(d, d.orderId ? ctx.state.orders.get(d.orderId) : undefined)), nextOffset: offset + limit < newestFirst.length ? offset + limit : null };
	});

	app.patch('/v1/standing-deposit-addresses/:ref/enabled', async (request, reply) => {
		const caller = server(request);
		return idempotent(ctx, request, reply, 'standing-deposit-addresses.enabled', caller.partner.partnerId, () => {
			const record = recordOf(request, caller);
			const { enabled } = parseInput(EnabledSchema, request.body);
			setStandingEnabled(record, enabled);
			return { status: 200, body: { standingAddressId: record.standingAddressId, enabled: record.enabled } };
		});
	});

	app.post('/v1/standing-deposit-addresses/:ref/refund', async (request, reply) => {
		const caller = server(request);
		return idempotent(ctx, request, reply, 'standing-deposit-addresses.refund', caller.partner.partnerId, () => {
			const record = recordOf(request, caller);
			const { batchId, refundAddress } = parseInput(BatchRefundSchema, request.body);
			const batch = record.deposits.filter((d) => d.batchId === batchId);
			if (batch.length === 0) throw notFound(`no batch ${JSON.stringify(batchId)} on this standing deposit address`);
			const held = batch.filter((d) => d.status === 'held');
			if (held.length === 0) throw badRequest(`batch ${batchId} is ${batch[0].batchState}, not held`, 'invalid_state');
			requestHeldRefund(ctx, record, held, refundAddress);
			return { status: 200, body: { batchId, status: 'refund_requested' } };
		});
	});

	app.post('/v1/standing-deposit-addresses/:ref/resolve', async (request, reply) => {
		const caller = server(request);
		return idempotent(ctx, request, reply, 'standing-deposit-addresses.resolve', caller.partner.partnerId, () => {
			const record = recordOf(request, caller);
			const { depositIds, refundAddress } = parseInput(ResolveSchema, request.body);
			const ids = [...new Set(depositIds)];
			const deposits = ids.map((id) => {
				const found = record.deposits.find((d) => d.id === id);
				if (!found) throw notFound(`no deposit ${JSON.stringify(id)} on this standing deposit address`);
				return found;
			});
			requestHeldRefund(ctx, record, deposits, refundAddress);
			const batchIds = [...new Set(deposits.map((d) => d.batchId as string))];
			return { status: 200, body: { ...(batchIds.length === 1 ? { batchId: batchIds[0] } : {}), batchIds, depositIds: ids, status: 'refund_requested' } };
		});
	});

	app.put('/v1/standing-deposit-addresses/:ref', async (request, reply) => {
		const caller = server(request);
		return idempotent(ctx, request, reply, 'standing-deposit-addresses', caller.partner.partnerId, () => {
			const reference = referenceOf(request);
			const instruction = parseInput(InstructionSchema, request.body);
			// public-notes: the IDs are trimmed and lowercased, and frozen into the instruction in that form
			if (instruction.affiliateIds) instruction.affiliateIds = affiliateRefsOf(instruction.affiliateIds);
			const { chain, asset } = instruction.destination;
			if (!STANDING_DESTINATIONS.some((d) => d.chain === chain && d.asset === asset)) {
				throw badRequest(`destination ${chain}:${asset} is not a standing deposit destination`, 'unsupported_route');
			}
			const frozenAffiliates = checkFees(caller, instruction);
			const key = PartnerBook.standingKey(caller.partner.partnerId, reference);
			const existing = book.standing.get(key);
			if (existing) {
				if (canonicalJson(existing.instruction) !== canonicalJson(instruction)) {
					throw conflict('instruction_conflict', `the standing deposit address ${JSON.stringify(reference)} exists with a different instruction`);
				}
				return { status: 200, body: view(existing) };
			}
			const record: StandingRecord = {
				partnerId: caller.partner.partnerId,
				reference,
				standingAddressId: ctx.state.nextId('sda'),
				instruction,
				frozenAffiliates,
				addresses: PartnerBook.newAddresses(),
				enabled: true,
				createdAt: new Date(ctx.clock.now()).toISOString(),
				deposits: [],
				heldBatchId: null,
			};
			book.standing.set(key, record);
			return { status: 200, body: view(record) };
		});
	});
}
