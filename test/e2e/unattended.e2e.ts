/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers and Data Table rows are arbitrary JSON asserted field by field */
/**
 * The examples left running, in a real n8n 2.41.1 against the sandbox, as a team runs them: the
 * payout tables created by example 0 (n8n's own Data Tables), example 1 paying the payout schedule
 * (each payout in its own execution, followed through n8n's Wait node until final, a ZeroConf offer
 * decided by a person and answered from the flow, a payout through the Execution Gateway), examples
 * 2 and 3 published (every state that needs a person posted to Slack, every order in the ledger),
 * and example 7's reconciliation catching what no webhook reports. Slack steps and the wallet are
 * stand-ins (test/e2e/slackStandIns.ts, scripts/lib/examples.ts); everything else is the example.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DataTables, Row } from '../../scripts/lib/dataTables';
import { PAYOUT_TABLES, pickSandboxKeys } from '../../scripts/lib/examples';
import { endedExecution, errorOf, executionOf, executionsOf, lastOutput, runsOf, type Execution } from '../../scripts/lib/executions';
import { closeEnv, createEnv, type E2eEnv } from './env';
import { LEDGER_FLOW, PAYOUTS, RECONCILIATION, ROUTE as route, ROUTER, SandboxCalls, startWithExamples, type Running, type Variant } from './examplesInN8n';
import { type SandboxClient, until } from './sandbox-client';

const STANDING_REF = 'e2e-standing';
const LINK_BASE = '/sandbox/orders/';

const SCHEDULE = [
	{ payoutKey: 'e2e-quote', enabled: true, every: 'once', method: 'quote', amount: '125.50', ...route, recipient: '0x1111111111111111111111111111111111111111', zeroconf: false, note: '' },
	{ payoutKey: 'e2e-zeroconf', enabled: true, every: 'once', method: 'quote', amount: '80', ...route, recipient: '0x3333333333333333333333333333333333333333', zeroconf: true, note: '' },
	{ payoutKey: 'e2e-gateway', enabled: true, every: 'once', method: 'gateway', amount: '0.00025', sourceChain: 'spark', sourceAsset: 'BTC', destinationChain: '', destinationAsset: 'BTC', recipient: '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23', refundAddress: '', zeroconf: false, note: '' },
	{ payoutKey: 'e2e-disabled', enabled: false, every: 'once', method: 'quote', amount: '10', ...route, recipient: '0x4444444444444444444444444444444444444444', zeroconf: false, note: '' },
];

/** Example 6 as imported twice more: nobody answers the approval before the wait runs out, and the person declines. */
const NO_ANSWER = { id: 'exApprovedPayoutNoAnswer', invoice: 'INV-E2E-NO-ANSWER' };
const DECLINED = { id: 'exApprovedPayoutDeclined', invoice: 'INV-E2E-DECLINED' };
/** Example 1 as imported twice more: nobody answers a ZeroConf offer before it expires, and the person declines it. */
const ZC_NO_ANSWER = { id: 'exRecurringPayoutNoAnswer', payoutKey: 'e2e-zc-noanswer' };
const ZC_DECLINED = { id: 'exRecurringPayoutDeclined', payoutKey: 'e2e-zc-declined' };
const VARIANTS: Variant[] = [
	{ of: 'exApprovedPayout', id: NO_ANSWER.id, approval: 'timeout', values: { node: 'Payout request', set: { invoice: NO_ANSWER.invoice } } },
	{ of: 'exApprovedPayout', id: DECLINED.id, approval: 'decline', values: { node: 'Payout request', set: { invoice: DECLINED.invoice } } },
	{ of: PAYOUTS, id: ZC_NO_ANSWER.id, approval: 'timeout' },
	{ of: PAYOUTS, id: ZC_DECLINED.id, approval: 'decline' },
];

let env: E2eEnv;
let running: Running;
let sandbox: SandboxClient;
let sb: SandboxCalls;
let apiKey: string;
let tables: DataTables;

const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => await sb.call(method, url, body, headers);
const orch = (p: string) => sb.url(p);
const asServer = (extra: Record<string, string> = {}) => sb.asServer(extra);
const quote = async () => await sb.quote();
const order = async (opts: { outcome?: string; autoAdvance?: boolean } = {}) => await sb.order(opts);

async function ledger(): Promise<Row[]> {
	return await tables.rows(PAYOUT_TABLES.ledger);
}

async function ledgerRow(match: (r: Row) => boolean, what: string, ok: (r: Row) => boolean = () => true): Promise<Row> {
	return await until(what, async () => (await ledger()).find((r) => match(r) && ok(r)), 120_000, 1000);
}

/** Every ended execution of a workflow with its data. */
async function endedRuns(workflowId: string): Promise<Execution[]> {
	const list = await executionsOf(env.n8n, apiKey, workflowId);
	return await Promise.all(list.filter((e) => !['running', 'waiting', 'new'].includes(e.status)).map(async (e) => await executionOf(env.n8n, apiKey, e.id)));
}

async function runToEnd(workflowId: string): Promise<Execution> {
	const id = await env.n8n.runManually(running.cookie, workflowId, 'Run now');
	const ex = await endedExecution(env.n8n, apiKey, id, 300_000);
	if (ex.status !== 'success') throw new Error(`${workflowId} ended ${ex.status}: ${errorOf(ex)}`);
	return ex;
}

beforeAll(async () => {
	env = await createEnv({ timeScale: 10 });
	sb = new SandboxCalls(env);
	running = await startWithExamples(env, { schedule: SCHEDULE, standingReference: STANDING_REF, variants: VARIANTS });
	({ sandbox, apiKey, tables } = running);
	// orders take about 10 s (six steps of 1.5 s), so the payout loop reads each one several times
	await sandbox.setSwitches({ orderStepMs: 15_000 });
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
});

describe('example 0: the payout tables', () => {
	it('created both Data Tables through the Data Table node, and running it again changes nothing', async () => {
		expect((await tables.rows(PAYOUT_TABLES.schedule)).map((r) => r.payoutKey).sort()).toEqual(['e2e-disabled', 'e2e-gateway', 'e2e-quote', 'e2e-zeroconf']);
		const before = [await tables.idOf(PAYOUT_TABLES.schedule), await tables.idOf(PAYOUT_TABLES.ledger)];
		await runToEnd('exPayoutTables');
		expect([await tables.idOf(PAYOUT_TABLES.schedule), await tables.idOf(PAYOUT_TABLES.ledger)]).toEqual(before);
	});
});

describe('example 1: recurring payouts', () => {
	let children: Execution[] = [];
	const childOf = (payoutId: string) => {
		const found = children.find((c) => (lastOutput(c, 'One payout')[0] as any)?.payoutId === payoutId);
		if (!found) throw new Error(`no execution paid ${payoutId}`);
		return found;
	};

	beforeAll(async () => {
		const parent = await runToEnd(PAYOUTS);
		expect(lastOutput(parent, 'Not paid this period').map((p: any) => p.payoutId).sort()).toEqual(['e2e-gateway-once', 'e2e-quote-once', 'e2e-zeroconf-once']);
		// one execution per payout, each ends by itself (its loop waits in n8n's Wait node)
		children = await until(
			'the three payout executions to end',
			async () => {
				const ended = (await endedRuns(PAYOUTS)).filter((e) => e.id !== parent.id && e.mode === 'integrated');
				return ended.length === 3 ? ended : undefined;
			},
			300_000,
			2000,
		);
	}, 400_000);

	it('each payout ran in its own execution and ended green', () => {
		for (const c of children) expect({ id: c.id, status: c.status, error: errorOf(c) }).toEqual({ id: c.id, status: 'success', error: undefined });
	});

	it('a payout through a quote: paid once by the wallet, followed through the Wait loop to completed, its ledger row final', async () => {
		const c = childOf('e2e-quote-once');
		const [q] = lastOutput(c, 'Quote') as any[];
		expect(q).toMatchObject({ amountMode: 'exact_out', estimatedOut: '125500000', replayed: false });
		// more than one read: the order was followed through n8n's Wait node, not inside a node
		const reads = runsOf(c, 'Order status');
		expect(reads.length).toBeGreaterThan(1);
		expect(reads.map((r: any) => r[0].status)).toContain('completed');
		expect(runsOf(c, 'Wait for the order').length).toBe(reads.length - 1);
		const row = await ledgerRow((r) => r.payoutId === 'e2e-quote-once', 'the quote payout final', (r) => r.final === true);
		expect(row).toMatchObject({
			origin: 'schedule', method: 'quote', quoteId: q.quoteId, status: 'completed', final: true, attention: '',
			source: 'bitcoin:BTC', destination: 'base:USDC', amountOut: '125.5', amountIn: q.amountInFormatted, feeAsset: q.feeAsset,
		});
		expect(row.orderId).toMatch(/^ord_/);
		const quotes = (await call('GET', orch('/sandbox/quotes?idempotencyKey=e2e-quote-once'))).quotes;
		expect(quotes).toHaveLength(1);
		expect(quotes[0].orderId).toBe(row.orderId);
	});

	it('a ZeroConf offer: a person was asked in Slack, the flow accepted the offer, and the order completed', async () => {
		const c = childOf('e2e-zeroconf-once');
		const [asked] = lastOutput(c, 'Ask a person') as any[];
		expect(asked.slackChannel).toBe('#payouts');
		expect(asked.slackMessage).toMatch(/Payout \*e2e-zeroconf-once\*: order ord_\w+ got a \*ZeroConf offer\*: \d+ sats now/);
		const [answer] = lastOutput(c, 'Accept ZeroConf offer') as any[];
		expect(answer).toMatchObject({ status: 'processing', replayed: false });
		expect(runsOf(c, 'Decline ZeroConf offer')).toHaveLength(0);
		const row = await ledgerRow((r) => r.payoutId === 'e2e-zeroconf-once', 'the ZeroConf payout final', (r) => r.final === true);
		expect(row).toMatchObject({ status: 'completed', attention: '' });
		expect(String(row.note)).toMatch(/^ZeroConf offer accepted by a person at /);
		const o = await call('GET', orch(`/sandbox/orders/${String(row.orderId)}`));
		expect(o.statusHistory).toContain('awaiting_approval');
		expect((o.order ?? o).zeroconfOffer.status).toBe('accepted');
	});

	it('a payout through the Execution Gateway: the deposit intent signed for the recipient, followed until FINALIZED', async () => {
		const c = childOf('e2e-gateway-once');
		const [intent] = lastOutput(c, 'Deposit intent') as any[];
		expect(intent.submissionId).toBeTruthy();
		const row = await ledgerRow((r) => r.payoutId === 'e2e-gateway-once', 'the gateway payout final', (r) => r.final === true);
		expect(row).toMatchObject({ method: 'gateway', intentId: intent.submissionId, status: 'FINALIZED', attention: '' });
		const intents = (await call('GET', `${env.sandbox.gatewayUrl}/sandbox/intents`)).intents;
		const mine = intents.filter((i: any) => JSON.stringify(i).includes(SCHEDULE[2].recipient.slice(2)));
		expect(mine).toHaveLength(1);
		expect(JSON.stringify(mine[0])).toContain('25000');
	});

	it('a disabled payout is not paid, and a second run in the same period pays nothing again', async () => {
		const quotesBefore = (await call('GET', orch('/sandbox/quotes'))).quotes.length;
		const again = await runToEnd(PAYOUTS);
		expect(lastOutput(again, 'Payouts due')).toHaveLength(3);
		expect(lastOutput(again, 'Not paid this period')).toHaveLength(0);
		expect(runsOf(again, 'Pay it in its own execution')).toHaveLength(0);
		await new Promise((r) => setTimeout(r, 3000));
		expect((await call('GET', orch('/sandbox/quotes'))).quotes.length).toBe(quotesBefore);
		expect((await ledger()).filter((r) => String(r.payoutId).startsWith('e2e-'))).toHaveLength(3);
	});
});

describe('example 1 follows a replaced deposit', () => {
	it('a Bitcoin deposit replaced (RBF) while the loop follows its order: the loop goes on with the order that replaced it, to completed', async () => {
		await sandbox.setSwitches({ autoAdvance: false });
		try {
			await tables.insert(PAYOUT_TABLES.schedule, [{ ...SCHEDULE[0], payoutKey: 'e2e-rbf', amount: '42' }]);
			const known = new Set((await executionsOf(env.n8n, apiKey, PAYOUTS)).map((e) => e.id));
			await runToEnd(PAYOUTS);
			const original = await until('the payout order', async () => (await call('GET', orch('/sandbox/quotes?idempotencyKey=e2e-rbf-once'))).quotes[0]?.orderId ?? undefined);
			// the loop read it at least once before the replacement
			await until('the loop to read the order', async () => {
				const reads = (await call('GET', orch('/sandbox/requests?path=/v1/orchestration/status'))).requests;
				return reads.some((r: any) => r.query?.id === original) || undefined;
			});
			const replaced = await call('POST', orch(`/sandbox/orders/${original}/replace`), { autoAdvance: false });
			const successor = String(replaced.successorOrderId);
			await ledgerRow((r) => r.payoutId === 'e2e-rbf-once', 'the ledger to follow the successor', (r) => r.orderId === successor);
			await call('POST', orch(`/sandbox/orders/${successor}/advance`), { status: 'completed' });
			const child = await until(
				'the payout execution to end',
				async () => (await endedRuns(PAYOUTS)).find((e) => !known.has(e.id) && e.mode === 'integrated'),
				120_000,
				1500,
			);
			expect({ status: child.status, error: errorOf(child) }).toEqual({ status: 'success', error: undefined });
			const followed = runsOf(child, 'Order to follow').map((r: any) => r[0].orderId);
			expect(followed[0]).toBe(original);
			expect(followed[followed.length - 1]).toBe(successor);
			expect(runsOf(child, 'Order status').some((r: any) => r[0].id === original && r[0].status === 'unfulfilled' && r[0].supersededByOperationId === successor)).toBe(true);
			const row = await ledgerRow((r) => r.payoutId === 'e2e-rbf-once', 'the payout final', (r) => r.final === true);
			expect(row).toMatchObject({ orderId: successor, status: 'completed', attention: '' });
			// one quote, one payment: the replacement carried the deposit, nothing was paid again
			expect((await call('GET', orch('/sandbox/quotes?idempotencyKey=e2e-rbf-once'))).quotes).toHaveLength(1);
		} finally {
			await sandbox.setSwitches({ autoAdvance: true });
		}
	});
});

describe('example 1 pays once per period', () => {
	it('a daily payout is paid for the day the run is for, not again that day, and again the next day', async () => {
		await tables.insert(PAYOUT_TABLES.schedule, [{ ...SCHEDULE[0], payoutKey: 'e2e-daily', every: 'day', amount: '5' }]);
		const paidFor = async (timestamp: string) => {
			const known = new Set((await executionsOf(env.n8n, apiKey, PAYOUTS)).map((e) => e.id));
			// as a workflow that catches up a day calls it: { planFor } through its Execute Workflow Trigger
			const id = await env.n8n.runManually(running.cookie, PAYOUTS, 'One payout', { planFor: timestamp });
			const run = await endedExecution(env.n8n, apiKey, id, 120_000);
			expect({ status: run.status, error: errorOf(run) }).toEqual({ status: 'success', error: undefined });
			const started = lastOutput(run, 'Not paid this period').map((p: any) => p.payoutId);
			await until('its payouts to end', async () => {
				const mine = (await endedRuns(PAYOUTS)).filter((e) => !known.has(e.id) && e.mode === 'integrated');
				return mine.length === started.length ? true : undefined;
			}, 120_000, 1500);
			return started;
		};
		expect(await paidFor('2026-12-03T09:00:00.000+00:00')).toEqual(['e2e-daily-2026-12-03']);
		expect(await paidFor('2026-12-03T17:00:00.000+00:00')).toEqual([]);
		expect(await paidFor('2026-12-04T09:00:00.000+00:00')).toEqual(['e2e-daily-2026-12-04']);
		for (const day of ['2026-12-03', '2026-12-04']) {
			expect(await ledgerRow((r) => r.payoutId === `e2e-daily-${day}`, `the payout of ${day}`, (r) => r.final === true)).toMatchObject({ status: 'completed', amountOut: '5' });
			expect((await call('GET', orch(`/sandbox/quotes?idempotencyKey=e2e-daily-${day}`))).quotes).toHaveLength(1);
		}
	});
});

describe('example 6: only a click on Approve pays', () => {
	/** Requests the sandbox's service endpoints received since `since` (its request log). */
	const requestsSince = async (since: string, query: string): Promise<any[]> => (await call('GET', orch(`/sandbox/requests?${query}`))).requests.filter((r: any) => r.at >= since);

	it.each([
		['nobody answers before the wait runs out (n8n passes the estimate on, without an answer)', NO_ANSWER, { status: 'approval_timed_out', attention: `Nobody approved invoice ${NO_ANSWER.invoice} in Slack before the wait ran out: nothing was paid. Run the workflow again if it is still due.`, note: 'No answer in Slack: nothing was paid.' }],
		['the person declines', DECLINED, { status: 'not_approved', attention: '', note: expect.stringMatching(/^Declined in Slack at \d{4}-\d{2}-\d{2}T[\d:.]+Z: nothing was paid\.$/) }],
	])('%s: no quote is taken, nothing is paid, and the ledger says so', async (_case, variant, expected) => {
		const since = new Date().toISOString();
		const quotesBefore = (await call('GET', orch('/sandbox/quotes'))).quotes.length;
		const run = await runToEnd(variant.id);
		// the run reached the question: the estimate went to the sandbox, whose log covers the run
		expect(await requestsSince(since, 'path=/v1/orchestration/estimate')).toHaveLength(1);
		for (const step of ['Create quote', 'Post deposit and QR in Slack', 'Person pays (sandbox stand-in)', 'Wait until final', 'Summary']) {
			expect({ step, runs: runsOf(run, step).length }).toEqual({ step, runs: 0 });
		}
		// "Approved?" sent the item to its false output only (items per output, per run)
		expect((run.data?.resultData?.runData?.['Approved?'] ?? []).map((r) => (r.data?.main ?? []).map((o) => o?.length ?? 0))).toEqual([[0, 1]]);
		expect(await requestsSince(since, 'path=/v1/orchestration/quote&method=POST')).toEqual([]);
		expect((await call('GET', orch('/sandbox/quotes'))).quotes.length).toBe(quotesBefore);
		expect((await ledger()).filter((r) => r.payoutId === variant.invoice)).toEqual([
			expect.objectContaining({ origin: 'approval', method: 'quote', final: true, amountIn: '250', source: 'base:USDC', destination: 'bitcoin:BTC', ...expected }),
		]);
	});
});

describe('example 1 accepts a ZeroConf offer only on a click on Accept', () => {
	it.each([
		['nobody answers before the offer expires', ZC_NO_ANSWER, /^ZeroConf offer not answered before it expired: declined at /],
		['the person declines', ZC_DECLINED, /^ZeroConf offer declined by a person at /],
	])('%s: the flow declines the offer, never accepts it, and the payout completes after the confirmation', async (_case, variant, note) => {
		const payoutId = `${variant.payoutKey}-once`;
		// one payout, as example 1's planning run hands it to its own execution (through "One payout")
		const id = await env.n8n.runManually(running.cookie, variant.id, 'One payout', { ...SCHEDULE[1], payoutKey: variant.payoutKey, payoutId, amountSats: '' });
		const run = await endedExecution(env.n8n, apiKey, id, 300_000);
		expect({ status: run.status, error: errorOf(run) }).toEqual({ status: 'success', error: undefined });
		expect(runsOf(run, 'Ask a person')).toHaveLength(1);
		expect(runsOf(run, 'Accept ZeroConf offer')).toHaveLength(0);
		expect(runsOf(run, 'Decline ZeroConf offer')).toHaveLength(1);
		const row = await ledgerRow((r) => r.payoutId === payoutId, `${payoutId} final`, (r) => r.final === true);
		expect(row).toMatchObject({ status: 'completed', attention: '' });
		expect(String(row.note)).toMatch(note);
		const o = await call('GET', orch(`/sandbox/orders/${String(row.orderId)}`));
		expect((o.order ?? o).zeroconfOffer.status).toBe('declined');
		const answers = (await call('GET', orch('/sandbox/requests?method=POST'))).requests.filter((r: any) => /^\/v1\/orchestration\/zeroconf\//.test(r.path) && r.body?.orderId === row.orderId);
		expect(answers.map((r: any) => r.path)).toEqual(['/v1/orchestration/zeroconf/decline']);
	});
});

describe('example 2: every state that needs a person reaches Slack', () => {
	/** The router's execution for this order and event, once it ended. */
	async function routed(orderId: string, event: string): Promise<Execution> {
		return await until(
			`the router's run for ${event} of ${orderId}`,
			async () =>
				(await endedRuns(ROUTER)).find((e) => {
					const item = lastOutput(e, 'Order events')[0] as any;
					return item?.event === event && item?.data?.id === orderId;
				}),
			120_000,
			1500,
		);
	}

	async function expectRouted(orderId: string, event: string, routeName: string, todo: RegExp): Promise<void> {
		const ex = await routed(orderId, event);
		expect({ event, status: ex.status, error: errorOf(ex) }).toEqual({ event, status: 'success', error: undefined });
		const ran = Object.keys(ex.data?.resultData?.runData ?? {}).filter((n) => n.startsWith('What to do: '));
		expect({ event, ran }).toEqual({ event, ran: [`What to do: ${routeName}`] });
		const [posted] = lastOutput(ex, 'Post to #payouts') as any[];
		expect(posted.slackChannel).toBe('#payouts');
		expect({ event, text: posted.slackText }).toEqual({ event, text: expect.stringMatching(todo) });
		expect(posted.slackText).toContain(`${env.sandbox.orchestrationUrl}${LINK_BASE}${orderId}`);
	}

	it('a ZeroConf offer (the payout of example 1)', async () => {
		const row = (await ledger()).find((r) => r.payoutId === 'e2e-zeroconf-once')!;
		await expectRouted(String(row.orderId), 'order.awaiting_approval', 'ZeroConf offer', /ZeroConf offer on order .*Accept or decline before /s);
	});

	it('an operator hold (awaiting_approval without an offer)', async () => {
		const { orderId } = await order({ outcome: 'awaiting_approval' });
		await expectRouted(orderId, 'order.awaiting_approval', 'Held or price to approve', /Held by the service for review: contact its support/);
	});

	it('a recovery decision (order.recovery_required, delivered to the recovery subscription)', async () => {
		const { orderId } = await order({ autoAdvance: false });
		await call('POST', orch(`/sandbox/orders/${orderId}/recovery-required`), { reviewStatus: 'blocked_wallet' });
		await expectRouted(orderId, 'order.recovery_required', 'Recovery decision', /release or refund decision is needed \(review: blocked_wallet\)/);
	});

	it('an unfulfilled deposit (not final: it can still resume)', async () => {
		const { orderId } = await order({ outcome: 'unfulfilled' });
		await expectRouted(orderId, 'order.unfulfilled', 'Deposit not confirmed', /can still resume after a late deposit, so do not pay again/);
		// example 3 keeps it open in the ledger: unfulfilled is not final
		const row = await ledgerRow((r) => r.orderId === orderId, 'the unfulfilled row', (r) => r.status === 'unfulfilled');
		expect(row).toMatchObject({ final: false, attention: expect.stringMatching(/^Deposit not confirmed/) });
	});

	it('a failed order', async () => {
		const { orderId } = await order({ outcome: 'failed' });
		await expectRouted(orderId, 'order.failed', 'Failed', /^\*:x: Order \S+ failed\*\nFailed.*nothing was delivered/s);
	});

	it('a refunded order', async () => {
		const { orderId } = await order({ outcome: 'refunded' });
		await expectRouted(orderId, 'order.refunded', 'Refunded', /Refunded to the refund address.*decide whether to pay again/s);
	});

	it('a replaced deposit (order.superseded, an RBF replacement of a Bitcoin deposit)', async () => {
		const btc = await call(
			'POST',
			orch('/v1/orchestration/quote'),
			{ ...route, amount: '100000', recipientAddress: SCHEDULE[0].recipient },
			asServer({ 'x-idempotency-key': randomUUID() }),
		);
		const paid = await call('POST', orch('/sandbox/deposits'), { depositAddress: btc.depositAddress, amount: btc.amountIn, autoAdvance: false });
		const replaced = await call('POST', orch(`/sandbox/orders/${paid.orderId}/replace`), { autoAdvance: false });
		await expectRouted(paid.orderId, 'order.superseded', 'Deposit replaced', new RegExp(`moved the deposit to order ${replaced.successorOrderId}.*Do not pay again`, 's'));
	});
});

describe('example 7: the daily reconciliation', () => {
	let paused: string;
	let expired: string;
	let unpaidQuote: string;
	let lostOrder: string;
	let heldDeposit: string;
	let report: string;
	let rows: Row[];

	beforeAll(async () => {
		// orders that send no webhook: their ledger rows (written by example 3 on order.processing) stay "processing"
		paused = (await order({ autoAdvance: false })).orderId;
		expired = (await order({ autoAdvance: false })).orderId;
		for (const id of [paused, expired]) await ledgerRow((r) => r.orderId === id, `the ledger row of ${id}`);
		await call('POST', orch(`/sandbox/orders/${paused}/report`), { status: 'paused' });
		await call('POST', orch(`/sandbox/orders/${expired}/report`), { status: 'expired' });
		// a quote the wallet never paid (as a Lightning invoice that timed out): its payout row says "quoted"
		unpaidQuote = (await quote()).quoteId;
		await tables.insert(PAYOUT_TABLES.ledger, [{ payoutId: 'e2e-unpaid-once', origin: 'schedule', method: 'quote', quoteId: unpaidQuote, status: 'quoted', final: false, attention: '' }]);
		// a standing address: one deposit converted (its order reaches the ledger by webhook), one held while paused
		const evm = await sb.standingAddress(STANDING_REF, SCHEDULE[0].recipient);
		const converted = await call('POST', orch('/sandbox/deposits'), { depositAddress: evm, amount: '2500000' });
		lostOrder = converted.orderId;
		// the event of this order reached the ledger, then the row was lost (as when n8n erased the execution)
		const lost = await ledgerRow((r) => r.orderId === lostOrder, 'the standing order in the ledger', (r) => r.final === true);
		await tables.delete(PAYOUT_TABLES.ledger, [lost.id]);
		await sb.pauseStandingAddress(STANDING_REF);
		heldDeposit = (await call('POST', orch('/sandbox/deposits'), { depositAddress: evm, amount: '1500000' })).deposit.id;
		// the quote expired (12 s at this time scale; unpaidQuoteHours is 0 here)
		const q = (await call('GET', orch('/sandbox/quotes'))).quotes.find((x: any) => x.quoteId === unpaidQuote);
		await until('the unpaid quote to expire', async () => Date.now() > Date.parse(q.quote.expiresAt) + 1000 || undefined, 60_000, 1000);

		const run = await runToEnd(RECONCILIATION);
		report = String((lastOutput(run, 'Report to #payouts')[0] as any).slackText);
		rows = await ledger();
	}, 300_000);

	it('reads every open row back: a paused order and an expired one (no webhook for either) are updated', () => {
		expect(rows.find((r) => r.orderId === paused)).toMatchObject({ status: 'paused', final: false, attention: expect.stringMatching(/^Paused by the service/) });
		expect(String(rows.find((r) => r.orderId === paused)!.note)).toMatch(/: processing -> paused \(the service sends no webhook for this\)$/);
		expect(rows.find((r) => r.orderId === expired)).toMatchObject({ status: 'expired', final: true, attention: expect.stringMatching(/^Expired without a deposit/) });
		expect(rows.find((r) => r.quoteId === unpaidQuote)).toMatchObject({ payoutId: 'e2e-unpaid-once', status: 'expired', final: true, attention: expect.stringMatching(/was never paid/) });
	});

	it('matches the standing deposits: the lost order is added back, the held deposit reported, nothing twice', () => {
		const lost = rows.filter((r) => r.orderId === lostOrder);
		expect(lost).toEqual([expect.objectContaining({ origin: 'reconciliation', status: 'completed', final: true, attention: expect.stringMatching(/was not in the ledger/) })]);
		const held = rows.filter((r) => r.depositId === heldDeposit);
		expect(held).toEqual([expect.objectContaining({ origin: 'reconciliation', orderId: '', final: false, amountIn: '1.5', attention: expect.stringMatching(/has no order \(standing_address_paused\): nothing matches it/) })]);
	});

	it('reports everything that needs a person in one Slack message, with links', () => {
		expect(report).toMatch(/^:mag: Reconciliation \d{4}-\d{2}-\d{2}: \d+ items need a person\n/);
		for (const id of [paused, expired, lostOrder]) expect(report).toContain(`${env.sandbox.orchestrationUrl}${LINK_BASE}${id}`);
		expect(report).toContain('*e2e-unpaid-once* (expired)');
		expect(report).toContain(`*deposit ${heldDeposit}* (deposit held)`);
		// an approval nobody answered needs a person; a decline does not
		expect(report).toContain(`*${NO_ANSWER.invoice}* (approval_timed_out)`);
		expect(report).not.toContain(DECLINED.invoice);
		// only rows that need a person: the completed payouts of example 1 are not in it
		expect(report).not.toContain('e2e-quote-once');
	});

	it('never writes back a row another flow wrote after it read it (a payout quoted while the reconciliation ran)', async () => {
		// a payout in flight (example 1 wrote "started"), and an open order whose status read the sandbox holds 8 s
		const held = (await order({ autoAdvance: false })).orderId;
		const heldBefore = await ledgerRow((r) => r.orderId === held, 'the ledger row of the held order');
		const [inFlight] = await tables.insert(PAYOUT_TABLES.ledger, [
			{ payoutId: 'e2e-inflight-once', origin: 'schedule', method: 'quote', status: 'started', final: false, attention: '', amountOut: '12.5', checkedAt: new Date().toISOString() },
		]);
		const slow = await call('POST', orch('/sandbox/faults'), { method: 'GET', path: '/v1/orchestration/status', mode: 'latency', latencyMs: 8000 });
		const id = await env.n8n.runManually(running.cookie, RECONCILIATION, 'Run now');
		// the reconciliation read the rows and waits for the service: the payout flow writes its quote now
		await until('the reconciliation to wait for a status read', async () => !(await call('GET', orch('/sandbox/faults'))).faults.some((f: any) => f.id === slow.id) || undefined, 60_000, 200);
		await tables.update(PAYOUT_TABLES.ledger, inFlight.id, { quoteId: 'q_e2e_inflight', status: 'quoted', amountIn: '0.000125', checkedAt: new Date().toISOString() });
		const run = await endedExecution(env.n8n, apiKey, id, 300_000);
		expect({ status: run.status, error: errorOf(run) }).toEqual({ status: 'success', error: undefined });
		const after = (await ledger()).find((r) => r.id === inFlight.id);
		expect(after).toMatchObject({ quoteId: 'q_e2e_inflight', status: 'quoted', amountIn: '0.000125', attention: '' });
		// a row nothing else wrote meanwhile is updated as before
		const heldAfter = (await ledger()).find((r) => r.orderId === held)!;
		expect(heldAfter).toMatchObject({ status: 'processing', final: false });
		expect(heldAfter.checkedAt).not.toBe(heldBefore.checkedAt);
		await tables.delete(PAYOUT_TABLES.ledger, [inFlight.id]);
	});

	it('a second run adds nothing and changes no final row', async () => {
		const before = await ledger();
		await runToEnd(RECONCILIATION);
		const after = await ledger();
		expect(after.map((r) => r.id).sort()).toEqual(before.map((r) => r.id).sort());
		for (const r of before.filter((x) => x.final === true)) expect(after.find((a) => a.id === r.id)).toMatchObject({ status: r.status, final: true });
		// a deposit without an order stays as the reconciliation wrote it, still reported
		expect(after.find((a) => a.depositId === heldDeposit)).toMatchObject({ status: 'deposit held', attention: expect.stringMatching(/has no order/) });
	});
});

describe('secrets', () => {
	it('no key, private key or webhook secret appears in any execution of the examples or in n8n\'s logs', async () => {
		const { server, client, gatewayPrivateKey } = pickSandboxKeys(env.sandbox);
		const secrets: Record<string, string> = { 'server key': server.key, 'client key': client.key, 'gateway private key': gatewayPrivateKey };
		for (const [id, secret] of sandbox.allWebhookSecrets()) secrets[`webhook secret of ${id}`] = secret;
		sandbox.accessTokens().forEach((t, i) => (secrets[`gateway access token ${i}`] = t));
		expect(Object.keys(secrets).filter((k) => k.startsWith('webhook secret'))).toHaveLength(3);
		const haystacks: Record<string, string> = {};
		for (const id of [PAYOUTS, ROUTER, LEDGER_FLOW, RECONCILIATION]) haystacks[id] = JSON.stringify(await endedRuns(id));
		for (const file of fs.readdirSync(env.userFolder).filter((f) => f.endsWith('.log'))) haystacks[file] = fs.readFileSync(path.join(env.userFolder, file), 'utf8');
		expect(haystacks[ROUTER].length).toBeGreaterThan(10_000);
		const hits = Object.entries(secrets).flatMap(([name, secret]) => Object.entries(haystacks).filter(([, text]) => text.includes(secret)).map(([where]) => `${name} in ${where}`));
		expect(hits).toEqual([]);
	});
});
