/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers and Data Table rows are arbitrary JSON asserted field by field */
/**
 * Issue 42 in the shipped examples, in a real n8n 2.41.1 against the sandbox (Slack steps as
 * stand-ins, test/e2e/slackStandIns.ts): example 7 offers a held standing-address batch to a person
 * and refunds it only on a click on Refund; a deposits read that fails is named in the report, which
 * still goes out; example 3 writes a pay link's ID and label into the ledger and books the fee
 * invoices Partner > Get Fee Invoices reads.
 */
import type { DataTables, Row } from '../../scripts/lib/dataTables';
import { PAYOUT_TABLES } from '../../scripts/lib/examples';
import { endedExecution, errorOf, executionOf, executionsOf, lastOutput, runsOf, type Execution } from '../../scripts/lib/executions';
import { closeEnv, createEnv, type E2eEnv } from './env';
import { LEDGER_FLOW, RECONCILIATION, SandboxCalls, startWithExamples, type Running, type Variant } from './examplesInN8n';
import { until } from './sandbox-client';
import { CREDS, T, linearWorkflow } from './workflows';

const HELD_REF = 'e2e-held-refund';
const NO_ANSWER_REF = 'e2e-held-noanswer';
const MISSING_REF = 'customer-42';
const SENDER = '0x5555555555555555555555555555555555555555';
const RECIPIENT = '0x1111111111111111111111111111111111111111';
const LABEL = 'E2E invoice 1042';
const PAY_LINK_FLOW = 'e2ePayLink';

/** Example 7 as imported twice more: nobody answers the refund question, and it reconciles a reference the account does not have. */
const NO_ANSWER = 'exDailyReconciliationNoAnswer';
const MISSING = 'exDailyReconciliationMissing';
const VARIANTS: Variant[] = [
	{ of: RECONCILIATION, id: NO_ANSWER, approval: 'timeout', values: { node: 'Settings', set: { standingReferences: `={{ ['${NO_ANSWER_REF}'] }}` } } },
	{ of: RECONCILIATION, id: MISSING, approval: 'approve', values: { node: 'Settings', set: { standingReferences: `={{ ['${MISSING_REF}'] }}` } } },
];

let env: E2eEnv;
let running: Running;
let sb: SandboxCalls;
let apiKey: string;
let tables: DataTables;

const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => await sb.call(method, url, body, headers);
const orch = (p: string) => sb.url(p);

async function ledger(): Promise<Row[]> {
	return await tables.rows(PAYOUT_TABLES.ledger);
}

async function runToEnd(workflowId: string, trigger = 'Run now'): Promise<Execution> {
	const id = await env.n8n.runManually(running.cookie, workflowId, trigger);
	const ex = await endedExecution(env.n8n, apiKey, id, 300_000);
	if (ex.status !== 'success') throw new Error(`${workflowId} ended ${ex.status}: ${errorOf(ex)}`);
	return ex;
}

/** The executions a run of the reconciliation started for its held batches (each in its own execution), once ended. */
async function batchExecutions(workflowId: string, parent: Execution, count: number): Promise<Execution[]> {
	return await until(`${count} held-batch execution(s) of ${workflowId} to end`, async () => {
		const list = (await executionsOf(env.n8n, apiKey, workflowId)).filter((e) => e.id !== parent.id && Date.parse(e.startedAt) >= Date.parse(parent.startedAt));
		if (list.length < count || list.some((e) => !['success', 'error', 'crashed', 'canceled'].includes(e.status))) return undefined;
		return await Promise.all(list.map(async (e) => await executionOf(env.n8n, apiKey, e.id)));
	}, 120_000, 1000);
}

async function deposits(reference: string): Promise<any[]> {
	return (await call('GET', `/v1/standing-deposit-addresses/${reference}/deposits`, undefined, sb.asServer())).deposits;
}

/** A standing address paused, then paid: its deposit is held in a batch. */
async function heldDeposit(reference: string): Promise<{ id: string; batchId: string }> {
	const evm = await sb.standingAddress(reference, RECIPIENT);
	await sb.pauseStandingAddress(reference);
	const paid = await call('POST', orch('/sandbox/deposits'), { depositAddress: evm, amount: '1500000', senderAddress: SENDER });
	const [held] = (await deposits(reference)).filter((d) => d.id === paid.deposit.id);
	// precondition: the service holds it (no order), in a batch that can be refunded
	expect(held).toMatchObject({ status: 'held', batchState: 'held', orderId: null, senderAddress: SENDER, batchId: expect.any(String) });
	return { id: held.id, batchId: held.batchId };
}

/** Every request to the standing address's refund paths (`/refund`, `/resolve`) the sandbox received. */
async function refundRequests(reference: string): Promise<any[]> {
	const { requests } = await call('GET', orch('/sandbox/requests?method=POST'));
	return requests.filter((r: any) => r.path.startsWith(`/v1/standing-deposit-addresses/${reference}/`) && /\/(refund|resolve)$/.test(r.path));
}

beforeAll(async () => {
	env = await createEnv({ timeScale: 10 });
	sb = new SandboxCalls(env);
	await env.n8n.importWorkflows([
		linearWorkflow(PAY_LINK_FLOW, 'E2E pay link', [
			{ name: 'Run now', type: T.manual },
			{
				name: 'Create pay link',
				type: T.orchestration,
				typeVersion: 3,
				parameters: { authentication: 'serverKey', resource: 'payLink', operation: 'create', destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: RECIPIENT, amountIn: 'usd', amount: '25.00', label: LABEL, options: {} },
				credentials: CREDS.server,
			},
		]),
	]);
	running = await startWithExamples(env, { schedule: [], standingReference: HELD_REF, variants: VARIANTS });
	({ apiKey, tables } = running);
	// a refunded batch stays refund_requested while the test looks (its next step is far off)
	await running.sandbox.setSwitches({ orderStepMs: 3_600_000 });
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
});

describe('example 7: a held deposit is refunded only on a click on Refund', () => {
	it('the person clicks Refund: Refund Held Deposits of the batch to its sender, the sandbox shows refund_requested, the ledger row says so', async () => {
		const held = await heldDeposit(HELD_REF);
		expect(await refundRequests(HELD_REF)).toEqual([]);
		const parent = await runToEnd(RECONCILIATION);
		const report = String((lastOutput(parent, 'Report to #payouts')[0] as any).slackText);
		expect(report).toContain(`*deposit ${held.id}* (deposit held)`);
		expect(report).toContain(`Held while the address was paused (batch ${held.batchId})`);
		const [batch] = await batchExecutions(RECONCILIATION, parent, 1);
		expect({ status: batch.status, error: errorOf(batch) }).toEqual({ status: 'success', error: undefined });
		// the person was asked about this batch, with where it goes back to
		const [asked] = lastOutput(batch, 'Ask about held deposits') as any[];
		expect(asked.data).toMatchObject({ approved: true });
		expect(asked.slackChannel).toBe('#payouts');
		expect(String(asked.slackMessage)).toContain(`Deposits *held* on the paused standing address *${HELD_REF}*, batch ${held.batchId}: 1.5 USDC (base, tx `);
		expect(String(asked.slackMessage)).toContain(`Send them back to ${SENDER} (base)?`);
		expect(lastOutput(batch, 'One held batch')).toEqual([expect.objectContaining({ reference: HELD_REF, batchId: held.batchId, depositIds: [held.id], refundAddress: SENDER, chain: 'base' })]);
		expect(lastOutput(batch, 'Left held')).toEqual([]);
		// one refund request reached the service, with the batch and the refund address
		const sent = await refundRequests(HELD_REF);
		expect(sent.map((r) => ({ path: r.path, body: r.body, status: r.status }))).toEqual([
			{ path: `/v1/standing-deposit-addresses/${HELD_REF}/refund`, body: { batchId: held.batchId, refundAddress: SENDER }, status: 200 },
		]);
		expect(sent[0].idempotencyKey).toEqual(expect.any(String));
		expect((await deposits(HELD_REF)).find((d) => d.id === held.id)).toMatchObject({ status: 'refund_requested', batchState: 'refund_requested' });
		expect((await ledger()).filter((r) => r.depositId === held.id)).toEqual([
			expect.objectContaining({ status: 'deposit refund_requested', final: false, attention: expect.stringMatching(new RegExp(`^Refund of batch ${held.batchId} to ${SENDER} requested from Slack \\d{4}-\\d{2}-\\d{2} \\(refund_requested\\)`)) }),
		]);
		// the next run asks nothing more: nothing of the batch is held now
		const next = await runToEnd(RECONCILIATION);
		expect(lastOutput(next, 'Held batches')).toEqual([{ batches: [] }]);
		expect(await refundRequests(HELD_REF)).toHaveLength(1);
	}, 400_000);

	it('nobody answers before the wait runs out: no refund request reaches the sandbox, the deposit stays held', async () => {
		const held = await heldDeposit(NO_ANSWER_REF);
		const parent = await runToEnd(NO_ANSWER);
		const [batch] = await batchExecutions(NO_ANSWER, parent, 1);
		expect({ status: batch.status, error: errorOf(batch) }).toEqual({ status: 'success', error: undefined });
		// precondition: the question was asked about this batch, and its wait ran out (the step handed on its input unchanged)
		const [after] = lastOutput(batch, 'Ask about held deposits') as any[];
		expect(after).toMatchObject({ reference: NO_ANSWER_REF, batchId: held.batchId, refundAddress: SENDER });
		expect(after.data).toBeUndefined();
		expect(runsOf(batch, 'Refund Held Deposits')).toEqual([]);
		expect(lastOutput(batch, 'Left held')).toHaveLength(1);
		expect(await refundRequests(NO_ANSWER_REF)).toEqual([]);
		expect((await deposits(NO_ANSWER_REF)).find((d) => d.id === held.id)).toMatchObject({ status: 'held', batchState: 'held' });
		expect((await ledger()).find((r) => r.depositId === held.id)).toMatchObject({ status: 'deposit held', attention: expect.stringMatching(/has no order \(standing_address_paused\)/) });
	}, 400_000);
});

describe('example 7: a read that fails is in the report', () => {
	it(`the deposits of ${MISSING_REF} cannot be read (not_found): the run ends green and the report names the read and its error`, async () => {
		// precondition: the account has no standing address of this reference
		await expect(call('GET', `/v1/standing-deposit-addresses/${MISSING_REF}/deposits`, undefined, sb.asServer())).rejects.toThrow(/: 404 .*not_found/);
		const run = await runToEnd(MISSING);
		const [failed] = lastOutput(run, 'Deposits') as any[];
		expect(failed).toMatchObject({ errorCode: 'not_found', error: expect.any(String) });
		expect(lastOutput(run, 'Read failed')).toEqual([{ failure: `could not read standing address ${MISSING_REF}: ${failed.error}` }]);
		const report = String((lastOutput(run, 'Report to #payouts')[0] as any).slackText);
		expect(report).toMatch(/^:mag: Reconciliation \d{4}-\d{2}-\d{2}: .* a person, 1 read failed\n/);
		expect(report).toContain(`• :warning: could not read standing address ${MISSING_REF}: ${failed.error}`);
		// nothing was added for it, and no held batch was offered
		expect(lastOutput(run, 'Add to the ledger')).toEqual([]);
		expect(lastOutput(run, 'Held batches')).toEqual([{ batches: [] }]);
	}, 400_000);
});

describe('example 3: pay links and fee invoices in the ledger', () => {
	it('a pay link created by Pay Link > Create, paid in the sandbox: its order is in the ledger with the link and its label', async () => {
		const created = await runToEnd(PAY_LINK_FLOW);
		const [link] = lastOutput(created, 'Create pay link') as any[];
		expect(link).toMatchObject({ shortId: expect.stringMatching(/^[A-Za-z0-9]{10}$/), shortUrl: expect.stringContaining(`/p/${link.shortId}`), label: LABEL });
		const paid = await call('POST', orch(`/sandbox/pay-links/${link.shortId}/pay`), { sourceChain: 'ethereum', sourceAsset: 'USDC', autoAdvance: false });
		// precondition: the order carries the link
		const status = await call('GET', `/v1/orchestration/status?id=${paid.orderId}`, undefined, sb.asServer());
		const order = status.order ?? status;
		expect(order).toMatchObject({ payLinkId: link.shortId, payLinkLabel: LABEL });
		const row = await until('the pay link order in the ledger', async () => (await ledger()).find((r) => r.orderId === paid.orderId), 120_000, 1000);
		expect(row).toMatchObject({ payLinkId: link.shortId, payLinkLabel: LABEL, quoteId: paid.quoteId, origin: 'order', status: 'processing' });
		// an order without a link has empty ones
		const plain = await sb.order({ autoAdvance: false });
		const plainRow = await until('a plain order in the ledger', async () => (await ledger()).find((r) => r.orderId === plain.orderId), 120_000, 1000);
		expect(plainRow).toMatchObject({ payLinkId: '', payLinkLabel: '' });
	}, 400_000);

	it('fee invoices read by Partner > Get Fee Invoices (every page) are booked once each; an overdue one needs a person', async () => {
		const overdue = await call('POST', orch('/sandbox/fee-invoices'), { amount: '1500000', periodStart: '2026-08-01T00:00:00Z', status: 'overdue' });
		const paidInvoice = await call('POST', orch('/sandbox/fee-invoices'), { amount: '2750000', periodStart: '2026-09-01T00:00:00Z', status: 'paid' });
		// precondition: the service lists both
		const listed = await call('GET', '/v1/partner/dashboard/fee-invoices?limit=100', undefined, sb.asServer());
		expect(listed.invoices.map((i: any) => i.id)).toEqual(expect.arrayContaining([overdue.id, paidInvoice.id]));
		const run = await runToEnd(LEDGER_FLOW, 'Book fee invoices now');
		expect((lastOutput(run, 'Fee invoices') as any[]).map((i) => i.id).sort()).toEqual(listed.invoices.map((i: any) => i.id).sort());
		const rows = async (id: string) => (await ledger()).filter((r) => r.payoutId === `fee-invoice-${id}`);
		expect(await rows(overdue.id)).toEqual([
			expect.objectContaining({ origin: 'fee invoice', status: 'invoice overdue', final: true, fee: '1.5', feeAsset: 'USDC', attention: expect.stringMatching(/^Fee invoice .* for 2026-08 is overdue since .*: 1\.5 USDC to pay\.$/), note: expect.stringMatching(/^Platform fees 2026-08/) }),
		]);
		expect(await rows(paidInvoice.id)).toEqual([expect.objectContaining({ status: 'invoice paid', fee: '2.75', attention: '' })]);
		// booked again the next day: still one row each
		await runToEnd(LEDGER_FLOW, 'Book fee invoices now');
		expect(await rows(overdue.id)).toHaveLength(1);
		expect(await rows(paidInvoice.id)).toHaveLength(1);
	}, 400_000);
});
