import { randomBytes } from 'node:crypto';
import type { PublicStatus, Stage } from './spec';
import type { SandboxClock } from '../clock';
import type { Switches } from '../config';
import type { CatalogueAsset } from './catalogue';
import { ApiError, conflict } from './errors';
import { convert, PLATFORM_FEE_BPS, priceExactIn, splitFee } from './pricing';
import { INVOICE_ASSET } from './partnerBook';
import type { FeePlan, OrderOrigin, OrderRecord, Outcome, SandboxState } from './state';
import { canMove, isTerminal } from './transitions';
import { pendingOffer, type OfferDecision } from './zeroconf';
import { repriceOf, type RepriceAnswer, type RepriceTerms } from './reprice';

type Step = PublicStatus | 'paused';

/** Statuses that continue a successful flow (stages of the step left behind are recorded). */
const ONWARD: ReadonlySet<PublicStatus> = new Set(['confirming', 'awaiting_approval', 'bridging', 'swapping', 'delivering', 'completed']);

/**
 * Forward order of public statuses, finals last: what a late-paid onramp order may still take of its
 * plan. `unfulfilled` ranks with processing: nothing of its deposit is confirmed, everything is ahead.
 */
const RANK: Record<PublicStatus, number> = {
	processing: 0, unfulfilled: 0, confirming: 1, awaiting_approval: 2, bridging: 3, swapping: 4, delivering: 5, refunding: 6,
	completed: 7, failed: 7, refunded: 7,
};

export interface NewOrder {
	origin: OrderOrigin;
	partnerId: string | null;
	keyId: string | null;
	quoteId: string | null;
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
	fiat?: OrderRecord['fiat'];
	outcome: Outcome;
	autoAdvance: boolean;
	amountless?: boolean;
	depositTxHash?: string;
	/** The order whose replaced (RBF) deposit this one carries on. */
	recoveredFromOperationId?: string;
	lock?: OrderRecord['lock'];
	refundAddress?: string;
	payLink?: OrderRecord['payLink'];
	invoiceBilled?: boolean;
}

/**
 * Order lifecycle: public statuses and monotonic stages (spec §3), moved on a scaled schedule or
 * by hand. Every public status change calls `notify` once; the internal pause emits nothing; an
 * order whose successor link advanced calls it with `order.superseded` (public-notes).
 */
export class OrderEngine {
	constructor(
		private readonly state: SandboxState,
		private readonly clock: SandboxClock,
		private readonly switches: Switches,
		private readonly notify: (order: OrderRecord, event?: 'order.superseded') => void,
	) {}

	/** A new order in `processing`; funded orders start moving at once. */
	create(spec: NewOrder, funded: { amountPaid: bigint } | null): OrderRecord {
		const now = new Date(this.clock.now()).toISOString();
		const order: OrderRecord = {
			...spec,
			id: this.state.nextId('ord'),
			status: 'processing',
			paused: false,
			plan: [],
			stages: [],
			createdAt: now,
			updatedAt: now,
			zeroconfOffer: null,
			amountOut: null,
			history: ['processing'],
		};
		this.state.orders.set(order.id, order);
		this.notify(order);
		if (funded) this.fund(order, funded.amountPaid);
		return order;
	}

	/** The deposit arrived: reconcile a different amount (spec §3 amount_reconciled) and start the plan. */
	fund(order: OrderRecord, amountPaid: bigint, overrides: { outcome?: Outcome; autoAdvance?: boolean } = {}): void {
		if (order.fundedAt) throw conflict('conflict', `order ${order.id} is already funded`);
		order.fundedAt = this.isoNow();
		if (overrides.outcome) order.outcome = overrides.outcome;
		if (overrides.autoAdvance !== undefined) order.autoAdvance = overrides.autoAdvance;
		if (order.amountless && amountPaid !== order.amountIn) {
			this.rescale(order, amountPaid);
		} else this.reconcile(order, amountPaid);
		if (order.outcome === 'zeroconf' || order.outcome === 'zeroconf_declined') {
			order.zeroconfOffer = pendingOffer(order, this.clock, this.switches.zeroconfOfferMs, this.switches.zeroconfProbabilityAs);
			this.addStage(order, 'zeroconf_offer_pending');
			this.touch(order);
		}
		order.plan = onwardFrom(order.status, planFor(order));
		this.schedule(order);
	}

	/** A paid amount different from the order's: repriced, and `amount_reconciled` recorded later (spec §3). */
	private reconcile(order: OrderRecord, amountPaid: bigint): void {
		if (amountPaid === order.amountIn) return;
		const repriced = priceExactIn(amountPaid, order.source, order.destination, order.feeBps);
		order.amountIn = amountPaid;
		order.feeAmount = repriced.feeAmount;
		order.estimatedOut = repriced.estimatedOut;
		order.reconciled = true;
	}

	/**
	 * A late deposit for an unfulfilled order (public-notes: it can still resume): the order goes on
	 * to `confirming` and the rest of its completed path. A replaced order does not resume: its
	 * successor carries the deposit on.
	 */
	resume(order: OrderRecord, amountPaid: bigint, overrides: { autoAdvance?: boolean } = {}): void {
		if (order.supersededByOperationId) {
			throw conflict('invalid_state', `order ${order.id} was replaced by order ${order.supersededByOperationId}; it does not resume`);
		}
		if (order.status !== 'unfulfilled') throw conflict('invalid_state', `order ${order.id} is ${order.status}: only an unfulfilled order resumes on a late deposit`);
		this.clock.cancel(order.timer);
		if (overrides.autoAdvance !== undefined) order.autoAdvance = overrides.autoAdvance;
		this.reconcile(order, amountPaid);
		order.plan = happyPath(order).slice(2);
		this.enter(order, 'confirming');
		this.schedule(order);
	}

	/**
	 * An RBF replacement of a Bitcoin L1 deposit (public-notes): a successor order takes the deposit
	 * over (`recoveredFromOperationId`, same quote, funded with the replacing transaction), and the
	 * original stays `unfulfilled` with `supersededByOperationId` naming it. The link is set before the
	 * original enters `unfulfilled` (so its event and status show it), then `order.superseded` fires
	 * for the original. An original that is already unfulfilled changes no status: only that event.
	 */
	replaceDeposit(order: OrderRecord, replacement: { amountPaid: bigint; txHash: string; autoAdvance?: boolean }): OrderRecord {
		if (order.source.chain !== 'bitcoin') throw new ApiError(400, 'invalid_request', 'an RBF replacement needs a Bitcoin L1 deposit');
		if (order.supersededByOperationId) throw conflict('invalid_state', `order ${order.id} was already replaced by order ${order.supersededByOperationId}`);
		if (order.paused || (order.status !== 'unfulfilled' && !canMove(order.status, 'unfulfilled'))) {
			throw conflict('invalid_state', `order ${order.id} is ${order.status}: only a deposit not confirmed yet can be replaced`);
		}
		this.clock.cancel(order.timer);
		order.plan = [];
		const successor = this.create(
			{
				origin: order.origin, partnerId: order.partnerId, keyId: order.keyId, quoteId: order.quoteId,
				source: order.source, destination: order.destination, recipientAddress: order.recipientAddress,
				depositAddress: order.depositAddress, amountIn: order.amountIn, estimatedOut: order.estimatedOut,
				feeAmount: order.feeAmount, feeBps: order.feeBps, amountMode: order.amountMode, feePlan: order.feePlan,
				fiat: order.fiat, outcome: 'completed', autoAdvance: replacement.autoAdvance ?? order.autoAdvance,
				depositTxHash: replacement.txHash, recoveredFromOperationId: order.id,
				lock: order.lock, refundAddress: order.refundAddress, payLink: order.payLink, invoiceBilled: order.invoiceBilled,
			},
			null,
		);
		order.supersededByOperationId = successor.id;
		if (order.status === 'unfulfilled') this.touch(order);
		else this.enter(order, 'unfulfilled');
		this.notify(order, 'order.superseded');
		this.fund(successor, replacement.amountPaid);
		return successor;
	}

	/**
	 * spec §1, §2.2: an amountless invoice runs on whatever is paid; estimatedOut and the fee are
	 * rescaled to the paid amount (floored, in bigint), no reconciliation stage (nothing was pinned).
	 */
	private rescale(order: OrderRecord, amountPaid: bigint): void {
		order.estimatedOut = (order.estimatedOut * amountPaid) / order.amountIn;
		order.feeAmount = (order.feeAmount * amountPaid) / order.amountIn;
		order.amountIn = amountPaid;
	}

	/** Manual move (POST /sandbox/orders/:id/advance): along the state machine only (transitions.ts). */
	advance(order: OrderRecord, target: Step): void {
		if (isTerminal(order.status)) throw conflict('invalid_state', `order ${order.id} is ${order.status}, a final status`);
		if (order.supersededByOperationId) {
			throw conflict('invalid_state', `order ${order.id} was replaced by order ${order.supersededByOperationId}; it stays unfulfilled`);
		}
		this.clock.cancel(order.timer);
		if (target === 'paused') {
			if (order.paused) throw conflict('invalid_state', `order ${order.id} is already paused`);
			order.paused = true;
			this.touch(order);
			return;
		}
		if (order.paused && target === 'processing') {
			order.paused = false;
			order.plan = order.plan.filter((s) => s !== 'paused');
			this.touch(order);
			this.schedule(order);
			return;
		}
		if (!canMove(order.status, target)) throw conflict('invalid_state', `cannot move order ${order.id} from ${order.status} to ${target}`);
		const happy = happyPath(order);
		const from = happy.indexOf(order.status);
		const to = happy.indexOf(target);
		// A jump along the completed path records the stages of the steps it skips.
		for (let i = from; from >= 0 && i < to - 1; i++) {
			this.leave(order, happy[i], happy[i + 1]);
			order.status = happy[i + 1];
			order.history.push(order.status);
		}
		order.plan = to >= 0 ? happy.slice(to + 1) : target === 'refunding' ? ['refunded'] : [];
		this.enter(order, target);
		this.schedule(order);
	}

	private step(order: OrderRecord): void {
		const next = order.plan.shift();
		if (!next) return;
		if (next === 'paused') {
			// spec §3: a paused spell shows as processing and emits no event
			order.paused = true;
			this.touch(order);
		} else if (canMove(order.status, next)) {
			order.paused = false;
			this.enter(order, next);
		} else {
			// a plan that no longer fits the state machine (an order moved by hand) stops here
			order.plan = [];
			return;
		}
		this.schedule(order);
	}

	/**
	 * The partner's answer to a pending ZeroConf offer (public-notes): accepted, the order goes on
	 * from `processing` without waiting for a confirmation; declined, it waits in `confirming`.
	 */
	resolveOffer(order: OrderRecord, decision: OfferDecision | 'expired'): void {
		this.clock.cancel(order.timer);
		order.zeroconfOffer = { ...order.zeroconfOffer, status: decision, resolvedAt: this.isoNow() };
		if (decision === 'accepted') {
			this.addStage(order, 'zeroconf_offer_accepted');
			this.addStage(order, 'zeroconf_accepted');
			this.addStage(order, 'deposit_claimed');
		} else this.addStage(order, 'zeroconf_offer_declined');
		// what is left of the completed path after confirming
		order.plan = happyPath(order).slice(2);
		this.enter(order, decision === 'accepted' ? 'processing' : 'confirming');
		this.schedule(order);
	}

	private enter(order: OrderRecord, next: PublicStatus): void {
		this.leave(order, order.status, next);
		if (next === 'refunding') this.addStage(order, 'refund_requested');
		if (next === 'refunded') {
			this.addStage(order, 'refund_requested');
			this.addStage(order, 'refunded');
		}
		// the scripted offers decide themselves when the order starts confirming
		if (next === 'confirming' && order.zeroconfOffer?.status === 'pending' && order.outcome !== 'zeroconf_offer') {
			const declined = order.outcome === 'zeroconf_declined';
			order.zeroconfOffer = { ...order.zeroconfOffer, status: declined ? 'declined' : 'accepted', resolvedAt: this.isoNow() };
			this.addStage(order, declined ? 'zeroconf_offer_declined' : 'zeroconf_offer_accepted');
			if (!declined) this.addStage(order, 'zeroconf_accepted');
		}
		if (next === 'awaiting_approval' && order.outcome === 'zeroconf_offer' && !order.zeroconfOffer) this.offer(order);
		if (next === 'awaiting_approval' && order.outcome === 'reprice' && !order.reprice) this.askReprice(order, {});
		if (next === 'refunded' && order.refund && order.refund.txHash === null) order.refund = { ...order.refund, txHash: simulatedRefundTx(order.source.chain) };
		if (order.status === 'unfulfilled' && next !== 'unfulfilled') order.resumedAt = this.isoNow();
		order.paused = false;
		order.status = next;
		order.history.push(next);
		this.touch(order);
		this.notify(order);
	}

	/**
	 * A re-approval (public-notes, fourth harvest): the locked price can no longer be honoured, the
	 * order waits in `awaiting_approval` for the partner's approve, reject or refund. From
	 * processing or swapping (the edges into awaiting_approval), by hand or by the `reprice` outcome.
	 */
	requestReprice(order: OrderRecord, terms: RepriceTerms): void {
		if (order.paused || (order.status !== 'processing' && order.status !== 'swapping')) {
			throw conflict('invalid_state', `order ${order.id} is ${publicStatusOf(order)}: a re-approval is asked from processing or swapping`);
		}
		if (order.reprice?.status === 'awaiting_approval') throw conflict('invalid_state', `order ${order.id} already waits for a re-approval`);
		this.clock.cancel(order.timer);
		order.plan = [];
		this.askReprice(order, terms);
		this.enter(order, 'awaiting_approval');
	}

	private askReprice(order: OrderRecord, terms: RepriceTerms): void {
		const { priceLock, reprice } = repriceOf(order, terms, this.isoNow());
		order.priceLock = priceLock;
		order.reprice = reprice;
		order.error = { code: 'reprice_approval_required', message: `the locked price can no longer be honoured (${String(reprice.reason)}): approve a new minimum, reject, or refund` };
	}

	/** The partner's answer to a pending re-approval (POST /v1/orchestration/reprice/*). */
	answerReprice(order: OrderRecord, answer: RepriceAnswer): void {
		this.clock.cancel(order.timer);
		const resolvedAt = this.isoNow();
		const reprice = order.reprice as Record<string, unknown>;
		if (answer.kind === 'approve') {
			const latest = BigInt(reprice.latestExpectedAmountOut as string);
			order.reprice = { ...reprice, status: 'approved', approvedMinAmountOut: answer.approvedMinAmountOut.toString(), resolvedAt };
			const lock = order.priceLock as Record<string, unknown>;
			order.priceLock = { ...lock, version: Number(lock.version) + 1, lockedMinAmountOut: answer.approvedMinAmountOut.toString() };
			order.error = null;
			// what the swap now gives, never below the approved minimum
			order.estimatedOut = latest > answer.approvedMinAmountOut ? latest : answer.approvedMinAmountOut;
			order.plan = afterLock(order);
			this.enter(order, 'swapping');
		} else if (answer.kind === 'reject') {
			order.reprice = { ...reprice, status: 'rejected', resolvedAt, ...(answer.reason ? { rejectReason: answer.reason } : {}) };
			order.error = { code: 'reprice_rejected', message: answer.reason ?? 'the partner rejected the new price' };
			order.plan = [];
			this.enter(order, 'failed');
		} else {
			order.reprice = { ...reprice, status: 'refund_requested', resolvedAt, ...(answer.reason ? { refundReason: answer.reason } : {}) };
			order.error = null;
			order.refund = { asset: order.source.asset, amount: order.amountIn.toString(), txHash: null, address: answer.refundAddress };
			order.plan = ['refunded'];
			this.enter(order, 'refunding');
		}
		this.schedule(order);
	}

	/** A pending offer that expires unanswered: the order then waits for a confirmation (public-notes). */
	private offer(order: OrderRecord): void {
		order.zeroconfOffer = pendingOffer(order, this.clock, this.switches.zeroconfOfferMs, this.switches.zeroconfProbabilityAs);
		this.addStage(order, 'zeroconf_offer_pending');
		order.timer = this.clock.schedule(this.switches.zeroconfOfferMs, () => {
			if (order.status === 'awaiting_approval' && order.zeroconfOffer?.status === 'pending') this.resolveOffer(order, 'expired');
		});
	}

	/** Stages recorded when a step completes towards `to` (spec §3: monotonic markers). */
	private leave(order: OrderRecord, from: PublicStatus, to: PublicStatus): void {
		const onward = ONWARD.has(to);
		if ((from === 'confirming' && to !== 'failed' && to !== 'unfulfilled') || (from === 'processing' && onward && to !== 'confirming')) {
			if (order.zeroconfOffer && order.outcome === 'zeroconf') this.addStage(order, 'deposit_claimed');
			this.addStage(order, 'deposit_confirmed');
			if (order.reconciled) this.addStage(order, 'amount_reconciled');
			if (order.source.chain === 'bitcoin' || order.origin === 'accumulation' || order.origin === 'liquidation') this.addStage(order, 'swept');
		}
		if (from === 'bridging' && onward) this.addStage(order, 'bridged');
		// a swap that stops for a re-approval has not executed yet
		if (from === 'swapping' && onward && to !== 'bridging' && to !== 'awaiting_approval') {
			this.addStage(order, 'swapped');
			order.swap = {
				simulation: { amountIn: order.amountIn.toString(), expectedAmountOut: order.estimatedOut.toString(), priceImpactBps: 3 },
				execution: { amountOut: order.estimatedOut.toString(), txHash: `0x${randomBytes(32).toString('hex')}`, executedAt: this.isoNow() },
			};
		}
		if (from === 'delivering' && to === 'completed') this.complete(order);
	}

	private complete(order: OrderRecord): void {
		this.addStage(order, 'delivered');
		order.amountOut = order.estimatedOut;
		const entries: Array<Record<string, unknown>> = (order.feePlan?.appFees ?? []).map((fee) => {
			const gross = (order.amountIn * BigInt(fee.feeBps)) / 10_000n;
			const { platformCutAmount, recipientAmount } = splitFee(gross);
			return {
				role: 'app_fee',
				...(fee.affiliateId ? { affiliateId: fee.affiliateId } : {}),
				leg: fee.affiliateId ? 'holdback' : 'full',
				amount: gross.toString(),
				platformCutAmount: platformCutAmount.toString(),
				recipientAmount: recipientAmount.toString(),
			};
		});
		if (order.invoiceBilled && order.partnerId) {
			// public-notes (fourth harvest): billed by invoice, the platform fee was not taken; it accrues to the partner's invoice
			const platformFee = (order.amountIn * BigInt(PLATFORM_FEE_BPS)) / 10_000n;
			this.state.partnerBook.accrueInvoice(order.partnerId, order.id, convert(platformFee, order.source, INVOICE_ASSET), this.clock.now());
		} else {
			const platformFee = (order.amountIn * BigInt(order.feePlan?.platformFeeBps ?? order.feeBps)) / 10_000n;
			entries.push({ role: 'platform_fee', leg: 'full', amount: platformFee.toString(), platformCutAmount: platformFee.toString(), recipientAmount: '0' });
		}
		entries.push({ role: 'recipient_payout', leg: 'full', amount: order.estimatedOut.toString(), platformCutAmount: null, recipientAmount: null });
		order.feePayouts = { entries };
	}

	private schedule(order: OrderRecord): void {
		if (!order.autoAdvance || order.plan.length === 0 || isTerminal(order.status)) return;
		order.timer = this.clock.schedule(this.switches.orderStepMs, () => this.step(order));
	}

	private addStage(order: OrderRecord, name: Stage): void {
		if (!order.stages.some((s) => s.name === name)) order.stages.push({ name, status: 'completed', completedAt: this.isoNow() });
	}

	private touch(order: OrderRecord): void {
		order.updatedAt = this.isoNow();
	}

	private isoNow(): string {
		return new Date(this.clock.now()).toISOString();
	}
}

/** What is left of the completed path once an approved order swaps: the steps after swapping, or after confirming. */
function afterLock(order: OrderRecord): PublicStatus[] {
	const happy = happyPath(order);
	const swap = happy.indexOf('swapping');
	return swap < 0 ? happy.slice(2) : happy.slice(swap + 1);
}

function publicStatusOf(order: OrderRecord): string {
	return order.paused ? 'paused' : order.status;
}

/** A refund transaction id as the source chain writes it. */
function simulatedRefundTx(chain: string): string {
	const hex = randomBytes(32).toString('hex');
	return chain === 'bitcoin' || chain === 'litecoin' || chain === 'spark' || chain === 'lightning' ? hex : `0x${hex}`;
}

/** The path of a completed order: confirming, bridging across chains, swapping across assets. */
function happyPath(order: OrderRecord): PublicStatus[] {
	const cross = order.source.chain !== order.destination.chain;
	const swap = order.source.asset !== order.destination.asset;
	return ['processing', 'confirming', ...(cross ? ['bridging' as const] : []), ...(swap ? ['swapping' as const] : []), 'delivering', 'completed'];
}

/** An unfunded onramp order moved by hand and paid later continues forward only (spec §3). */
function onwardFrom(status: PublicStatus, plan: Step[]): Step[] {
	if (status === 'processing') return plan;
	if (status === 'refunding') return ['refunded'];
	return plan.filter((s) => s !== 'paused' && RANK[s] > RANK[status]);
}

/** Scripted outcomes of POST /sandbox/deposits (the steps after `processing`). */
function planFor(order: OrderRecord): Step[] {
	const happy = happyPath(order).slice(1);
	const middle = happy.slice(1, -2);
	switch (order.outcome) {
		case 'failed':
			return ['confirming', ...(middle.length ? middle : ['delivering' as const]), 'failed'];
		case 'refunded':
			return ['confirming', 'refunded'];
		case 'unfulfilled':
			// an unconfirmed deposit (public-notes): it does not confirm unless a late deposit resumes it
			return ['unfulfilled'];
		case 'late_deposit':
			// unfulfilled for one step, then a late deposit is seen and the order goes on to completed
			return ['unfulfilled', ...happy];
		case 'awaiting_approval':
			// an operator hold (no offer): moved on by hand
			return ['awaiting_approval'];
		case 'zeroconf_offer':
			return ['awaiting_approval'];
		case 'reprice': {
			// the price is checked at the swap; an order without one is checked once its deposit is in
			const swap = happy.indexOf('swapping');
			return swap < 0 ? ['awaiting_approval'] : [...happy.slice(0, swap + 1), 'awaiting_approval'];
		}
		case 'paused':
			return ['confirming', 'paused', 'paused', ...happy.slice(1)];
		default:
			return happy;
	}
}
