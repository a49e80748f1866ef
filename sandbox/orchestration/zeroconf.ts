import { randomBytes } from 'node:crypto';
import type { SandboxClock } from '../clock';
import { badRequest } from './errors';
import type { OrderRecord } from './state';

/** The offer's fee share of the deposit, in basis points (the sandbox's choice). */
const OFFER_FEE_BPS = 100n;
/** The share held back until the deposit confirms (the sandbox's choice). */
const HOLDBACK_BPS = 1_000n;
/** How likely the deposit confirms (the sandbox's choice; public-notes, fourth harvest: offers carry it). */
const CONFIRMATION_PROBABILITY = '0.9985';

export type OfferDecision = 'accepted' | 'declined';

/**
 * A pending ZeroConf offer on a Bitcoin L1 deposit (public-notes `zeroconfOffer`): the whole
 * deposit split into an instant part and a holdback, less the offer's fee.
 */
export function pendingOffer(order: OrderRecord, clock: SandboxClock, ttlSpecMs: number, probabilityAs: 'number' | 'string'): Record<string, unknown> {
	const depositSats = order.amountIn;
	const feeSats = (depositSats * OFFER_FEE_BPS) / 10_000n;
	const holdbackSats = ((depositSats - feeSats) * HOLDBACK_BPS) / 10_000n;
	const now = clock.now();
	return {
		version: 1,
		status: 'pending',
		quoteId: `zc_${randomBytes(8).toString('hex')}`,
		sparkAddress: `sp1q${randomBytes(20).toString('hex')}`,
		txid: order.depositTxHash ?? randomBytes(32).toString('hex'),
		vout: 0,
		depositSats: depositSats.toString(),
		instantSats: (depositSats - feeSats - holdbackSats).toString(),
		holdbackSats: holdbackSats.toString(),
		feeSats: feeSats.toString(),
		confirmationProbability: probabilityAs === 'number' ? Number(CONFIRMATION_PROBABILITY) : CONFIRMATION_PROBABILITY,
		offeredAt: new Date(now).toISOString(),
		expiresAt: new Date(clock.after(ttlSpecMs)).toISOString(),
		resolvedAt: null,
	};
}

/** Why the partner cannot answer this order's offer now (public-notes: 400 invalid_state), or nothing. */
export function assertOfferOpen(order: OrderRecord, partnerId: string | null, nowMs: number): void {
	const offer = order.zeroconfOffer;
	const refuse = (why: string) => badRequest(`order ${order.id} ${why}`, 'invalid_state');
	if (order.partnerId !== partnerId) throw refuse('belongs to another partner');
	if (order.status !== 'awaiting_approval' || order.paused) throw refuse(`is ${order.status}, not awaiting_approval`);
	if (!offer) throw refuse('has no ZeroConf offer (an operator hold needs no answer)');
	if (offer.status !== 'pending') throw refuse(`has a ZeroConf offer that is already ${String(offer.status)}`);
	if (nowMs >= Date.parse(String(offer.expiresAt))) throw refuse(`has a ZeroConf offer that expired at ${String(offer.expiresAt)}`);
}

/**
 * The offer as a standing-address deposit shows it (public-notes: `{id, status, expiresAt,
 * depositSats, feeSats, creditSats}`, and `confirmationProbability`): the order's offer, counting
 * what the deposit credits (deposit less fee) where the order's counts its instant part.
 */
export function depositOfferView(offer: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
	if (!offer) return null;
	return {
		id: offer.quoteId,
		status: offer.status,
		expiresAt: offer.expiresAt,
		depositSats: offer.depositSats,
		feeSats: offer.feeSats,
		creditSats: (BigInt(offer.depositSats as string) - BigInt(offer.feeSats as string)).toString(),
		confirmationProbability: offer.confirmationProbability,
	};
}
