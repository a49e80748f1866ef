/**
 * Affiliate reporting, management and claims (spec §2.7, §4.5, §5; public-notes "Affiliate
 * management and claims"). Listing: server keys, or a client key pinned to one affiliate with
 * affiliates:read; everything else server key only. Claims pay the available 80 % share of one
 * settlement asset (claims.ts), answer `{claim}`, and are listed newest first with the settlement
 * filters and `nextOffset`, or read one by one. The payout destinations live now are the partner's
 * listed assets but Lightning's, as a profile or a claim may name them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ChainSchema } from '../wire';
import { catalogueView, type Caller, type OrchestrationContext } from '../context';
import { affiliateIdOf } from '../affiliateIds';
import { authenticate } from '../auth';
import { badRequest, forbidden, notFound, parseInput } from '../errors';
import { idempotent } from '../idempotency';
import { checkIpLimit } from '../rateLimits';
import { PartnerBook, affiliatesOf, claimView, type AffiliateRecord } from '../partnerBook';
import { ClaimBodySchema, createClaim } from '../claims';

const ProfileSchema = z.object({
	// public-notes "Affiliate management and claims": feeBps 1..9999, required
	feeBps: z.number().int().min(1).max(9_999),
	payoutChain: ChainSchema,
	payoutAsset: z.string().min(1),
	payoutAddress: z.string().min(1),
});

const AccrueSchema = z.object({
	amount: z.string().regex(/^[1-9][0-9]*$/, 'must be a positive integer string in smallest units'),
	chain: ChainSchema.default('base'),
	asset: z.string().min(1).default('USDC'),
	partnerId: z.string().min(1).optional(),
});

/** `limit` (1..max, default) and `offset` of a listing; 400 invalid_query otherwise. */
function page(request: FastifyRequest, max: number, fallback: number): { limit: number; offset: number } {
	const q = request.query as Record<string, string | undefined>;
	const int = (name: string, value: string | undefined, dflt: number, hi: number): number => {
		if (value === undefined) return dflt;
		if (!/^[0-9]{1,9}$/.test(value) || Number(value) > hi) throw badRequest(`${name}: must be an integer from 0 to ${hi}`, 'invalid_query');
		return Number(value);
	};
	const limit = int('limit', q.limit, fallback, max);
	if (limit < 1) throw badRequest('limit: must be at least 1', 'invalid_query');
	return { limit, offset: int('offset', q.offset, 0, 1_000_000_000) };
}

/** The path's affiliate ID as the service reads it (public-notes: trimmed, lowercased, the docs' pattern). */
function idOf(request: FastifyRequest): string {
	return affiliateIdOf((request.params as { affiliateId: string }).affiliateId);
}

function affiliateOf(caller: Caller, affiliateId: string): AffiliateRecord {
	const found = affiliatesOf(caller.partner).find((a) => a.affiliateId === affiliateId);
	if (!found) throw notFound(`no affiliate ${JSON.stringify(affiliateId)} for this partner`);
	return found;
}

export function registerAffiliateEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	const book = ctx.state.partnerBook;
	const iso = () => new Date(ctx.clock.now()).toISOString();
	const server = (request: FastifyRequest) => authenticate(ctx, request, {}) as Caller;

	// spec §4.5, §5: server keys see every affiliate; a client key only its pinned one, with affiliates:read
	app.get('/v1/affiliates', async (request) => {
		const caller = authenticate(ctx, request, { clientScope: 'affiliates:read' }) as Caller;
		const { limit, offset } = page(request, 1000, 200);
		const includeDisabled = (request.query as Record<string, unknown>).includeDisabled === 'true';
		let list = affiliatesOf(caller.partner).filter((a) => includeDisabled || a.enabled);
		if (caller.type === 'client') {
			const pinned = caller.key.affiliateId;
			if (!pinned) throw forbidden('forbidden', 'affiliate reporting needs a client key pinned to an affiliate');
			list = list.filter((a) => a.affiliateId === pinned);
		}
		return { affiliates: list.slice(offset, offset + limit).map(PartnerBook.profile) };
	});

	app.put('/v1/affiliates/:affiliateId', async (request, reply) => {
		const caller = server(request);
		return idempotent(ctx, request, reply, 'affiliates.put', caller.partner.partnerId, () => {
			const affiliateId = idOf(request);
			const profile = parseInput(ProfileSchema, request.body);
			if (profile.payoutChain === 'lightning' || !ctx.catalogue.find(profile.payoutChain, profile.payoutAsset, catalogueView(ctx, caller.partner.partnerId))) {
				throw badRequest(`${profile.payoutChain}:${profile.payoutAsset} is not a supported payout destination`, 'invalid_payout_destination');
			}
			const list = affiliatesOf(caller.partner);
			const existing = list.find((a) => a.affiliateId === affiliateId);
			const now = iso();
			// the sandbox re-enables a disabled affiliate on update (the live rule is not shown)
			const record: AffiliateRecord = { ...(existing ?? { createdAt: now }), affiliateId, ...profile, enabled: true, updatedAt: now, disabledAt: null };
			if (existing) Object.assign(existing, record);
			else list.push(record);
			return { status: 200, body: { affiliate: PartnerBook.profile(record) } };
		});
	});

	app.delete('/v1/affiliates/:affiliateId', async (request, reply) => {
		const caller = server(request);
		return idempotent(ctx, request, reply, 'affiliates.delete', caller.partner.partnerId, () => {
			const affiliate = affiliateOf(caller, idOf(request));
			if (affiliate.enabled) Object.assign(affiliate, { enabled: false, disabledAt: iso(), updatedAt: iso() });
			return { status: 200, body: { ok: true } };
		});
	});

	// public-notes: the payout chains and assets live now (server key). The answer's shape is not shown:
	// the sandbox answers {destinations: [{chain, asset}]}, as the standing addresses' destinations do.
	app.get('/v1/affiliate-dashboard/payout-destinations', async (request) => {
		const caller = server(request);
		const payable = ctx.catalogue.visible(catalogueView(ctx, caller.partner.partnerId)).filter((a) => a.chain !== 'lightning');
		return { destinations: payable.map((a) => ({ chain: a.chain, asset: a.asset })) };
	});

	// public-notes (newer docs): an optional body {settlementChain, settlementAsset, payoutChain, payoutAsset, payoutAddress}; answers {claim}
	// public-notes: affiliate claims are limited per IP (30 a minute)
	app.post('/v1/affiliates/:affiliateId/claim', async (request, reply) => {
		checkIpLimit(ctx, request, reply, 'claims');
		const caller = server(request);
		return idempotent(ctx, request, reply, 'affiliates.claim', caller.partner.partnerId, () => {
			const affiliate = affiliateOf(caller, idOf(request));
			const body = parseInput(ClaimBodySchema, request.body ?? {});
			const claim = createClaim(ctx, caller.partner, affiliate, body);
			return { status: 200, body: { claim: claimView(claim) } };
		});
	});

	// newest first; filters settlementChain/settlementAsset; {claims, nextOffset}
	app.get('/v1/affiliates/:affiliateId/claims', async (request) => {
		const caller = server(request);
		const { affiliateId } = affiliateOf(caller, idOf(request));
		const { limit, offset } = page(request, 200, 50);
		const q = request.query as Record<string, string | undefined>;
		const mine = book.claims
			.filter((c) => c.partnerId === caller.partner.partnerId && c.affiliateId === affiliateId)
			.filter((c) => (q.settlementChain === undefined || c.settlementChain === q.settlementChain) && (q.settlementAsset === undefined || c.settlementAsset === q.settlementAsset))
			.reverse();
		return { claims: mine.slice(offset, offset + limit).map(claimView), nextOffset: offset + limit < mine.length ? offset + limit : null };
	});

	app.get('/v1/affiliates/:affiliateId/claims/:claimId', async (request) => {
		const caller = server(request);
		const { affiliateId } = affiliateOf(caller, idOf(request));
		const claimId = (request.params as { claimId: string }).claimId;
		const claim = book.claims.find((c) => c.partnerId === caller.partner.partnerId && c.affiliateId === affiliateId && c.id === claimId);
		if (!claim) throw notFound(`no claim ${JSON.stringify(claimId)} of affiliate ${JSON.stringify(affiliateId)}`);
		return { claim: claimView(claim) };
	});

	// Control: accrue an affiliate's share directly (completed orders with affiliate fees accrue too).
	app.post('/sandbox/affiliates/:affiliateId/accrue', async (request, reply) => {
		const body = parseInput(AccrueSchema, request.body);
		const partner = ctx.config.partners.find((p) => p.partnerId === (body.partnerId ?? ctx.config.partners[0].partnerId));
		if (!partner) throw badRequest('partnerId: unknown partner');
		const affiliateId = idOf(request);
		if (!affiliatesOf(partner).some((a) => a.affiliateId === affiliateId)) throw notFound('affiliate not found');
		const asset = ctx.catalogue.find(body.chain, body.asset, catalogueView(ctx, partner.partnerId));
		if (!asset) throw badRequest(`${body.chain}:${body.asset} is not in the catalogue`);
		book.accruals.push({ partnerId: partner.partnerId, affiliateId, chain: asset.chain, asset: asset.asset, decimals: asset.decimals, amount: BigInt(body.amount) });
		const balances = book.balances(partner.partnerId, affiliateId, ctx.state.orders.values());
		return reply.code(201).send({ balances: balances.map((b) => ({ chain: b.chain, asset: b.asset, available: b.available.toString() })) });
	});
}
