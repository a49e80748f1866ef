/**
 * The service's side of the month, through the sandbox's control endpoints: what happens to some
 * orders after the wallet paid them, as the live service does it.
 *
 * - paused: the order stops and its status reads `paused` (no webhook); it resumes once a daily
 *   reconciliation that started after the pause has ended (the benchmark notes whether that run
 *   put it in the ledger as paused and in its report);
 * - recovery: `order.recovery_required` goes to the recovery subscription while the order moves on;
 * - unfulfilled: once the order is `unfulfilled` and a person was told (or a day passed), a late
 *   deposit to its address resumes it;
 * - hold: once the order is held in `awaiting_approval` and a person was told (or a day passed), the
 *   service releases it.
 */
import type { Payout } from './plan';
import type { Payment, Route, StandIns } from './standIns';

interface Pending {
	payout: Payout;
	payment: Payment;
	orderId: string;
	kind: 'late deposit' | 'release';
	/** The order status the step waits for, and the route a person must have been told on. */
	status: string;
	route: Route;
	/** Acts without the message after this time (the message is then missing from the figures). */
	deadline: number;
	doneAt?: number;
	withoutMessage?: boolean;
	error?: string;
}

export interface PausedOrder {
	payoutId: string;
	orderId: string;
	pausedAt: number;
	resumedAt?: number;
	/** What the ledger and the report showed after the reconciliation that saw the pause. */
	ledgerStatus?: string;
	ledgerAttention?: string;
	inReport?: boolean;
	error?: string;
}

export class Operator {
	readonly pending: Pending[] = [];
	readonly paused: PausedOrder[] = [];
	readonly recoveries: Array<{ orderId: string; payoutId: string; deliveryIds: string[] }> = [];
	private timer?: NodeJS.Timeout;
	private busy = false;

	constructor(
		private readonly orchestrationUrl: string,
		private readonly standIns: StandIns,
		private readonly dayMs: number,
		private readonly ledgerRowOf: (orderId: string) => Promise<Record<string, unknown> | undefined>,
	) {}

	private async control(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
		const res = await fetch(`${this.orchestrationUrl}${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
		return text ? (JSON.parse(text) as Record<string, unknown>) : {};
	}

	/** The wallet paid a deposit: act at once where the scenario says so, or note what to do later. */
	async onPaid(payout: Payout, payment: Payment): Promise<void> {
		const orderId = payment.orderId!;
		const later = (kind: Pending['kind'], status: string, route: Route) => {
			this.pending.push({ payout, payment, orderId, kind, status, route, deadline: Date.now() + this.dayMs });
		};
		switch (payout.scenario) {
			case 'paused':
				await this.control('POST', `/sandbox/orders/${orderId}/advance`, { status: 'paused' });
				await this.control('POST', `/sandbox/orders/${orderId}/report`, { status: 'paused' });
				this.paused.push({ payoutId: payout.payoutId, orderId, pausedAt: Date.now() });
				return;
			case 'recovery': {
				const sent = await this.control('POST', `/sandbox/orders/${orderId}/recovery-required`, { reviewStatus: 'pending_review' });
				this.recoveries.push({ orderId, payoutId: payout.payoutId, deliveryIds: (sent.deliveries as string[] | undefined) ?? [] });
				return;
			}
			case 'unfulfilled':
				return later('late deposit', 'unfulfilled', 'unfulfilled');
			case 'hold':
				return later('release', 'awaiting_approval', 'hold');
			default:
		}
	}

	/** A daily reconciliation that started at `startedAt` ended: paused orders it saw are noted and resumed. */
	async reconciliationEnded(startedAt: number): Promise<void> {
		for (const p of this.paused.filter((x) => x.resumedAt === undefined && x.pausedAt < startedAt)) {
			try {
				const row = await this.ledgerRowOf(p.orderId);
				p.ledgerStatus = row ? String(row.status) : undefined;
				p.ledgerAttention = row ? String(row.attention) : undefined;
				p.inReport = this.standIns.messages.some((m) => m.route === 'report' && m.at >= startedAt && m.orderIds.includes(p.orderId));
				await this.resume(p);
			} catch (error) {
				p.error = (error as Error).message;
			}
		}
	}

	private async resume(p: PausedOrder): Promise<void> {
		await this.control('POST', `/sandbox/orders/${p.orderId}/report`, {});
		await this.control('POST', `/sandbox/orders/${p.orderId}/advance`, { status: 'processing' });
		p.resumedAt = Date.now();
	}

	/** Resumes every order still paused (the end of the month). */
	async resumeAll(): Promise<void> {
		for (const p of this.paused.filter((x) => x.resumedAt === undefined)) await this.resume(p).catch((e: Error) => (p.error = e.message));
	}

	start(): void {
		this.timer = setInterval(() => void this.tick(), 2000);
	}

	stop(): void {
		clearInterval(this.timer);
	}

	get outstanding(): number {
		return this.pending.filter((p) => p.doneAt === undefined).length + this.paused.filter((p) => p.resumedAt === undefined).length;
	}

	private async tick(): Promise<void> {
		if (this.busy) return;
		this.busy = true;
		try {
			for (const p of this.pending.filter((x) => x.doneAt === undefined)) {
				try {
					const order = (await this.control('GET', `/sandbox/orders/${p.orderId}`)).order as { status: string };
					if (order.status !== p.status) continue;
					const told = this.standIns.messages.some((m) => m.route === p.route && m.orderIds.includes(p.orderId));
					if (!told && Date.now() < p.deadline) continue;
					if (p.kind === 'late deposit') {
						await this.control('POST', '/sandbox/deposits', { depositAddress: p.payment.depositAddress, amount: p.payment.amount });
					} else {
						await this.control('POST', `/sandbox/orders/${p.orderId}/advance`, { status: 'confirming' });
					}
					p.withoutMessage = !told;
					p.doneAt = Date.now();
				} catch (error) {
					p.error = (error as Error).message;
				}
			}
		} finally {
			this.busy = false;
		}
	}
}
