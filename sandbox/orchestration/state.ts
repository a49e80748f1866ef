import { randomBytes } from 'node:crypto';
import type { PublicStatus, Stage } from './spec';
import type { AccumulationSeed, LiquidationSeed, SandboxConfig } from '../config';
import type { CatalogueAsset } from './catalogue';
import { PartnerBook } from './partnerBook';

/** Scripted order paths (POST /sandbox/deposits `outcome`). */
export const OUTCOMES = [
	'completed', 'failed', 'refunded', 'unfulfilled', 'awaiting_approval', 'paused', 'zeroconf', 'zeroconf_declined',
	// a ZeroConf offer that waits in awaiting_approval for the partner's accept or decline (public-notes)
	'zeroconf_offer',
	// unfulfilled, then a late deposit resumes it one step later, on to completed (public-notes)
	'late_deposit',
	// stops in awaiting_approval at its swap: the locked price can no longer be honoured (public-notes, fourth harvest)
	'reprice',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface FeePlanEntry {
	recipient: string;
	feeBps: number;
	affiliateId?: string;
}

export interface FeePlan {
	platformFeeBps: number;
	appFees: FeePlanEntry[];
	totalFeeBps: number;
}

export interface QuoteRecord {
	quoteId: string;
	kind: 'quote' | 'offramp' | 'onramp';
	partnerId: string | null;
	keyId: string | null;
	idempotencyKey: string | null;
	createdAtMs: number;
	expiresAtMs: number;
	source: CatalogueAsset;
	destination: CatalogueAsset;
	recipientAddress: string;
	amountMode: 'exact_in' | 'exact_out';
	depositAddress: string;
	depositMemo?: string;
	feePlan?: FeePlan;
	fiat?: { amountFiatUsd: string; spotUsdPerBtc: string };
	outcome?: Outcome;
	/** The quote response as sent (without the caller's read token). */
	response: Record<string, unknown>;
	orderId?: string;
	/** An amountless Lightning invoice was minted (spec §1, §2.2). */
	amountless?: boolean;
	/** The slippage the quote locked its minimum with, and its refund address (a re-approval's refund uses it). */
	slippageBps?: number;
	refundAddress?: string;
	/** The pay link a payer paid through (public-notes, fourth harvest). */
	payLink?: PayLinkRef;
	/** The partner is billed by invoice: the platform fee was left out of the quote (public-notes, fourth harvest). */
	invoiceBilled?: boolean;
}

/** A pay link as its orders carry it: `payLinkId` (its shortId) and `payLinkLabel` (only when labelled, spec 2.10). */
export interface PayLinkRef {
	id: string;
	label?: string;
}

/** A pay link (public-notes, fourth harvest): a destination and an amount a payer pays from any source. */
export interface PayLinkRecord {
	shortId: string;
	partnerId: string;
	destination: CatalogueAsset;
	recipientAddress: string;
	amountOut?: bigint;
	amountFiatUsd?: string;
	label?: string;
	createdAt: string;
}

export interface StageRecord {
	name: Stage;
	status: 'completed';
	completedAt: string;
}

export type OrderOrigin = 'quote' | 'onramp' | 'accumulation' | 'liquidation' | 'standing';

export interface OrderRecord {
	id: string;
	origin: OrderOrigin;
	partnerId: string | null;
	keyId: string | null;
	quoteId: string | null;
	status: PublicStatus;
	/** Internal pause (spec §3): shown publicly as processing, no event. */
	paused: boolean;
	/** Remaining scripted steps; `paused` entries are pause spells. */
	plan: Array<PublicStatus | 'paused'>;
	autoAdvance: boolean;
	stages: StageRecord[];
	createdAt: string;
	updatedAt: string;
	source: CatalogueAsset;
	destination: CatalogueAsset;
	recipientAddress: string;
	depositAddress: string;
	amountIn: bigint;
	estimatedOut: bigint;
	feeAmount: bigint;
	feeBps: number;
	amountMode: 'exact_in' | 'exact_out';
	feePlan?: FeePlan;
	fiat?: { amountFiatUsd: string; spotUsdPerBtc: string };
	zeroconfOffer: Record<string, unknown> | null;
	swap?: Record<string, unknown>;
	feePayouts?: { entries: Array<Record<string, unknown>> };
	amountOut: bigint | null;
	/** When the deposit arrived; unset while an onramp invoice is unpaid. */
	fundedAt?: string;
	/** The paid amount differed from the quote (spec §3 amount_reconciled). */
	reconciled?: boolean;
	outcome: Outcome;
	timer?: NodeJS.Timeout;
	/** How the status view reports this order, as the live service may (POST /sandbox/orders/:id/report). */
	reported?: {
		status?: string;
		omitStages?: boolean;
		amountIn?: string;
		feePayouts?: { entries: Array<Record<string, unknown>> };
		/** Order members merged into the status view (priceLock, errorCode, ... as the live docs show them). */
		fields?: Record<string, unknown>;
	};
	/** Funded through an amountless Lightning invoice: runs on the paid amount (spec §1). */
	amountless?: boolean;
	/** The deposit transaction (submit's txHash / bitcoinTxid / sparkTxHash, or the simulated deposit's). */
	depositTxHash?: string;
	/** Every public status the order took, in order (the state machine's record, GET /sandbox/orders/:id). */
	history: PublicStatus[];
	/** The order that took over this order's replaced (RBF) deposit; this one stays unfulfilled (public-notes). */
	supersededByOperationId?: string;
	/** The order whose replaced deposit this order carries on (public-notes). */
	recoveredFromOperationId?: string;
	/** When a late deposit resumed this order out of unfulfilled. */
	resumedAt?: string;
	/** The price the quote locked (public-notes `priceLock`): what a re-approval compares with. */
	lock?: PriceLockTerms;
	/** The source-chain refund address the quote named. */
	refundAddress?: string;
	/** Shown once a re-approval was asked (public-notes, fourth harvest). */
	priceLock?: Record<string, unknown>;
	reprice?: Record<string, unknown>;
	/** Failure or hold details (`error` in webhooks, `errorCode` flat on the status order, public-notes). */
	error?: { code: string; message: string } | null;
	/** A refund on its way or done: `refund{asset, amount, txHash}` (public-notes webhook data) and where it goes. */
	refund?: { asset: string; amount: string; txHash: string | null; address: string };
	payLink?: PayLinkRef;
	/** Its platform fee accrues to the partner's fee invoice instead of being taken from the amount. */
	invoiceBilled?: boolean;
}

/** What a quote locked: the quoted output, the minimum, the slippage and the quote's lifetime. */
export interface PriceLockTerms {
	quotedAmountIn: bigint;
	quotedAmountOut: bigint;
	lockedMinAmountOut: bigint;
	slippageBps: number;
	createdAt: string;
	expiresAt: string;
}

export interface ReadTokenRecord {
	partnerId: string;
	keyId: string;
	kind: 'quote' | 'order';
	identifier: string;
	expiresAtMs: number;
}

export interface WebhookRecord {
	webhookId: string;
	partnerId: string;
	url: string;
	secret: string;
	createdAt: string;
	/** A recovery subscription (public-notes: order.recovery_required only); order events otherwise. */
	kind?: 'recovery';
	/** Set by DELETE: a disabled endpoint receives nothing. */
	disabledAt?: string;
}

export interface DeliveryAttempt {
	attempt: number;
	at: string;
	timestamp: string;
	signature: string;
	status: number | null;
	error?: string;
	responseBody?: string;
	/** The bytes of this attempt when its envelope was stamped at delivery (the delivery's `body` is the first attempt's). */
	body?: string;
}

export interface DeliveryRecord {
	deliveryId: string;
	webhookId: string;
	url: string;
	event: string;
	orderId: string;
	body: string;
	state: 'pending' | 'delivered' | 'failed';
	duplicateOf?: string;
	/** Each attempt stamps the envelope's `timestamp` with its own time (the live service's envelope). */
	stampedPerAttempt?: boolean;
	attempts: DeliveryAttempt[];
	nextAttemptAt?: string;
}

export interface IdempotencyEntry {
	fingerprint: string;
	state: 'in_flight' | 'done';
	status?: number;
	body?: unknown;
}

export interface RecordedRequest {
	seq: number;
	at: string;
	method: string;
	path: string;
	route: string | null;
	query: Record<string, unknown>;
	headers: Record<string, unknown>;
	body: unknown;
	status: number;
	idempotencyKey: string | null;
	replayed: boolean;
	/** The rate-limit headers of the answer (`x-ratelimit-limit`, `-remaining`, `-reset`, `retry-after`), those it carried. */
	limitHeaders: Record<string, string>;
	/** A fault withheld the answer after the handler ran: `dropAnswer` (never sent) or `lateAnswer` (sent after latencyMs). */
	answerWithheld?: 'dropAnswer' | 'lateAnswer';
	/** The client closed the connection before the answer was ready (its timeout): `status` was never received. */
	clientGone?: boolean;
	keyType: 'server' | 'client' | null;
	partnerId: string | null;
}

export interface AccumulationRecord extends AccumulationSeed {
	partnerId: string;
	createdAt: string;
	updatedAt: string;
	disabledAt: string | null;
	appFees: FeePlanEntry[];
}

export interface LiquidationRecord extends LiquidationSeed {
	partnerId: string;
	createdAt: string;
	updatedAt: string;
	disabledAt: string | null;
	appFees: FeePlanEntry[];
}

const SEEDED_AT = '2025-01-01T00:00:00.000Z';

/** All runtime state of the orchestration emulator; `reset()` clears it and re-seeds addresses. */
export class SandboxState {
	quotes = new Map<string, QuoteRecord>();
	quotesByDeposit = new Map<string, string>();
	orders = new Map<string, OrderRecord>();
	readTokens = new Map<string, ReadTokenRecord>();
	idempotency = new Map<string, IdempotencyEntry>();
	webhooks: WebhookRecord[] = [];
	deliveries: DeliveryRecord[] = [];
	requests: RecordedRequest[] = [];
	/** Records dropped since the start because the log was full (`recordedRequests`). */
	droppedRequests = 0;
	accumulation = new Map<string, AccumulationRecord>();
	liquidation = new Map<string, LiquidationRecord>();
	rateCounters = new Map<string, { windowStart: number; count: number }>();
	payLinks = new Map<string, PayLinkRecord>();
	/** Standing instructions, affiliate profiles, accruals and claims (public-notes). */
	readonly partnerBook: PartnerBook;
	private counter = 0;
	private requestSeq = 0;

	constructor(private readonly config: SandboxConfig) {
		this.partnerBook = new PartnerBook(config);
		this.seedAddresses();
	}

	/** A unique id with a readable prefix (`q_`, `ord_`, ...). */
	nextId(prefix: string): string {
		this.counter++;
		return `${prefix}_${this.counter.toString(36).padStart(4, '0')}${randomBytes(6).toString('hex')}`;
	}

	nextCounter(): number {
		return ++this.counter;
	}

	record(entry: Omit<RecordedRequest, 'seq'>): void {
		this.requests.push({ seq: ++this.requestSeq, ...entry });
		const max = this.config.switches.recordedRequests;
		if (this.requests.length > max) this.droppedRequests += this.requests.splice(0, this.requests.length - max).length;
	}

	reset(): void {
		this.droppedRequests = 0;
		this.quotes.clear();
		this.quotesByDeposit.clear();
		this.orders.clear();
		this.readTokens.clear();
		this.idempotency.clear();
		this.webhooks = [];
		this.deliveries = [];
		this.requests = [];
		this.rateCounters.clear();
		this.payLinks.clear();
		this.partnerBook.reset();
		this.seedAddresses();
	}

	private seedAddresses(): void {
		this.accumulation.clear();
		this.liquidation.clear();
		for (const p of this.config.partners) {
			for (const a of p.accumulationAddresses) {
				const disabledAt = a.enabled ? null : SEEDED_AT;
				this.accumulation.set(a.accumulationAddressId, { ...structuredClone(a), partnerId: p.partnerId, createdAt: SEEDED_AT, updatedAt: SEEDED_AT, disabledAt, appFees: [] });
			}
			for (const l of p.liquidationAddresses) {
				const disabledAt = l.enabled ? null : SEEDED_AT;
				this.liquidation.set(l.liquidationAddressId, { ...structuredClone(l), partnerId: p.partnerId, createdAt: SEEDED_AT, updatedAt: SEEDED_AT, disabledAt, appFees: [] });
			}
		}
	}
}
