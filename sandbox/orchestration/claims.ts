/**
 * Affiliate claims (public-notes "Affiliate management and claims", newer docs): a claim takes the
 * whole available balance of one settlement chain and asset (where the fees accrued, or the one the
 * optional body names) and pays it to the affiliate's payout destination (or the one the body
 * names), asynchronously: `processing`, then paid with a `txHash` or failed with an `errorMessage`,
 * over the sandbox clock (switches `claimPayoutMs`, `claimOutcome`; by hand with autoAdvance off).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { SeedPartner } from '../config';
import { catalogueView, type OrchestrationContext } from './context';
import { simulatedTxHash } from './deposits';
import { badRequest } from './errors';
import { PartnerBook, type AffiliateRecord, type ClaimRecord } from './partnerBook';

/** The optional body: unknown members are refused (the sandbox's reading; the live rule is not shown). */
export const ClaimBodySchema = z
	.object({
		settlementChain: z.string().min(1).optional(),
		settlementAsset: z.string().min(1).optional(),
		payoutChain: z.string().min(1).optional(),
		payoutAsset: z.string().min(1).optional(),
		payoutAddress: z.string().min(1).max(512).optional(),
	})
	.strict();
export type ClaimBody = z.infer<typeof ClaimBodySchema>;

export type ClaimOutcome = 'paid' | 'failed' | 'retry';

const iso = (ms: number) => new Date(ms).toISOString();

/** Both members of a pair, or neither. */
function pair(body: ClaimBody, a: 'settlementChain' | 'payoutChain', b: 'settlementAsset' | 'payoutAsset'): void {
	if ((body[a] === undefined) !== (body[b] === undefined)) throw badRequest(`${a} and ${b} go together`, 'invalid_request');
}

/**
 * A new claim of `affiliate`, or a 400: a disabled affiliate cannot claim (public-notes), the
 * settlement balance must be claimable, and the payout destination must be one the catalogue
 * knows and not Lightning (as for profiles). Without a settlement pair the one claimable balance
 * is taken; with several, the sandbox asks for the pair (its own rule: the live one is not shown).
 */
export function createClaim(ctx: OrchestrationContext, partner: SeedPartner, affiliate: AffiliateRecord, body: ClaimBody): ClaimRecord {
	const book = ctx.state.partnerBook;
	if (!affiliate.enabled) throw badRequest(`affiliate ${JSON.stringify(affiliate.affiliateId)} is disabled: disabled affiliates cannot claim`, 'invalid_state');
	pair(body, 'settlementChain', 'settlementAsset');
	pair(body, 'payoutChain', 'payoutAsset');
	const balances = book.balances(partner.partnerId, affiliate.affiliateId, ctx.state.orders.values()).filter(PartnerBook.claimable);
	const chosen = body.settlementChain === undefined ? balances : balances.filter((b) => b.chain === body.settlementChain && b.asset === body.settlementAsset);
	if (chosen.length === 0) {
		const where = body.settlementChain === undefined ? '' : ` in ${body.settlementChain}:${body.settlementAsset}`;
		throw badRequest(`nothing to claim${where}: the available balance is below 1 USDC`, 'invalid_state');
	}
	if (chosen.length > 1) {
		const list = chosen.map((b) => `${b.chain}:${b.asset}`).join(', ');
		throw badRequest(`balances accrued in several assets (${list}): name settlementChain and settlementAsset`, 'invalid_request');
	}
	const payoutChain = body.payoutChain ?? affiliate.payoutChain;
	const payoutAsset = body.payoutAsset ?? affiliate.payoutAsset;
	if (body.payoutChain !== undefined && body.payoutChain !== affiliate.payoutChain && body.payoutAddress === undefined) {
		throw badRequest('payoutAddress is required when the payout chain changes', 'invalid_request');
	}
	if (payoutChain === 'lightning' || !ctx.catalogue.find(payoutChain, payoutAsset, catalogueView(ctx, partner.partnerId))) {
		throw badRequest(`${payoutChain}:${payoutAsset} is not a supported payout destination`, 'invalid_payout_destination');
	}
	const [balance] = chosen;
	const converted = payoutChain !== balance.chain || payoutAsset !== balance.asset;
	const claim: ClaimRecord = {
		id: ctx.state.nextId('clm'),
		partnerId: partner.partnerId,
		affiliateId: affiliate.affiliateId,
		settlementChain: balance.chain,
		settlementAsset: balance.asset,
		decimals: balance.decimals,
		amount: balance.available,
		payoutChain,
		payoutAsset,
		payoutAddress: body.payoutAddress ?? affiliate.payoutAddress,
		status: 'processing',
		txHash: null,
		relayRequestId: converted ? `rly_${randomBytes(8).toString('hex')}` : null,
		operationId: converted ? ctx.state.nextId('op') : null,
		errorMessage: null,
		nextAttemptAt: null,
		attempts: 0,
		createdAt: iso(ctx.clock.now()),
		completedAt: null,
	};
	book.claims.push(claim);
	if (ctx.switches.autoAdvance) scheduleAttempt(ctx, claim, ctx.switches.claimOutcome);
	return claim;
}

function scheduleAttempt(ctx: OrchestrationContext, claim: ClaimRecord, outcome: ClaimOutcome): void {
	ctx.clock.schedule(ctx.switches.claimPayoutMs, () => {
		if (claim.status !== 'processing') return;
		settleClaim(ctx, claim, outcome);
		if (claim.status === 'processing') scheduleAttempt(ctx, claim, 'paid');
	});
}

/**
 * One payout attempt of a claim in `processing`: paid (txHash, completedAt), failed for good
 * (errorMessage, no next attempt) or failed and retried (errorMessage and nextAttemptAt; the claim
 * stays `processing` and a later attempt clears the error).
 */
export function settleClaim(ctx: OrchestrationContext, claim: ClaimRecord, outcome: ClaimOutcome): void {
	if (claim.status !== 'processing') throw badRequest(`claim ${claim.id} is ${claim.status}`, 'invalid_state');
	const now = ctx.clock.now();
	claim.attempts += 1;
	if (outcome === 'paid') {
		Object.assign(claim, { status: 'completed', txHash: simulatedTxHash(claim.payoutChain), errorMessage: null, nextAttemptAt: null, completedAt: iso(now) });
	} else if (outcome === 'failed') {
		Object.assign(claim, { status: 'failed', errorMessage: 'the payout transfer was rejected (sandbox outcome "failed")', nextAttemptAt: null, completedAt: iso(now) });
	} else {
		Object.assign(claim, { errorMessage: 'the payout relay is unavailable; retrying (sandbox outcome "retry")', nextAttemptAt: iso(ctx.clock.after(ctx.switches.claimPayoutMs)) });
	}
}
