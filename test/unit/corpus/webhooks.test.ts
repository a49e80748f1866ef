/**
 * The trigger over the documented deliveries (test/fixtures/live-service/webhook-payloads.json): the
 * door (delivery.ts handleDelivery) with signatures computed here by node:crypto, the run's item
 * (output.ts deliveryItem, outputItem) and the flat order (orderView.ts flatOrderOf), without the
 * sandbox and without n8n.
 */
import { handleDelivery, type DeliveryInput } from '../../../nodes/OrchestrationTrigger/delivery';
import { eventSelectionOf, SELECTABLE_EVENTS } from '../../../nodes/OrchestrationTrigger/events';
import { deliveryItem, outputHeaders, outputItem, type AcceptedDelivery } from '../../../nodes/OrchestrationTrigger/output';
import { actionRequiredOf, flatOrderOf } from '../../../nodes/shared/orchestration/orderView';
import { catalogue, fixture, formattedOf, signature, type Json } from './corpus';

interface Example {
	name: string;
	source: string;
	body: { event: string; timestamp: unknown; data: Json };
	formatted?: Json & { feePayouts?: Json[] };
	actionRequired?: string;
}

const SECRET = 'whsec_corpus_0123456789abcdef0123456789';
/** public-notes: order.recovery_required goes to recovery subscriptions only, each with its own secret. */
const RECOVERY_SECRET = 'whsec_corpus_recovery_abcdef0123456789';
const RECOVERY = 'order.recovery_required';
const NOW = Date.parse('2025-06-01T12:00:00.000Z');
const corpus = fixture<{ examples: Example[] }>('webhook-payloads.json');
const cases = corpus.examples.map((e) => [e.name, e] as const);
const NESTED = ['source', 'destination', 'refund', 'error'];

/**
 * One delivery of `body` as the service signs it (spec 6), under the given header names, with the
 * secret of the subscription its kind goes to (`secret` overrides it).
 */
function delivery(body: Json, names = { signature: 'x-service-signature', timestamp: 'x-service-timestamp' }, secret?: string): DeliveryInput {
	const rawBody = JSON.stringify(body);
	const timestamp = String(NOW);
	const key = secret ?? (body.event === RECOVERY ? RECOVERY_SECRET : SECRET);
	return {
		rawBody: Buffer.from(rawBody, 'utf8'),
		headers: { 'content-type': 'application/json', [names.signature]: signature(key, timestamp, rawBody), [names.timestamp]: timestamp },
		secret: SECRET,
		recoverySecret: RECOVERY_SECRET,
		toleranceSeconds: 300,
		nowMs: NOW,
		events: eventSelectionOf(['*']),
	};
}

function accepted(e: Example): AcceptedDelivery {
	const input = delivery(e.body);
	const decision = handleDelivery(input);
	if (decision.outcome !== 'accepted') throw new Error(`${e.name}: ${JSON.stringify(decision)}`);
	return { deliveryId: 'dlv_1', ...decision, receivedAtMs: NOW, headers: input.headers };
}

describe('the trigger takes every documented delivery', () => {
	test('the corpus has the newer kinds and the nested members', () => {
		const events = new Set(corpus.examples.map((e) => e.body.event));
		for (const kind of ['order.superseded', 'order.recovery_required', 'order.unfulfilled', 'order.completed']) expect(events).toContain(kind);
		for (const member of [...NESTED, 'priceLock']) expect(corpus.examples.some((e) => member in e.body.data)).toBe(true);
	});

	test.each(cases)('%s: verified, parsed, keyed on (data.id, event, data.updatedAt)', (_name, e) => {
		const d = accepted(e);
		expect(d.envelope).toEqual(e.body);
		expect(d.duplicateKey).toBe(JSON.stringify([e.body.data.id, e.body.event, e.body.data.updatedAt]));
		expect(d.signatureTimestampMs).toBe(NOW);
	});

	test.each(cases)('%s: the output keeps the envelope and adds the flat order, no nested value lost', (_name, e) => {
		const { json } = outputItem(deliveryItem(accepted(e), { include: false, sensitive: false }), 0, false);
		expect(json.event).toBe(e.body.event);
		expect(json.data).toEqual(e.body.data);
		expect(json.timestamp).toEqual(e.body.timestamp);
		const order = json.order as Json;
		expect(order).toEqual(flatOrderOf(e.body.data));
		const flatValues = Object.values(order);
		for (const member of NESTED) {
			const nested = e.body.data[member] as Json | undefined;
			expect(order[member]).toBeUndefined();
			for (const value of Object.values(nested ?? {})) expect(flatValues).toContainEqual(value);
		}
		// public-notes: `errorCode` on the status order is `data.error.code` in webhooks
		if (e.body.data.error) expect(order.errorCode).toBe((e.body.data.error as Json).code);
		for (const member of ['priceLock', 'amountOut', 'completedAt', 'supersededByOperationId', 'recoveredFromOperationId', 'reviewStatus', 'zeroconfOffer']) {
			if (member in e.body.data) expect(order[member]).toEqual(e.body.data[member]);
		}
	});

	const withAmounts = cases.filter(([, e]) => e.formatted !== undefined);
	test.each(withAmounts)('%s: amounts formatted in the asset they count in', (_name, e) => {
		const item = outputItem(deliveryItem(accepted(e), { include: false, sensitive: false }), 0, false, catalogue());
		const order = item.json.order as Json;
		const { feePayouts: _payouts, ...top } = e.formatted as Json;
		expect(formattedOf(order)).toMatchObject(top);
	});

	const withPayouts = withAmounts.filter(([, e]) => e.formatted?.feePayouts !== undefined);
	const payoutsOf = (e: Example) => {
		const item = outputItem(deliveryItem(accepted(e), { include: false, sensitive: false }), 0, false, catalogue());
		const entries = ((item.json.order as Json).feePayouts as { entries: Json[] }).entries;
		return entries.map((entry) => ({ role: entry.role, formatted: formattedOf(entry) }));
	};
	const expected = (e: Example) => (e.formatted?.feePayouts ?? []).map((f, i) => ({ role: (e.body.data.feePayouts as { entries: Json[] }).entries[i].role, formatted: f }));

	test.each(withPayouts)('%s: fee entries formatted in the fee asset', (_name, e) => {
		const fees = (list: Array<{ role: unknown }>) => list.filter((p) => p.role !== 'recipient_payout');
		expect(fees(payoutsOf(e))).toEqual(fees(expected(e)));
	});

	// public-notes: a recipient_payout is the recipient's delivery, in the destination asset
	test.each(withPayouts)('%s: the recipient_payout formatted in the destination asset', (_name, e) => {
		const payout = (list: Array<{ role: unknown }>) => list.filter((p) => p.role === 'recipient_payout');
		expect(payout(payoutsOf(e))).toEqual(payout(expected(e)));
	});

	test.each(cases.filter(([, e]) => e.actionRequired === 'zeroconfOffer'))('%s: a ZeroConf offer is an action required', (_name, e) => {
		expect((actionRequiredOf(flatOrderOf(e.body.data)).actionRequired as Json).reason).toBe('zeroconfOffer');
	});

	// priceLock mode approval_required / reprice_approval_required: a re-approval is needed, not an operator hold
	test.each(cases.filter(([, e]) => e.actionRequired === 'priceLockApproval'))('%s: a price re-approval is not called an operator hold', (_name, e) => {
		expect((actionRequiredOf(flatOrderOf(e.body.data)).actionRequired as Json).reason).not.toBe('operatorHold');
	});

	test('order.recovery_required is taken only under the recovery subscription\'s secret', () => {
		const recovery = corpus.examples.find((e) => e.body.event === RECOVERY) as Example;
		expect(handleDelivery(delivery(recovery.body)).outcome).toBe('accepted');
		expect(handleDelivery(delivery(recovery.body, undefined, SECRET))).toMatchObject({ outcome: 'rejected', status: 401 });
	});

	test('the newer kinds pass the default filter and can be chosen alone', () => {
		expect(SELECTABLE_EVENTS).toEqual(expect.arrayContaining(['order.superseded', 'order.recovery_required']));
		const spec = eventSelectionOf(SELECTABLE_EVENTS.filter((k) => k !== 'order.superseded' && k !== 'order.recovery_required'));
		expect(spec?.accepts('order.superseded')).toBe(true);
		const superseded = corpus.examples.find((e) => e.body.event === 'order.superseded') as Example;
		const only = handleDelivery({ ...delivery(superseded.body), events: eventSelectionOf(['order.superseded']) });
		expect(only.outcome).toBe('accepted');
	});
});

describe('the live service signs under its own prefix (public-notes "Webhooks": X-Flashnet-Signature, X-Flashnet-Timestamp)', () => {
	const LIVE = { signature: 'x-flashnet-signature', timestamp: 'x-flashnet-timestamp' };

	test('a delivery under the spec names is accepted (the same bytes and scheme)', () => {
		expect(handleDelivery(delivery(corpus.examples[0].body)).outcome).toBe('accepted');
	});

	test.each(cases)('%s: accepted under the live header names', (_name, e) => {
		expect(handleDelivery(delivery(e.body, LIVE)).outcome).toBe('accepted');
	});

	test('Include Headers drops the live signature and timestamp as it drops the spec ones', () => {
		const headers = delivery(corpus.examples[0].body, LIVE).headers as Record<string, unknown>;
		expect(Object.keys(outputHeaders(headers, false))).toEqual(['content-type']);
	});
});
