/**
 * Get Status over the documented status answers (test/fixtures/live-service/status-answers.json):
 * the nodes' own normalisation (responseSchemas.ts normalizeStatusResponse) and output (getStatus.ts
 * statusOutput), flat and nested, without the sandbox.
 */
import { statusOutput } from '../../../nodes/Orchestration/actions/order/getStatus';
import { actionRequiredOf, orderWithFormattedAmounts } from '../../../nodes/shared/orchestration/orderView';
import { normalizeStatusResponse, OrderSchema } from '../../../nodes/shared/orchestration/responseSchemas';
import { catalogue, fixture, type Json } from './corpus';

interface Example {
	name: string;
	source: string;
	body: Json;
	expect: { id: string; status: string; stages: string[]; isFinal?: boolean; actionRequired?: string } & Json;
}

const corpus = fixture<{ examples: Example[]; orderByQuote: Array<{ name: string; body: Json }> }>('status-answers.json');
const cases = corpus.examples.map((e) => [e.name, e] as const);

/** The order members of a status answer, whichever layout: nested `order`, or the flat body without `stages`. */
function orderOf(body: Json): Json {
	if (typeof body.order === 'object' && body.order !== null) return body.order as Json;
	const { stages: _stages, ...order } = body;
	return order;
}

describe('Get Status reads every documented status answer, flat and nested', () => {
	test('the corpus has both layouts', () => {
		expect(corpus.examples.some((e) => 'order' in e.body)).toBe(true);
		expect(corpus.examples.some((e) => !('order' in e.body))).toBe(true);
	});

	test.each(cases)('%s: id, status, stage names, every order member kept', (_name, e) => {
		const out = statusOutput(normalizeStatusResponse(e.body));
		expect(out).toMatchObject({ id: e.expect.id, status: e.expect.status, stages: e.expect.stages });
		expect(out.stageDetails).toEqual((e.body.stages as unknown[] | undefined) ?? []);
		for (const [member, value] of Object.entries(orderOf(e.body))) expect(out[member]).toEqual(value);
		// the documented extras reach the output untouched (errorCode, the successor links)
		for (const member of ['errorCode', 'supersededByOperationId', 'recoveredFromOperationId']) {
			if (member in e.expect) expect(out[member]).toBe(e.expect[member]);
		}
	});

	// public-notes: `unfulfilled` is not final (an order in it can resume after a late deposit)
	test.each(cases.filter(([, e]) => e.expect.isFinal !== undefined))('%s: isFinal as the service says', (_name, e) => {
		expect(normalizeStatusResponse(e.body).isFinal).toBe(e.expect.isFinal);
	});

	test.each(cases.filter(([, e]) => e.expect.actionRequired !== undefined))('%s: the action it waits for', (_name, e) => {
		const { order } = normalizeStatusResponse(e.body);
		expect((actionRequiredOf(order).actionRequired as Json).reason).toBe(e.expect.actionRequired);
	});

	test.each(cases)('%s: formatting needs no member the documents do not show, and invents no amount', (_name, e) => {
		// The status order's flat asset members are not documented (public-notes documents the nested
		// webhook ones): without them nothing can be formatted, and nothing may fail.
		const order = normalizeStatusResponse(e.body).order;
		expect(orderWithFormattedAmounts(order, catalogue())).toEqual(order);
	});
});

describe('order by quote (GET /v1/orchestration/order?quoteId=)', () => {
	test.each(corpus.orderByQuote.map((e) => [e.name, e] as const))('%s: its order, when there is one, is an order the nodes read', (_name, e) => {
		const order = e.body.order;
		expect(typeof e.body.expiresAt).toBe('string');
		if (order !== null) expect(OrderSchema.safeParse(order).success).toBe(true);
	});
});
