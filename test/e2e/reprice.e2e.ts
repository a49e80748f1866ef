/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers, executions and Data Table rows are arbitrary JSON asserted field by field */
/**
 * Example 1 asks a person about a price re-approval, in a real n8n 2.41.1 against the sandbox: a
 * payout's order is stopped in `awaiting_approval` with `reprice` (POST /sandbox/orders/{id}/reprice)
 * while the payout's own execution follows it; the Slack steps answer as a person does
 * (test/e2e/slackStandIns.ts): Approve (the order completes), Reject (a Bitcoin source: asked next
 * whether to refund, Reject again; the order fails) or nothing before the wait limit (no answer
 * reaches the service; the order still waits).
 */
import { PAYOUT_TABLES, forSandbox, loadExamples, setUpPayoutTables, withSettings, withWalletStandIns } from '../../scripts/lib/examples';
import type { DataTables, Row } from '../../scripts/lib/dataTables';
import { endedExecution, errorOf, lastOutput, runsOf, type Execution } from '../../scripts/lib/executions';
import { CUSTOM_PREFIX, withNodePrefix } from '../../scripts/lib/n8n-instance';
import { OWNER, closeEnv, createEnv, type E2eEnv } from './env';
import { PAYOUTS, ROUTE, SandboxCalls } from './examplesInN8n';
import { SandboxClient, until } from './sandbox-client';
import { type ApprovalAnswer, withSlackStandIns } from './slackStandIns';

const ANSWERS: ApprovalAnswer[] = ['approve', 'decline', 'timeout'];
const variantId = (answer: ApprovalAnswer) => `exRecurringPayoutReprice_${answer}`;
const payoutOf = (answer: ApprovalAnswer) => ({
	payoutKey: `e2e-reprice-${answer}`,
	payoutId: `e2e-reprice-${answer}-once`,
	enabled: true,
	every: 'once',
	method: 'quote',
	amount: '90',
	...ROUTE,
	recipient: '0x5555555555555555555555555555555555555555',
	zeroconf: false,
	note: '',
	amountSats: '',
});

let env: E2eEnv;
let sb: SandboxCalls;
let sandbox: SandboxClient;
let cookie: string;
let apiKey: string;
let tables: DataTables;

async function ledgerRow(payoutId: string, what: string, ok: (r: Row) => boolean): Promise<Row> {
	return await until(what, async () => (await tables.rows(PAYOUT_TABLES.ledger)).find((r) => r.payoutId === payoutId && ok(r)), 180_000, 500);
}

async function repriceRequests(orderId: string): Promise<string[]> {
	const { requests } = await sb.call('GET', '/sandbox/requests?method=POST');
	return requests.filter((r: any) => /^\/v1\/orchestration\/reprice\//.test(r.path) && r.body?.orderId === orderId).map((r: any) => r.path);
}

/** Runs one payout of example 1 (as answered by `answer`); stops its order for a re-approval while the loop follows it. */
async function payWithReprice(answer: ApprovalAnswer): Promise<{ run: Execution; orderId: string; repriced: any }> {
	const payout = payoutOf(answer);
	// the order stays where it is until the test moves it
	await sandbox.setSwitches({ orderStepMs: 600_000 });
	const id = await env.n8n.runManually(cookie, variantId(answer), 'One payout', payout);
	const row = await ledgerRow(payout.payoutId, `${payout.payoutId} followed`, (r) => typeof r.orderId === 'string' && r.orderId !== '');
	const orderId = String(row.orderId);
	const before = await sb.call('GET', `/sandbox/orders/${orderId}`);
	if (!['processing', 'swapping'].includes(String((before.order ?? before).status))) await sb.call('POST', `/sandbox/orders/${orderId}/advance`, { status: 'processing' });
	const repriced = await sb.call('POST', `/sandbox/orders/${orderId}/reprice`, {});
	await sandbox.setSwitches({ orderStepMs: 1500 });
	const run = await endedExecution(env.n8n, apiKey, id, 300_000);
	expect({ status: run.status, error: errorOf(run) }).toEqual({ status: 'success', error: undefined });
	return { run, orderId, repriced: repriced.order ?? repriced };
}

/** The order as the flow read it just before it asked: in awaiting_approval with a pending re-approval. */
function expectAskedAboutReprice(run: Execution, orderId: string): any {
	const reads = runsOf(run, 'Order status').map((out) => out[0] as any);
	const asked = reads.filter((o) => o.status === 'awaiting_approval' && o.reprice?.status === 'awaiting_approval');
	expect(asked.map((o) => o.id)).toEqual([orderId]);
	expect(runsOf(run, 'Ask a person: re-approval')).toHaveLength(1);
	expect(runsOf(run, 'Ask a person')).toHaveLength(0); // not the ZeroConf question
	return asked[0];
}

beforeAll(async () => {
	env = await createEnv({ timeScale: 10 });
	sb = new SandboxCalls(env);
	const example = loadExamples().find((e) => e.workflow.id === PAYOUTS)!.workflow;
	const tablesWorkflow = loadExamples().find((e) => e.workflow.id === 'exPayoutTables')!.workflow;
	const prepare = (wf: any) => forSandbox(withNodePrefix(wf, CUSTOM_PREFIX), env.sandbox);
	const variants = ANSWERS.map((answer) =>
		prepare(
			withSettings(withWalletStandIns(withSlackStandIns({ ...example, id: variantId(answer), name: `${example.name} (${answer})` } as never, answer), env.sandbox) as any, {
				depositCheckSeconds: 1,
				orderCheckSeconds: 2,
				intentCheckSeconds: 1,
				quoteGraceSeconds: 30,
				maxOrderChecks: 200,
			}),
		),
	);
	await env.n8n.importWorkflows([prepare(tablesWorkflow), ...variants]);
	await env.n8n.start();
	cookie = await env.n8n.setupOwner(OWNER);
	apiKey = await env.n8n.createApiKey(cookie);
	const { payoutId: _id, amountSats: _sats, ...scheduleRow } = payoutOf('approve');
	tables = await setUpPayoutTables(env.n8n, cookie, apiKey, [{ ...scheduleRow, enabled: false }]);
	sandbox = new SandboxClient(env.sandbox);
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
});

describe('example 1 asks a person about a price re-approval', () => {
	it('approved by the person: Order > Approve Reprice with the proposed minimum, the order completes, the ledger notes it', async () => {
		const { run, orderId, repriced } = await payWithReprice('approve');
		expect(repriced).toMatchObject({ id: orderId, status: 'awaiting_approval', reprice: { status: 'awaiting_approval' } });
		const read = expectAskedAboutReprice(run, orderId);
		const [asked] = lastOutput(run, 'Ask a person: re-approval') as any[];
		// the figures in the destination asset, and the order link
		for (const f of ['proposedMinAmountOut', 'previousLockedMinAmountOut', 'latestExpectedAmountOut']) {
			expect(asked.slackMessage).toContain(`${String(read.reprice[`${f}Formatted`])} USDC`);
		}
		expect(asked.slackMessage).toContain(`/sandbox/orders/${orderId}`);
		expect(runsOf(run, 'Approve Reprice')).toHaveLength(1);
		expect(runsOf(run, 'Reject Reprice')).toHaveLength(0);
		expect(runsOf(run, 'Refund Reprice')).toHaveLength(0);
		expect(await repriceRequests(orderId)).toEqual(['/v1/orchestration/reprice/approve']);
		const row = await ledgerRow(payoutOf('approve').payoutId, 'the re-approved payout final', (r) => r.final === true);
		expect(row).toMatchObject({ orderId, status: 'completed' });
		expect(String(row.note)).toMatch(/^Price re-approval approved by a person \(the proposed minimum\) at /);
		const o = await sb.call('GET', `/sandbox/orders/${orderId}`);
		expect((o.order ?? o).reprice).toMatchObject({ status: 'approved', approvedMinAmountOut: read.reprice.proposedMinAmountOut });
	});

	it('rejected by the person (a Bitcoin source: asked next, Reject again): Order > Reject Reprice, the order fails, the ledger notes it', async () => {
		const { run, orderId, repriced } = await payWithReprice('decline');
		expect(repriced).toMatchObject({ id: orderId, status: 'awaiting_approval', reprice: { status: 'awaiting_approval' } });
		const read = expectAskedAboutReprice(run, orderId);
		expect(read.sourceChain).toBe('bitcoin');
		expect(runsOf(run, 'Ask a person: refund or reject')).toHaveLength(1);
		expect(runsOf(run, 'Reject Reprice')).toHaveLength(1);
		expect(runsOf(run, 'Approve Reprice')).toHaveLength(0);
		expect(runsOf(run, 'Refund Reprice')).toHaveLength(0);
		expect(await repriceRequests(orderId)).toEqual(['/v1/orchestration/reprice/reject']);
		const row = await ledgerRow(payoutOf('decline').payoutId, 'the rejected payout final', (r) => r.final === true);
		expect(row).toMatchObject({ orderId, status: 'failed' });
		expect(String(row.note)).toMatch(/^Price re-approval rejected by a person at /);
	});

	it('not answered before the wait limit: no answer reaches the service, the order still waits, the ledger leaves it to the reconciliation', async () => {
		const { run, orderId, repriced } = await payWithReprice('timeout');
		expect(repriced).toMatchObject({ id: orderId, status: 'awaiting_approval', reprice: { status: 'awaiting_approval' } });
		expectAskedAboutReprice(run, orderId);
		// n8n hands on the input item unchanged: the order as read, no answer in it
		const [handedOn] = lastOutput(run, 'Ask a person: re-approval') as any[];
		expect(handedOn).toMatchObject({ id: orderId, status: 'awaiting_approval' });
		expect(handedOn.data).toBeUndefined();
		for (const name of ['Ask a person: refund or reject', 'Approve Reprice', 'Reject Reprice', 'Refund Reprice']) expect({ name, runs: runsOf(run, name).length }).toEqual({ name, runs: 0 });
		expect(runsOf(run, 'Ledger: re-approval not answered')).toHaveLength(1);
		// the sandbox logged the flow's status reads of this order, and no answer to its re-approval
		const { requests, dropped } = await sb.call('GET', '/sandbox/requests');
		expect(dropped).toBe(0);
		const reads = requests.filter((r: any) => r.method === 'GET' && r.path === '/v1/orchestration/status' && Object.values(r.query ?? {}).includes(orderId));
		expect(reads.length).toBeGreaterThan(0);
		// it asked after the re-approval was read, and nothing of this order was posted since
		const lastRead = Math.max(...reads.map((r: any) => r.seq));
		expect(requests.filter((r: any) => r.seq > lastRead && r.method === 'POST' && JSON.stringify(r.body ?? {}).includes(orderId))).toEqual([]);
		expect(await repriceRequests(orderId)).toEqual([]);
		const o = await sb.call('GET', `/sandbox/orders/${orderId}`);
		expect((o.order ?? o)).toMatchObject({ status: 'awaiting_approval', reprice: { status: 'awaiting_approval' } });
		const [row] = (await tables.rows(PAYOUT_TABLES.ledger)).filter((r) => r.payoutId === payoutOf('timeout').payoutId);
		expect(row).toMatchObject({ orderId, status: 'awaiting_approval' });
		expect(row.final).not.toBe(true);
		expect(String(row.note)).toMatch(/^Price re-approval not answered: nothing was sent to the service/);
		expect(String(row.attention)).toMatch(/^The price moved and the order waits for approval of a new minimum output: [\d.]+ USDC proposed, [\d.]+ USDC locked before\. Approve or reject it, or refund the deposit \(Order > Approve \/ Reject \/ Refund Reprice/);
	});
});
