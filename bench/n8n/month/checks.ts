/**
 * The month measured against the sandbox's own records (its orders with their status history,
 * quotes by idempotency key, gateway intents, webhook deliveries, the requests it answered): every
 * order and gateway intent has exactly one final ledger row that matches it (status, amounts and
 * fees, each in its own asset's units), no payout was paid twice or not at all, no row matches
 * nothing, and every order that needed a person reached one (Slack stand-in, approval stand-in,
 * the reconciliation's report).
 */
import type { Row } from '../../../scripts/lib/dataTables';
import type { Emission } from './emissions';
import type { FaultReport } from './faults';
import type { Operator } from './operator';
import type { Month } from './plan';
import { sparkTransferIdOf, type StandIns } from './standIns';

type Json = Record<string, unknown>;

export interface SandboxRecords {
	orders: Array<{ order: Json; origin: string; partnerId: string | null; statusHistory: string[] }>;
	quotes: Array<{ quoteId: string; idempotencyKey?: string; orderId: string | null; quote?: Json }>;
	intents: Array<Json & { submissionId: string; status: string; transfers: Array<{ sparkTransferId: string; amount: string }> }>;
	deliveries: Array<{ deliveryId: string; webhookId: string; url: string; event: string; orderId: string; state: string; attempts: Array<{ status: number | null; error?: string }> }>;
	webhooks: Array<{ webhookId: string; url: string; kind?: string; disabledAt?: string }>;
	/** Asset decimals by `chain:asset` and by symbol (the routes listing). */
	decimals: Map<string, number>;
	/** Requests the sandbox answered, for the quote limiter's 429s and the replays after lost answers. */
	quoteRequests: Array<{ status: number; replayed?: boolean; answerWithheld?: string }>;
}

async function getJson<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
	const res = await fetch(url, { headers });
	const text = await res.text();
	if (res.status >= 400) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 300)}`);
	return JSON.parse(text) as T;
}

/** Everything the checks read from the sandbox, once, after the month settled. */
export async function readSandbox(orchestrationUrl: string, gatewayUrl: string, serverKey: string): Promise<SandboxRecords> {
	const listed = (await getJson<{ orders: Array<{ order: { id: string } }> }>(`${orchestrationUrl}/sandbox/orders`)).orders;
	const orders: SandboxRecords['orders'] = [];
	for (const o of listed) orders.push(await getJson(`${orchestrationUrl}/sandbox/orders/${o.order.id}`));
	const routes = await getJson<unknown>(`${orchestrationUrl}/v2/orchestration/routes`, { authorization: `Bearer ${serverKey}` });
	const list = (Array.isArray(routes) ? routes : ((routes as Json).routes ?? (routes as Json).assets ?? [])) as Array<{ id: string; decimals: number }>;
	const decimals = new Map(list.map((a) => [a.id, a.decimals]));
	return {
		orders,
		quotes: (await getJson<{ quotes: SandboxRecords['quotes'] }>(`${orchestrationUrl}/sandbox/quotes`)).quotes,
		intents: (await getJson<{ intents: SandboxRecords['intents'] }>(`${gatewayUrl}/sandbox/intents`)).intents,
		deliveries: (await getJson<{ deliveries: SandboxRecords['deliveries'] }>(`${orchestrationUrl}/sandbox/deliveries`)).deliveries,
		webhooks: (await getJson<{ webhooks: SandboxRecords['webhooks'] }>(`${orchestrationUrl}/sandbox/webhooks`)).webhooks,
		decimals,
		quoteRequests: await quoteRequestsOf(orchestrationUrl),
	};
}

/** Every quote request the sandbox answered; fails when its log dropped any (the counts would be partial). */
async function quoteRequestsOf(orchestrationUrl: string): Promise<SandboxRecords['quoteRequests']> {
	const log = await getJson<{ requests: SandboxRecords['quoteRequests']; dropped: number }>(`${orchestrationUrl}/sandbox/requests?path=/v1/orchestration/quote`);
	if (log.dropped > 0) throw new Error(`the sandbox's request log dropped ${log.dropped} records: raise its recordedRequests switch`);
	return log.requests;
}

/** A decimal text in an asset's units as an integer of its smallest unit; undefined when it is not one. */
export function toUnits(text: unknown, decimals: number): bigint | undefined {
	const m = /^(\d+)(?:\.(\d+))?$/.exec(String(text ?? ''));
	if (!m || (m[2] ?? '').length > decimals) return undefined;
	return BigInt(m[1] + (m[2] ?? '').padEnd(decimals, '0'));
}

const FINAL = new Set(['completed', 'failed', 'refunded']);

export interface Mismatch {
	orderId: string;
	field: string;
	ledger: unknown;
	sandbox: unknown;
}

/** One fee payout entry as example 1, 3 and 7 write it: `role amount` or `role amount (recipient x, platform y)`. */
function parseFeePayouts(text: unknown): Array<{ role: string; amount: string }> {
	if (!text) return [];
	return String(text)
		.split('; ')
		.map((e) => /^(\S+) (\S+)/.exec(e))
		.map((m) => ({ role: m?.[1] ?? '?', amount: m?.[2] ?? '?' }));
}

/** Compares one order with its ledger row: status, final, amounts and fees each in its own asset's units. */
function compareOrder(order: Json, row: Row, decimals: Map<string, number>): Mismatch[] {
	const id = String(order.id);
	const out: Mismatch[] = [];
	const src = decimals.get(`${order.sourceChain}:${order.sourceAsset}`) ?? -1;
	const dst = decimals.get(`${order.destinationChain}:${order.destinationAsset}`) ?? -1;
	const expect = (field: string, ledger: unknown, sandbox: unknown, same: boolean) => {
		if (!same) out.push({ orderId: id, field, ledger, sandbox });
	};
	const units = (field: string, text: unknown, value: unknown, d: number) =>
		expect(field, text, `${String(value)} (${d} decimals)`, toUnits(text, d) !== undefined && toUnits(text, d) === BigInt(String(value)));
	expect('status', row.status, order.status, row.status === order.status);
	expect('final', row.final, FINAL.has(String(order.status)), row.final === FINAL.has(String(order.status)));
	expect('quoteId', row.quoteId, order.quoteId ?? '', String(row.quoteId ?? '') === String(order.quoteId ?? ''));
	expect('source', row.source, `${order.sourceChain}:${order.sourceAsset}`, row.source === `${order.sourceChain}:${order.sourceAsset}`);
	expect('destination', row.destination, `${order.destinationChain}:${order.destinationAsset}`, row.destination === `${order.destinationChain}:${order.destinationAsset}`);
	units('amountIn', row.amountIn, order.amountIn, src);
	units('amountOut', row.amountOut, order.amountOut ?? order.estimatedOut, dst);
	// the fee is taken from the source amount, in the source asset (feeAsset)
	expect('feeAsset', row.feeAsset, order.feeAsset, row.feeAsset === order.feeAsset);
	units('fee', row.fee, order.feeAmount, src);
	const entries = ((order.feePayouts as { entries?: Json[] } | undefined)?.entries ?? []).map((e) => ({ role: String(e.role), amount: String(e.amount) }));
	const written = parseFeePayouts(row.feePayouts);
	const samePayouts =
		written.length === entries.length &&
		entries.every((e, i) => written[i].role === e.role && toUnits(written[i].amount, e.role === 'recipient_payout' ? dst : src) === BigInt(e.amount));
	expect('feePayouts', row.feePayouts, JSON.stringify(entries), samePayouts);
	return out;
}

export type PersonKind = 'zeroconf offer (approval)' | 'hold' | 'recovery decision' | 'unfulfilled' | 'failed' | 'refunded' | 'paused (no webhook)';

export interface Figures {
	payouts: {
		planned: number;
		inLedger: number;
		paid: number;
		notPaid: string[];
		handOffs: number;
		/** The most hand-offs the wallet got for one payout reference (1: each paid once). */
		handOffsMaxPerReference: number;
		/** References handed off more than once, with their count. */
		handOffsRepeated: string[];
	};
	orders: { total: number; ofPayouts: number; ofStandingAddress: number; notFinal: string[] };
	intents: { total: number };
	ledger: {
		rows: number;
		matched: number;
		missing: string[];
		duplicated: string[];
		mismatched: Mismatch[];
		notFinal: string[];
		unmatched: Array<{ id: number; payoutId: unknown; status: unknown; why: string }>;
	};
	paidTwice: Array<{ payoutId: string; quotes: number; orders: number; intents: number }>;
	people: { needed: Record<string, number>; reached: Record<string, number>; notReached: Array<{ orderId: string; kind: PersonKind }> };
	events: {
		deliveries: number;
		byEvent: Record<string, number>;
		acknowledged: number;
		notAcknowledged: Array<{ deliveryId: string; url: string; event: string; orderId: string; state: string; lastStatus: unknown }>;
		attempts: number;
		refusedAttempts: Record<string, number>;
		/** Order events the service emitted (its status changes), and those emitted while a workflow had no endpoint, by workflow. */
		emitted: number;
		withoutEndpoint: Record<string, Array<{ orderId: string; event: string; at: string }>>;
		/** Recovery events emitted while no recovery subscription existed. */
		recoveryWithoutSubscription: string[];
	};
	serviceScenarios: Record<string, number>;
	quoteLimiter: { answered429: number; replaysAfterLostAnswers: number };
}

/** Events emitted while the workflow at `url` had no endpoint: the service sent them nowhere, so they never reached it. */
export function emittedWithoutEndpoint(emissions: Emission[], url: string): Array<{ orderId: string; event: string; at: string }> {
	return emissions.filter((e) => !e.endpoints.includes(url)).map((e) => ({ orderId: e.orderId, event: e.event, at: new Date(e.at).toISOString() }));
}

/** How many times the wallet was handed each reference: the most, and those above one. */
export function handOffsOf(handOffs: ReadonlyMap<string, number>): { total: number; max: number; repeated: string[] } {
	const counts = [...handOffs.values()];
	return {
		total: counts.reduce((a, b) => a + b, 0),
		max: Math.max(0, ...counts),
		repeated: [...handOffs.entries()].filter(([, n]) => n > 1).map(([k, n]) => `${k} (${n})`),
	};
}

/**
 * `endpoints`: the URL of each workflow that takes every order event (examples 2 and 3), by name.
 * `emissions`: every order event the service emitted, with the endpoints it had then (emissions.ts).
 */
export function measure(
	month: Month,
	ledger: Row[],
	sb: SandboxRecords,
	standIns: StandIns,
	operator: Operator,
	emissions: Emission[],
	endpoints: Record<string, string>,
): Figures {
	const partnerOrders = sb.orders.filter((o) => o.partnerId !== null);
	const planned = new Map(month.payouts.map((p) => [p.payoutId, p]));
	const byOrder = new Map<string, Row[]>();
	const byIntent = new Map<string, Row[]>();
	for (const r of ledger) {
		if (r.orderId) byOrder.set(String(r.orderId), [...(byOrder.get(String(r.orderId)) ?? []), r]);
		if (r.intentId) byIntent.set(String(r.intentId), [...(byIntent.get(String(r.intentId)) ?? []), r]);
	}
	// a payout's quotes: under its reference, or paid by the wallet for it (a re-quote's key is derived)
	const payoutOfQuote = new Map<string, string>();
	for (const q of sb.quotes) if (q.idempotencyKey && planned.has(q.idempotencyKey)) payoutOfQuote.set(q.quoteId, q.idempotencyKey);
	const quoteOfDeposit = new Map(sb.quotes.map((q) => [String((q.quote as Json | undefined)?.depositAddress), q]));
	for (const x of standIns.payments) {
		const quote = x.depositAddress ? quoteOfDeposit.get(x.depositAddress) : undefined;
		if (quote) payoutOfQuote.set(quote.quoteId, x.payoutId);
	}
	const payoutOfTransfer = new Map(month.payouts.filter((p) => p.row.method === 'gateway').map((p) => [sparkTransferIdOf(p.payoutId), p.payoutId]));

	const missing: string[] = [];
	const duplicated: string[] = [];
	const mismatched: Mismatch[] = [];
	const notFinalRows: string[] = [];
	let matched = 0;
	for (const o of partnerOrders) {
		const id = String(o.order.id);
		const rows = byOrder.get(id) ?? [];
		if (rows.length === 0) missing.push(id);
		if (rows.length > 1) duplicated.push(`${id} (${rows.length} rows: ${rows.map((r) => r.id).join(', ')})`);
		if (rows.length !== 1) continue;
		const m = compareOrder(o.order, rows[0], sb.decimals);
		const payoutId = o.order.quoteId ? payoutOfQuote.get(String(o.order.quoteId)) : undefined;
		if (payoutId && rows[0].payoutId !== payoutId) m.push({ orderId: id, field: 'payoutId', ledger: rows[0].payoutId, sandbox: payoutId });
		const payout = payoutId ? planned.get(payoutId) : undefined;
		const dst = sb.decimals.get(`${o.order.destinationChain}:${o.order.destinationAsset}`) ?? -1;
		if (payout && toUnits(payout.row.amount, dst) !== BigInt(String(o.order.estimatedOut))) {
			m.push({ orderId: id, field: 'recipient gets the scheduled amount (exact out)', ledger: payout.row.amount, sandbox: o.order.estimatedOut });
		}
		if (rows[0].final !== true) notFinalRows.push(id);
		if (m.length === 0) matched++;
		mismatched.push(...m);
	}
	for (const intent of sb.intents) {
		const rows = byIntent.get(intent.submissionId) ?? [];
		const payoutId = payoutOfTransfer.get(intent.transfers[0]?.sparkTransferId ?? '');
		if (rows.length === 0) missing.push(`intent ${intent.submissionId} (${payoutId ?? 'no payout'})`);
		if (rows.length > 1) duplicated.push(`intent ${intent.submissionId} (${rows.length} rows)`);
		if (rows.length !== 1) continue;
		const row = rows[0];
		const m: Mismatch[] = [];
		const check = (field: string, ledgerValue: unknown, sandboxValue: unknown, same: boolean) => {
			if (!same) m.push({ orderId: `intent ${intent.submissionId}`, field, ledger: ledgerValue, sandbox: sandboxValue });
		};
		const final = ['FINALIZED', 'EXPIRED'].includes(intent.status);
		check('status', row.status, intent.status, row.status === intent.status);
		check('final', row.final, final, row.final === final);
		check('payoutId', row.payoutId, payoutId, row.payoutId === payoutId);
		const sats = intent.transfers.reduce((s, t) => s + BigInt(t.amount), 0n);
		check('amountIn', row.amountIn, `${sats} sats`, toUnits(row.amountIn, 8) === sats);
		if (row.final !== true) notFinalRows.push(`intent ${intent.submissionId}`);
		if (m.length === 0) matched++;
		mismatched.push(...m);
	}

	const orderIds = new Set(partnerOrders.map((o) => String(o.order.id)));
	const intentIds = new Set(sb.intents.map((i) => i.submissionId));
	const unmatched: Figures['ledger']['unmatched'] = [];
	for (const r of ledger) {
		const why = r.orderId
			? orderIds.has(String(r.orderId)) ? undefined : `order ${String(r.orderId)} is not an order of the sandbox`
			: r.intentId
				? intentIds.has(String(r.intentId)) ? undefined : `intent ${String(r.intentId)} is not an intent of the gateway`
				: `no order or intent (status ${String(r.status)}${r.quoteId ? `, quote ${String(r.quoteId)}` : ''}${r.depositId ? `, deposit ${String(r.depositId)}` : ''})`;
		if (why) unmatched.push({ id: r.id, payoutId: r.payoutId, status: r.status, why });
	}

	// paid twice: more than one order of the payout's quotes (those under its reference, and those the
	// wallet paid for it: a re-quote has a key derived from the reference), or gateway intent of its transfer
	const paidTwice: Figures['paidTwice'] = [];
	const notPaid: string[] = [];
	for (const p of month.payouts) {
		const paidFor = standIns.payments.filter((x) => x.payoutId === p.payoutId && x.depositAddress).map((x) => quoteOfDeposit.get(String(x.depositAddress)));
		const quotes = [...new Set([...sb.quotes.filter((q) => q.idempotencyKey === p.payoutId), ...paidFor.filter((q) => q !== undefined)])];
		const quoteIds = new Set(quotes.map((q) => q.quoteId));
		const orders = partnerOrders.filter((o) => o.order.quoteId && quoteIds.has(String(o.order.quoteId)));
		const intents = sb.intents.filter((i) => i.transfers.some((t) => t.sparkTransferId === sparkTransferIdOf(p.payoutId)));
		if (orders.length > 1 || intents.length > 1) paidTwice.push({ payoutId: p.payoutId, quotes: quotes.length, orders: orders.length, intents: intents.length });
		if (orders.length === 0 && intents.length === 0) notPaid.push(p.payoutId);
	}

	// people: what each order's own history at the sandbox says needed one
	const needed: Record<string, number> = {};
	const reached: Record<string, number> = {};
	const notReached: Figures['people']['notReached'] = [];
	const told = (orderId: string, route: string) => standIns.messages.some((m) => m.route === route && m.orderIds.includes(orderId));
	const recoveryOrders = new Set(sb.deliveries.filter((d) => d.event === 'order.recovery_required').map((d) => d.orderId));
	const need = (orderId: string, kind: PersonKind, ok: boolean) => {
		needed[kind] = (needed[kind] ?? 0) + 1;
		if (ok) reached[kind] = (reached[kind] ?? 0) + 1;
		else notReached.push({ orderId, kind });
	};
	for (const o of partnerOrders) {
		const id = String(o.order.id);
		const h = o.statusHistory;
		if (h.includes('awaiting_approval')) {
			if (o.order.zeroconfOffer) need(id, 'zeroconf offer (approval)', standIns.approvals.some((a) => a.orderId === id));
			else need(id, 'hold', told(id, 'hold'));
		}
		if (h.includes('unfulfilled')) need(id, 'unfulfilled', told(id, 'unfulfilled'));
		if (h.includes('failed')) need(id, 'failed', told(id, 'failed'));
		if (h.includes('refunded')) need(id, 'refunded', told(id, 'refunded'));
		if (recoveryOrders.has(id)) need(id, 'recovery decision', told(id, 'recovery'));
	}
	for (const p of operator.paused) need(p.orderId, 'paused (no webhook)', p.inReport === true);

	const acknowledged = sb.deliveries.filter((d) => d.state === 'delivered').length;
	const refusedAttempts: Record<string, number> = {};
	for (const d of sb.deliveries) {
		for (const a of d.attempts) {
			if (a.status !== null && a.status >= 200 && a.status < 300) continue;
			const k = a.status === null ? `no answer (${(a.error ?? '').slice(0, 40)})` : String(a.status);
			refusedAttempts[k] = (refusedAttempts[k] ?? 0) + 1;
		}
	}
	const byEvent: Record<string, number> = {};
	for (const d of sb.deliveries) byEvent[d.event] = (byEvent[d.event] ?? 0) + 1;

	const history = (pred: (h: string[], o: Json) => boolean) => partnerOrders.filter((o) => pred(o.statusHistory, o.order)).length;
	const payoutOrders = partnerOrders.filter((o) => o.order.quoteId && payoutOfQuote.has(String(o.order.quoteId)));
	const handOffs = handOffsOf(standIns.handOffs);
	return {
		payouts: {
			planned: month.payouts.length,
			inLedger: month.payouts.filter((p) => ledger.some((r) => r.payoutId === p.payoutId)).length,
			paid: month.payouts.length - notPaid.length,
			notPaid,
			handOffs: handOffs.total,
			handOffsMaxPerReference: handOffs.max,
			handOffsRepeated: handOffs.repeated,
		},
		orders: {
			total: partnerOrders.length,
			ofPayouts: payoutOrders.length,
			ofStandingAddress: partnerOrders.filter((o) => o.order.quoteId === null).length,
			notFinal: partnerOrders.filter((o) => !FINAL.has(String(o.order.status))).map((o) => `${String(o.order.id)} (${String(o.order.status)})`),
		},
		intents: { total: sb.intents.length },
		ledger: { rows: ledger.length, matched, missing, duplicated, mismatched, notFinal: notFinalRows, unmatched },
		paidTwice,
		people: { needed, reached, notReached },
		events: {
			deliveries: sb.deliveries.length,
			byEvent,
			acknowledged,
			notAcknowledged: sb.deliveries
				.filter((d) => d.state !== 'delivered')
				.map((d) => ({ deliveryId: d.deliveryId, url: d.url, event: d.event, orderId: d.orderId, state: d.state, lastStatus: d.attempts.at(-1)?.status ?? d.attempts.at(-1)?.error })),
			attempts: sb.deliveries.reduce((s, d) => s + d.attempts.length, 0),
			refusedAttempts,
			emitted: emissions.length,
			withoutEndpoint: Object.fromEntries(Object.entries(endpoints).map(([name, url]) => [name, emittedWithoutEndpoint(emissions, url)])),
			recoveryWithoutSubscription: operator.recoveries.filter((r) => r.deliveryIds.length === 0).map((r) => r.orderId),
		},
		serviceScenarios: {
			'ZeroConf offers': history((_h, o) => !!o.zeroconfOffer),
			'ZeroConf offers accepted by a person': history((_h, o) => (o.zeroconfOffer as Json | null)?.status === 'accepted'),
			'ZeroConf offers declined by a person': history((_h, o) => (o.zeroconfOffer as Json | null)?.status === 'declined'),
			'unfulfilled, then resumed (late deposit or the service)': history((h) => h.includes('unfulfilled') && h.indexOf('confirming', h.indexOf('unfulfilled')) > 0),
			'late deposits sent to an unfulfilled order': operator.pending.filter((p) => p.kind === 'late deposit' && p.doneAt !== undefined).length,
			'held for approval, then released': history((h, o) => h.includes('awaiting_approval') && !o.zeroconfOffer && FINAL.has(String(o.status))),
			'recovery events delivered': sb.deliveries.filter((d) => d.event === 'order.recovery_required' && d.state === 'delivered').length,
			'paused orders (no webhook)': operator.paused.length,
			'paused orders the reconciliation put in the ledger as paused': operator.paused.filter((p) => p.ledgerStatus === 'paused').length,
			failed: history((h) => h.includes('failed')),
			refunded: history((h) => h.includes('refunded')),
		},
		quoteLimiter: {
			answered429: sb.quoteRequests.filter((r) => r.status === 429).length,
			replaysAfterLostAnswers: sb.quoteRequests.filter((r) => r.replayed === true).length,
		},
	};
}

/** What the run itself did, besides the figures: whether it settled, and its re-publish and restart. */
export interface RunFacts {
	settled: boolean;
	republished: boolean;
	restarted: boolean;
}

/** Everything that makes the month fail: where a user would lose, or a fault or scenario that never happened. */
export function problemsOf(f: Figures, faults: FaultReport, run: RunFacts): string[] {
	const problems: string[] = [];
	const zero = (what: string, list: unknown[]) => {
		if (list.length) problems.push(`${what}: ${list.length} ${JSON.stringify(list.slice(0, 10))}`);
	};
	if (!run.settled) problems.push('the month did not settle: orders, payouts, deliveries or runs were still open when the wait ended');
	zero('payouts not paid', f.payouts.notPaid);
	zero('payouts paid twice', f.paidTwice);
	zero('payout references handed off to the wallet more than once', f.payouts.handOffsRepeated);
	zero('orders or intents missing from the ledger', f.ledger.missing);
	zero('orders or intents with more than one row', f.ledger.duplicated);
	zero('rows that do not match their order', f.ledger.mismatched);
	zero('rows not final', f.ledger.notFinal);
	zero('rows that match nothing at the service', f.ledger.unmatched);
	zero('orders that needed a person and reached none', f.people.notReached);
	zero('orders not final at the service', f.orders.notFinal);
	zero('events n8n never acknowledged (lost)', f.events.notAcknowledged);
	for (const [workflow, list] of Object.entries(f.events.withoutEndpoint)) zero(`events emitted while ${workflow} had no endpoint (sent nowhere, never reached it)`, list);
	zero('recovery events emitted while no recovery subscription existed', f.events.recoveryWithoutSubscription);
	if (f.payouts.inLedger !== f.payouts.planned) problems.push(`payouts in the ledger: ${f.payouts.inLedger} of ${f.payouts.planned}`);
	zero('fault rules armed that never hit', faults.rules.filter((r) => r.hit === 0).map((r) => `day ${r.day}: ${r.rule}`));
	for (const [what, n] of Object.entries(f.serviceScenarios)) if (n === 0) problems.push(`never happened: ${what}`);
	if (!run.republished) problems.push('example 3 was not re-published');
	if (!run.restarted) problems.push('n8n was not restarted');
	return problems;
}
