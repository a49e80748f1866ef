/**
 * The sandbox's partner records beyond the spec's tables (public-notes "Standing deposit addresses",
 * "Affiliate management and claims"): standing instructions by reference with the deposits paid to
 * them, affiliate profiles (the configured seeds, restored on reset), affiliate fee accruals and claims.
 */
import { randomBytes } from 'node:crypto';
import { isStablecoin } from './spec';
import type { SandboxConfig, SeedAffiliate, SeedPartner } from '../config';

const SEEDED_AT = '2025-01-01T00:00:00.000Z';

/** What the balances read of an order (state.ts's OrderRecord has it): its partner, status, source asset and fee payouts. */
export interface AccruingOrder {
	partnerId: string | null;
	status: string;
	source: { chain: string; asset: string; decimals: number };
	feePayouts?: { entries: Array<Record<string, unknown>> };
}

export interface StandingRecord {
	partnerId: string;
	reference: string;
	standingAddressId: string;
	/** The request as the instruction was created, defaults applied: what a later PUT is compared with. */
	instruction: Record<string, unknown>;
	/** The affiliates' configuration when the instruction was created (public-notes: frozen into it). */
	frozenAffiliates: Array<{ affiliateId: string; recipient: string; feeBps: number }>;
	addresses: Record<string, string>;
	enabled: boolean;
	createdAt: string;
	/** Payments to the addresses, oldest first (the listing answers newest first). */
	deposits: StandingDeposit[];
	/** The batch that holds the deposits paid while paused (one per pause). */
	heldBatchId: string | null;
}

/**
 * A payment to a standing address (public-notes: `{id, chain, asset, amount, sourceTxId,
 * sourceTxIndex, senderAddress, observedAt, status, code, batchId, orderId, quoteId, batchState,
 * refundTxId, zeroconfOffer}`). The status, code and batch-state values are not shown: the sandbox's
 * own are `converted` (an order was created) and `held` (paid while paused; code
 * `standing_address_paused`, batch state `held`), then `refund_requested` and `refunded` (or `refund_failed`).
 */
export interface StandingDeposit {
	id: string;
	chain: string;
	asset: string;
	amount: bigint;
	sourceTxId: string;
	sourceTxIndex: number | null;
	senderAddress: string | null;
	observedAt: string;
	status: 'converted' | HeldState;
	code: string | null;
	batchId: string | null;
	batchState: HeldState | null;
	orderId: string | null;
	refundTxId: string | null;
	/** Where a requested refund goes (not a listed member). */
	refundAddress?: string;
}

/** A held deposit and its refund (the sandbox's names: the docs show none): held, refund_requested, then refunded or refund_failed. */
export type HeldState = 'held' | 'refund_requested' | 'refunded' | 'refund_failed';

/** An affiliate profile: the seed's fields plus its timestamps (spec §2.7). */
export type AffiliateRecord = SeedAffiliate & { createdAt?: string; updatedAt?: string; disabledAt?: string | null };

export interface Accrual {
	partnerId: string;
	affiliateId: string;
	chain: string;
	asset: string;
	decimals: number;
	/** The affiliate's 80 % share, smallest units. */
	amount: bigint;
}

/**
 * A claim (public-notes, newer docs): the balance of one settlement chain and asset, paid to a payout
 * destination asynchronously; `status` starts at `processing`. The paid and failed status names
 * are not shown: the sandbox's own are `completed` (with `txHash`) and `failed` (with `errorMessage`).
 */
export interface ClaimRecord {
	id: string;
	partnerId: string;
	affiliateId: string;
	settlementChain: string;
	settlementAsset: string;
	decimals: number;
	amount: bigint;
	payoutChain: string;
	payoutAsset: string;
	payoutAddress: string;
	status: 'processing' | 'completed' | 'failed';
	txHash: string | null;
	relayRequestId: string | null;
	operationId: string | null;
	errorMessage: string | null;
	nextAttemptAt: string | null;
	attempts: number;
	createdAt: string;
	completedAt: string | null;
}

/** A balance of one affiliate in one asset. */
export interface Balance {
	chain: string;
	asset: string;
	decimals: number;
	available: bigint;
}

/** What fee invoices count in (the docs show no invoice; the sandbox's choice): USDC, 6 decimals. */
export const INVOICE_ASSET = { asset: 'USDC', decimals: 6 } as const;
/** Days after its period an invoice falls due (the sandbox's choice). */
const INVOICE_DUE_DAYS = 15;

/**
 * A fee invoice of a partner billed by invoice (public-notes, fourth harvest; its shape is not
 * shown, this one is the sandbox's): the platform fees of the orders completed in one calendar
 * month (UTC), in USDC; `open` while the month runs.
 */
export interface InvoiceRecord {
	id: string;
	partnerId: string;
	periodStart: string;
	periodEnd: string;
	status: 'open' | 'issued' | 'paid' | 'overdue' | 'void';
	amount: bigint;
	orderIds: string[];
	createdAt: string;
	issuedAt: string | null;
	dueAt: string;
	paidAt: string | null;
}

export class PartnerBook {
	standing = new Map<string, StandingRecord>();
	accruals: Accrual[] = [];
	claims: ClaimRecord[] = [];
	invoices: InvoiceRecord[] = [];
	private readonly seeds: SeedAffiliate[][];

	constructor(private readonly config: SandboxConfig) {
		this.seeds = config.partners.map((p) => structuredClone(p.affiliates));
	}

	reset(): void {
		this.standing.clear();
		this.accruals = [];
		this.claims = [];
		this.invoices = [];
		// the partners' affiliate lists are the ones fees.ts reads: restored in place
		this.config.partners.forEach((p, n) => p.affiliates.splice(0, p.affiliates.length, ...structuredClone(this.seeds[n])));
	}

	/** Adds an order's platform fee (USDC smallest units) to the partner's open invoice of the month of `atMs`. */
	accrueInvoice(partnerId: string, orderId: string, amount: bigint, atMs: number): InvoiceRecord {
		const at = new Date(atMs);
		const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
		let invoice = this.invoices.find((i) => i.partnerId === partnerId && i.status === 'open' && i.periodStart === start.toISOString());
		if (!invoice) {
			invoice = PartnerBook.newInvoice(partnerId, start, at.toISOString());
			this.invoices.push(invoice);
		}
		invoice.amount += amount;
		invoice.orderIds.push(orderId);
		return invoice;
	}

	/** An empty invoice for the month starting at `start`. */
	static newInvoice(partnerId: string, start: Date, createdAt: string): InvoiceRecord {
		const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
		const due = new Date(end.getTime() + INVOICE_DUE_DAYS * 86_400_000);
		return {
			id: `inv_${randomBytes(8).toString('hex')}`, partnerId, periodStart: start.toISOString(), periodEnd: end.toISOString(),
			status: 'open', amount: 0n, orderIds: [], createdAt, issuedAt: null, dueAt: due.toISOString(), paidAt: null,
		};
	}

	static standingKey(partnerId: string, reference: string): string {
		return JSON.stringify([partnerId, reference]);
	}

	/** Deposit addresses of a new instruction, one per source family (their names are not shown: sandbox's own). */
	static newAddresses(): Record<string, string> {
		const hex = (n: number) => randomBytes(n).toString('hex');
		return { evm: `0x${hex(20)}`, solana: `Sb${hex(20)}`, bitcoin: `bc1qsandbox${hex(16)}`, tron: `T${hex(16)}` };
	}

	static profile(a: AffiliateRecord): Record<string, unknown> {
		return { createdAt: SEEDED_AT, updatedAt: SEEDED_AT, ...a, disabledAt: a.enabled ? null : (a.disabledAt ?? SEEDED_AT) };
	}

	/** Accrued shares from completed orders (holdback legs) and control accruals, minus claims, per asset. */
	balances(partnerId: string, affiliateId: string, orders: Iterable<AccruingOrder>): Balance[] {
		const byAsset = new Map<string, Balance>();
		const add = (chain: string, asset: string, decimals: number, amount: bigint) => {
			const key = `${chain}:${asset}`;
			const entry = byAsset.get(key) ?? { chain, asset, decimals, available: 0n };
			entry.available += amount;
			byAsset.set(key, entry);
		};
		for (const order of orders) {
			if (order.partnerId !== partnerId || order.status !== 'completed') continue;
			for (const e of order.feePayouts?.entries ?? []) {
				if (e.affiliateId !== affiliateId || e.leg !== 'holdback' || typeof e.recipientAmount !== 'string') continue;
				add(order.source.chain, order.source.asset, order.source.decimals, BigInt(e.recipientAmount));
			}
		}
		for (const a of this.accruals) if (a.partnerId === partnerId && a.affiliateId === affiliateId) add(a.chain, a.asset, a.decimals, a.amount);
		// a failed claim gives its amount back to the balance
		for (const c of this.claims) {
			if (c.partnerId === partnerId && c.affiliateId === affiliateId && c.status !== 'failed') add(c.settlementChain, c.settlementAsset, c.decimals, -c.amount);
		}
		return [...byAsset.values()];
	}

	/** Claimable: at least 1 USDC (public-notes); the sandbox counts a stablecoin unit as 1 USDC and any other positive balance as enough. */
	static claimable(b: Balance): boolean {
		if (b.available <= 0n) return false;
		return isStablecoin(b.asset) ? b.available >= 10n ** BigInt(b.decimals) : true;
	}
}

export function affiliatesOf(partner: SeedPartner): AffiliateRecord[] {
	return partner.affiliates as AffiliateRecord[];
}

/** A claim as the newer docs show it (`GET /v1/affiliates/{affiliateId}/claims/{claimId}` → `{claim}`). */
export function claimView(c: ClaimRecord): Record<string, unknown> {
	return {
		id: c.id,
		affiliateId: c.affiliateId,
		amount: c.amount.toString(),
		settlementChain: c.settlementChain,
		settlementAsset: c.settlementAsset,
		payoutChain: c.payoutChain,
		payoutAsset: c.payoutAsset,
		payoutAddress: c.payoutAddress,
		status: c.status,
		txHash: c.txHash,
		relayRequestId: c.relayRequestId,
		operationId: c.operationId,
		errorMessage: c.errorMessage,
		nextAttemptAt: c.nextAttemptAt,
		attempts: c.attempts,
		createdAt: c.createdAt,
		completedAt: c.completedAt,
	};
}

/** A fee invoice as GET /v1/partner/dashboard/fee-invoices lists it (the sandbox's shape). */
export function invoiceView(i: InvoiceRecord): Record<string, unknown> {
	const whole = 10n ** BigInt(INVOICE_ASSET.decimals);
	const fraction = (i.amount % whole).toString().padStart(INVOICE_ASSET.decimals, '0').replace(/0+$/, '');
	return {
		id: i.id,
		periodStart: i.periodStart,
		periodEnd: i.periodEnd,
		status: i.status,
		amount: i.amount.toString(),
		asset: INVOICE_ASSET.asset,
		decimals: INVOICE_ASSET.decimals,
		amountUsd: fraction === '' ? (i.amount / whole).toString() : `${i.amount / whole}.${fraction}`,
		orderCount: i.orderIds.length,
		createdAt: i.createdAt,
		issuedAt: i.issuedAt,
		dueAt: i.dueAt,
		paidAt: i.paidAt,
	};
}
