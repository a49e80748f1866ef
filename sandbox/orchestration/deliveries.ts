import { createHmac } from 'node:crypto';
import { WEBHOOK_RETRY_DELAYS_MS } from './spec';
import type { SandboxClock } from '../clock';
import type { Switches } from '../config';
import { badRequest } from './errors';
import { orderSnapshot, publicStatus } from './order-view';
import type { DeliveryRecord, OrderRecord, SandboxState, WebhookRecord } from './state';

const ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * Spec 6: lowercase hex HMAC-SHA256 of `timestamp + "." + raw_body`, keyed with the endpoint's secret.
 * The sandbox signs every delivery with it; tests that send deliveries of their own sign with it too.
 */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
	return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}
const MAX_RESPONSE_TEXT = 500;

/**
 * Webhook delivery (spec §6): one envelope per public status change to every endpoint of the
 * order's partner, at least once. The body bytes are fixed at emit time; each attempt gets a fresh
 * X-Service-Timestamp and signature; non-2xx or network errors retry after 10 s ... 24 h (scaled).
 */
export class WebhookDispatcher {
	private readonly inFlight = new Set<AbortController>();
	private readonly timers = new Set<NodeJS.Timeout>();
	/** Bumped by reset and close: attempts of an older generation stop. */
	private generation = 0;

	constructor(
		private readonly state: SandboxState,
		private readonly clock: SandboxClock,
		private readonly switches: Switches,
	) {}

	/** One event of an order: the kind of its public status, or `event` when given (`order.superseded`). */
	emit(order: OrderRecord, kind?: string): void {
		if (!order.partnerId) return;
		const event = kind ?? `order.${publicStatus(order)}`;
		const body = this.envelope(event, orderSnapshot(order));
		for (const hook of this.activeHooks(order.partnerId, undefined)) {
			void this.start(hook, { event, orderId: order.id, body, ...this.stamping() });
		}
	}

	/** `{event, timestamp, data}` (public-notes); `data` without `updatedAt` when the envelope switch says so (the docs' examples). */
	private envelope(event: string, data: Record<string, unknown>): string {
		if (!this.switches.webhookEnvelope.updatedAt) delete data.updatedAt;
		return JSON.stringify({ event, timestamp: new Date(this.clock.now()).toISOString(), data });
	}

	private stamping(): { stampedPerAttempt?: true } {
		return this.switches.webhookEnvelope.timestamp === 'delivery' ? { stampedPerAttempt: true } : {};
	}

	/** Enabled endpoints of a partner of one kind (order events, or recovery subscriptions). */
	private activeHooks(partnerId: string, kind: WebhookRecord['kind']): WebhookRecord[] {
		return this.state.webhooks.filter((w) => w.partnerId === partnerId && w.kind === kind && !w.disabledAt);
	}

	/**
	 * order.recovery_required to the partner's recovery subscriptions only (public-notes), signed like
	 * any delivery; the order shows status processing with a reviewStatus. Returns the delivery ids.
	 */
	emitRecovery(order: OrderRecord, reviewStatus: string): string[] {
		if (!order.partnerId) return [];
		const event = 'order.recovery_required';
		const data = { ...orderSnapshot(order), status: 'processing', reviewStatus, updatedAt: new Date(this.clock.now()).toISOString() };
		const body = this.envelope(event, data);
		return this.activeHooks(order.partnerId, 'recovery').map((hook) => {
			void this.start(hook, { event, orderId: order.id, body, ...this.stamping() });
			return this.state.deliveries[this.state.deliveries.length - 1].deliveryId;
		});
	}

	/** Sends given body text to one endpoint, signed and retried like any delivery (control endpoint, tests). */
	sendRaw(hook: WebhookRecord, event: string, body: string): DeliveryRecord {
		void this.start(hook, { event, orderId: '', body });
		return this.state.deliveries[this.state.deliveries.length - 1];
	}

	/**
	 * Sends a recorded delivery once more (same event and data, fresh signature, spec §6 rule 1), to
	 * `url` when given (one process behind a load balancer); resolves after its first attempt. The same
	 * bytes, unless the original stamped its envelope per attempt or `restamp` asks for a new delivery
	 * `timestamp` (public-notes, fourth harvest). A body that is not a JSON object cannot be restamped.
	 */
	async redeliver(deliveryId: string, opts: { url?: string; restamp?: boolean } = {}): Promise<DeliveryRecord | undefined> {
		const original = this.state.deliveries.find((d) => d.deliveryId === deliveryId);
		const hook = this.state.webhooks.find((w) => w.webhookId === original?.webhookId);
		if (!original || !hook) return undefined;
		const restamp = opts.restamp ?? original.stampedPerAttempt === true;
		if (restamp && parsedObject(original.body) === undefined) throw badRequest('restamp: the delivery body is not a JSON object');
		const what = { event: original.event, orderId: original.orderId, body: original.body, ...(restamp ? { stampedPerAttempt: true as const } : {}) };
		return await this.start({ ...hook, url: opts.url ?? hook.url }, what, original.deliveryId);
	}

	private async start(hook: WebhookRecord, what: { event: string; orderId: string; body: string; stampedPerAttempt?: true }, duplicateOf?: string): Promise<DeliveryRecord> {
		const delivery: DeliveryRecord = {
			deliveryId: this.state.nextId('dlv'),
			webhookId: hook.webhookId,
			url: hook.url,
			...what,
			state: 'pending',
			attempts: [],
			...(duplicateOf ? { duplicateOf } : {}),
		};
		this.state.deliveries.push(delivery);
		await this.attempt(hook, delivery);
		return delivery;
	}

	private async attempt(hook: WebhookRecord, delivery: DeliveryRecord): Promise<void> {
		const generation = this.generation;
		const now = this.clock.now();
		const timestamp = String(now);
		// the live envelope: the delivery time, the same instant as the signature's timestamp
		const body = delivery.stampedPerAttempt ? stampedBody(delivery.body, new Date(now).toISOString()) : delivery.body;
		if (delivery.stampedPerAttempt && delivery.attempts.length === 0) delivery.body = body;
		const signature = webhookSignature(hook.secret, timestamp, body);
		const attempt: DeliveryRecord['attempts'][number] = {
			attempt: delivery.attempts.length + 1, at: new Date().toISOString(), timestamp, signature, status: null,
			...(delivery.stampedPerAttempt ? { body } : {}),
		};
		delivery.attempts.push(attempt);
		delivery.nextAttemptAt = undefined;
		const abort = new AbortController();
		this.inFlight.add(abort);
		const deadline = setTimeout(() => abort.abort(), ATTEMPT_TIMEOUT_MS);
		try {
			const res = await fetch(delivery.url, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'X-Service-Signature': signature,
					'X-Service-Timestamp': timestamp,
					'User-Agent': 'orchestration-sandbox-webhooks/1',
				},
				body,
				signal: abort.signal,
			});
			attempt.status = res.status;
			attempt.responseBody = (await res.text()).slice(0, MAX_RESPONSE_TEXT);
		} catch (err) {
			attempt.error = err instanceof Error ? err.message : String(err);
		} finally {
			clearTimeout(deadline);
			this.inFlight.delete(abort);
		}
		if (generation !== this.generation) return;
		const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
		if (ok) {
			delivery.state = 'delivered';
			// The duplicate switch sends every successful delivery a second time (spec §6 rule 1).
			if (this.switches.duplicateDeliveries && !delivery.duplicateOf) {
				const { event, orderId, body: sent, stampedPerAttempt } = delivery;
				void this.start(hook, { event, orderId, body: sent, ...(stampedPerAttempt ? { stampedPerAttempt } : {}) }, delivery.deliveryId);
			}
			return;
		}
		const scheduled = WEBHOOK_RETRY_DELAYS_MS[delivery.attempts.length - 1];
		const delay = scheduled === undefined ? undefined : scheduled / (this.switches.deliveryRetryDivisor ?? 1);
		if (delay === undefined) {
			delivery.state = 'failed';
			return;
		}
		delivery.nextAttemptAt = new Date(this.clock.after(delay)).toISOString();
		const timer = this.clock.schedule(delay, () => {
			this.timers.delete(timer);
			void this.attempt(hook, delivery);
		});
		this.timers.add(timer);
	}

	/** Drops pending retries and aborts requests in flight (sandbox reset and close). */
	stop(): void {
		this.generation++;
		for (const t of this.timers) this.clock.cancel(t);
		this.timers.clear();
		for (const a of this.inFlight) a.abort();
		this.inFlight.clear();
	}
}

function parsedObject(body: string): Record<string, unknown> | undefined {
	try {
		const parsed: unknown = JSON.parse(body);
		return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

/** The envelope `body` with its `timestamp` set to `iso`, members in their order (bodies were checked to be JSON objects). */
function stampedBody(body: string, iso: string): string {
	return JSON.stringify({ ...parsedObject(body), timestamp: iso });
}
