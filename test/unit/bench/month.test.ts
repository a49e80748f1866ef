/** The month benchmark's rules (bench/n8n/month: checks.ts, faults.ts), on hand-made figures: what fails the month. */
import { emittedWithoutEndpoint, handOffsOf, problemsOf, type Figures } from '../../../bench/n8n/month/checks';
import { watchEmissions } from '../../../bench/n8n/month/emissions';
import { hitsOf, type Armed, type FaultReport } from '../../../bench/n8n/month/faults';
import { startSandbox } from '../../../sandbox';
import { pickSandboxKeys } from '../../../scripts/lib/examples';

const LEDGER = 'http://n8n/webhook/example-order-events-ledger/webhook';
const ROUTER = 'http://n8n/webhook/example-order-events-slack/webhook';

/** A month in which everything held. */
function clean(): Figures {
	return {
		payouts: { planned: 2, inLedger: 2, paid: 2, notPaid: [], handOffs: 2, handOffsMaxPerReference: 1, handOffsRepeated: [] },
		orders: { total: 2, ofPayouts: 2, ofStandingAddress: 0, notFinal: [] },
		intents: { total: 0 },
		ledger: { rows: 2, matched: 2, missing: [], duplicated: [], mismatched: [], notFinal: [], unmatched: [] },
		paidTwice: [],
		people: { needed: {}, reached: {}, notReached: [] },
		events: {
			deliveries: 4, byEvent: { 'order.processing': 4 }, acknowledged: 4, notAcknowledged: [], attempts: 4, refusedAttempts: {},
			emitted: 2, withoutEndpoint: { 'example 3 (the ledger)': [], 'example 2 (Slack)': [] }, recoveryWithoutSubscription: [],
		},
		serviceScenarios: { failed: 1 },
		quoteLimiter: { answered429: 0, replaysAfterLostAnswers: 0 },
	};
}

const armed = (id: number, day: number, path = '/v1/orchestration/quote', service: Armed['service'] = 'orchestration'): Armed => ({
	kind: '5xx', rule: { method: 'POST', path, mode: 'status', status: 503 }, service, id, times: 1, day,
});
const allHit: FaultReport = hitsOf([armed(1, 1)], { faults: [], gatewayFaults: [] });
const ran = { settled: true, republished: true, restarted: true };

describe('the month fails where a user would lose', () => {
	it('passes a month where everything held', () => {
		expect(problemsOf(clean(), allHit, ran)).toEqual([]);
	});

	it('fails on a payout reference handed off to the wallet twice', () => {
		const f = clean();
		const counted = handOffsOf(new Map([['m0-2027-03', 1], ['d3-2027-03-02', 2]]));
		expect(counted).toEqual({ total: 3, max: 2, repeated: ['d3-2027-03-02 (2)'] });
		f.payouts = { ...f.payouts, handOffs: counted.total, handOffsMaxPerReference: counted.max, handOffsRepeated: counted.repeated };
		expect(problemsOf(f, allHit, ran)).toEqual(['payout references handed off to the wallet more than once: 1 ["d3-2027-03-02 (2)"]']);
	});

	it('fails on an event emitted while the ledger had no endpoint (no delivery record: sent nowhere)', () => {
		const emissions = [
			{ orderId: 'ord_1', event: 'order.processing', at: 0, endpoints: [ROUTER, LEDGER] },
			{ orderId: 'ord_1', event: 'order.completed', at: 1000, endpoints: [ROUTER] },
		];
		const f = clean();
		f.events.withoutEndpoint = { 'example 3 (the ledger)': emittedWithoutEndpoint(emissions, LEDGER), 'example 2 (Slack)': emittedWithoutEndpoint(emissions, ROUTER) };
		expect(problemsOf(f, allHit, ran)).toEqual([
			'events emitted while example 3 (the ledger) had no endpoint (sent nowhere, never reached it): 1 [{"orderId":"ord_1","event":"order.completed","at":"1970-01-01T00:00:01.000Z"}]',
		]);
	});

	it('fails when the month did not settle', () => {
		expect(problemsOf(clean(), allHit, { ...ran, settled: false })).toEqual([expect.stringMatching(/^the month did not settle/)]);
	});

	it('fails on an armed rule that never hit, even when another rule of its kind did', () => {
		// rule 1 was used up (gone from the list); rule 2 of the same kind is still listed, never applied
		const faults = hitsOf([armed(1, 1), armed(2, 5, '/api/v1/intents/:submissionId', 'gateway')], { faults: [], gatewayFaults: [{ id: 2, applied: 0 }] });
		expect(faults.byKind['5xx']).toMatchObject({ armed: 2, hit: 1 });
		expect(faults.rules.map((r) => [r.day, r.rule, r.hit])).toEqual([[1, 'POST /v1/orchestration/quote status 503', 1], [5, 'gateway POST /api/v1/intents/:submissionId status 503', 0]]);
		expect(problemsOf(clean(), faults, ran)).toEqual(['fault rules armed that never hit: 1 ["day 5: gateway POST /api/v1/intents/:submissionId status 503"]']);
	});

	it('reads a listed rule of the other service apart: the same id at the orchestration API is another rule', () => {
		const faults = hitsOf([armed(3, 2), armed(3, 2, '/api/v1/network/info', 'gateway')], { faults: [{ id: 3, applied: 0 }], gatewayFaults: [] });
		expect(faults.rules.map((r) => r.hit)).toEqual([0, 1]);
	});
});

describe('the emissions the month records (emissions.ts), against the sandbox', () => {
	it("records every order event with the partner's endpoints then: none once the only one was removed", async () => {
		const sb = await startSandbox({ timeScale: 10, quiet: true });
		try {
			const emissions = watchEmissions(sb);
			const post = async (path: string, body: unknown, method = 'POST') => {
				const headers = { authorization: `Bearer ${pickSandboxKeys(sb).server.key}`, 'x-idempotency-key': `${path}-${Math.random()}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
				const res = await fetch(`${sb.orchestrationUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
				expect(res.status).toBeLessThan(300);
				return (await res.json()) as Record<string, string>;
			};
			const order = async () => {
				const quote = await post('/v1/orchestration/quote', { sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'bitcoin', destinationAsset: 'BTC', amount: '40000000', recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' });
				return (await post('/sandbox/deposits', { depositAddress: quote.depositAddress, amount: quote.amountIn, autoAdvance: false })).orderId;
			};
			const hook = await post('/v1/webhooks', { url: LEDGER });
			const first = await order();
			await post(`/v1/webhooks/${hook.webhookId}`, undefined, 'DELETE');
			const second = await order();
			expect(emissions.map((e) => [e.orderId, e.event, e.endpoints])).toEqual([[first, 'order.processing', [LEDGER]], [second, 'order.processing', []]]);
			expect(emittedWithoutEndpoint(emissions, LEDGER).map((e) => e.orderId)).toEqual([second]);
		} finally {
			await sb.close();
		}
	});
});
