/**
 * Standing deposit addresses (public-notes): server key only, reads included; PUT creates the
 * instruction of a reference or returns the identical one, a changed body is 409
 * instruction_conflict; unknown fields are refused; every mutation needs X-Idempotency-Key.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { canonicalJson } from '../../../nodes/shared/orchestration/idempotency';
import { AffiliateRefSchema, ChainSchema } from '../../../nodes/shared/orchestration/schemas';
import { authenticate } from '../auth';
import type { Caller, OrchestrationContext } from '../context';
import { badRequest, conflict, notFound, parseInput } from '../errors';
import { idempotent } from '../idempotency';
import { PartnerBook, affiliatesOf, type StandingRecord } from '../partnerBook';

/** What a standing address can deliver (the live list is not shown; the sandbox's own). */
export const STANDING_DESTINATIONS = [
	{ chain: 'base', asset: 'USDC' },
	{ chain: 'ethereum', asset: 'USDC' },
	{ chain: 'solana', asset: 'USDC' },
	{ chain: 'arbitrum', asset: 'USDT' },
	{ chain: 'bitcoin', asset: 'BTC' },
	{ chain: 'spark', asset: 'BTC' },
	{ chain: 'spark', asset: 'USDB' },
];

const InstructionSchema = z
	.object({
		destination: z.object({ chain: ChainSchema, asset: z.string().min(1), address: z.string().min(1) }).strict(),
		slippageBps: z.number().int().min(0).max(10_000).default(50),
		feeBps: z.number().int().min(0).max(9_999).default(0),
		affiliateIds: z.array(AffiliateRefSchema).max(16).optional(),
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

function checkFees(caller: Caller, instruction: z.infer<typeof InstructionSchema>): void {
	let total = instruction.feeBps;
	for (const ref of instruction.affiliateIds ?? []) {
		const id = typeof ref === 'string' ? ref : ref.affiliateId;
		const affiliate = affiliatesOf(caller.partner).find((a) => a.affiliateId === id);
		if (!affiliate || !affiliate.enabled) throw badRequest(`affiliate ${JSON.stringify(id)} is not a registered, enabled affiliate of this partner`, 'unsupported_fee_plan');
		total += typeof ref === 'string' ? affiliate.feeBps : ref.feeBps;
	}
	if (total >= 10_000) throw badRequest(`fees add up to ${total} bps; all fees together must stay under 10000`, 'unsupported_fee_plan');
}

export function registerStandingEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	const book = ctx.state.partnerBook;
	const server = (request: FastifyRequest) => authenticate(ctx, request, {}) as Caller;

	app.get('/v1/standing-deposit-addresses/destinations', async (request) => {
		server(request);
		return { destinations: STANDING_DESTINATIONS };
	});

	app.get('/v1/standing-deposit-addresses/:ref', async (request) => {
		const caller = server(request);
		const record = book.standing.get(PartnerBook.standingKey(caller.partner.partnerId, referenceOf(request)));
		if (!record) throw notFound('no standing deposit address with this reference');
		return view(record);
	});

	app.put('/v1/standing-deposit-addresses/:ref', async (request, reply) => {
		const caller = server(request);
		return idempotent(ctx, request, reply, 'standing-deposit-addresses', caller.partner.partnerId, () => {
			const reference = referenceOf(request);
			const instruction = parseInput(InstructionSchema, request.body);
			const { chain, asset } = instruction.destination;
			if (!STANDING_DESTINATIONS.some((d) => d.chain === chain && d.asset === asset)) {
				throw badRequest(`destination ${chain}:${asset} is not a standing deposit destination`, 'unsupported_route');
			}
			checkFees(caller, instruction);
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
				addresses: PartnerBook.newAddresses(),
				enabled: true,
				createdAt: new Date(ctx.clock.now()).toISOString(),
			};
			book.standing.set(key, record);
			return { status: 200, body: view(record) };
		});
	});
}
