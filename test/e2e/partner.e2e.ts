/**
 * Issues 26, 21 (recovery subscription), 22 and 31 in a real n8n 2.41.1: a standing deposit address
 * created twice with the same reference returns one instruction and a changed body is refused; an
 * affiliate created, claimed and listed; a claim followed until it is paid; a payment to a standing
 * address listed by Get Deposits while its order reaches the trigger by webhook; a recovery event
 * that starts the trigger's workflow; the workflow deactivated with Keep Endpoint Registered off and
 * its endpoint and recovery subscription gone at the sandbox.
 */
import { OWNER, closeEnv, createEnv, executeWorkflow, type E2eEnv } from './env';
import { SandboxClient, until } from './sandbox-client';
import { CREDS, T, linearWorkflow, postJson, type WfNode } from './workflows';

const TRIGGER = 'e2ePartnerTrigger';
const TRIGGER_WEBHOOK_ID = 'e2e-partner-events';
const EVM = '0x1111111111111111111111111111111111111111';

let env: E2eEnv;
let sandbox: SandboxClient;
let apiKey: string;

const orch = (name: string, parameters: Record<string, unknown>): WfNode => ({
	name,
	type: T.orchestration,
	typeVersion: 2,
	parameters: { authentication: 'serverKey', ...parameters },
	credentials: CREDS.server,
});

const standing = (name: string, options: Record<string, unknown> = {}) =>
	orch(name, {
		resource: 'standingAddress',
		operation: 'createOrGet',
		reference: 'e2e customer-1',
		destinationChain: 'base',
		destinationAsset: 'USDC',
		destinationAddress: EVM,
		options,
	});

function workflows(orchestrationUrl: string) {
	return [
		linearWorkflow('e2eStandingTwice', 'E2E standing address twice', [
			{ name: 'Start', type: T.manual },
			standing('First', { feeBps: 15 }),
			standing('Second', { feeBps: 15 }),
			orch('Read', { resource: 'standingAddress', operation: 'get', reference: 'e2e customer-1' }),
		]),
		linearWorkflow('e2eStandingChanged', 'E2E standing address changed', [{ name: 'Start', type: T.manual }, standing('Changed', { feeBps: 40 })]),
		linearWorkflow('e2eAffiliate', 'E2E affiliate claim', [
			{ name: 'Start', type: T.manual },
			orch('Create affiliate', { resource: 'affiliate', operation: 'upsert', affiliateId: 'aff_e2e', feeBps: 30, payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: EVM }),
			postJson('Accrue', `${orchestrationUrl}/sandbox/affiliates/aff_e2e/accrue`, '={{ JSON.stringify({ amount: "3250000" }) }}'),
			orch('Claim', { resource: 'affiliate', operation: 'claim', affiliateId: 'aff_e2e' }),
			orch('Claims', { resource: 'affiliate', operation: 'getClaims', affiliateId: 'aff_e2e', returnAll: true }),
			orch('Affiliates', { resource: 'affiliate', operation: 'getAll', returnAll: true }),
		]),
		linearWorkflow('e2eClaimPaid', 'E2E claim followed until paid', [
			{ name: 'Start', type: T.manual },
			orch('Create affiliate', { resource: 'affiliate', operation: 'upsert', affiliateId: 'aff_e2e_paid', feeBps: 40, payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: EVM }),
			postJson('Accrue', `${orchestrationUrl}/sandbox/affiliates/aff_e2e_paid/accrue`, '={{ JSON.stringify({ amount: "1750000" }) }}'),
			orch('Claim', { resource: 'affiliate', operation: 'claim', affiliateId: 'aff_e2e_paid', waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 60 }),
			orch('Read back', { resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_e2e_paid', claimId: '={{ $json.id }}' }),
		]),
		linearWorkflow('e2eStandingDeposits', 'E2E standing address deposits', [
			{ name: 'Start', type: T.manual },
			orch('Standing address', { resource: 'standingAddress', operation: 'createOrGet', reference: 'e2e deposits-1', destinationChain: 'base', destinationAsset: 'USDC', destinationAddress: EVM, options: {} }),
			postJson('Pay', `${orchestrationUrl}/sandbox/deposits`, '={{ JSON.stringify({ depositAddress: $json.addresses.evm, amount: "2500000" }) }}'),
			orch('Deposits', { resource: 'standingAddress', operation: 'getDeposits', reference: 'e2e deposits-1', returnAll: true }),
		]),
		linearWorkflow(TRIGGER, 'E2E recovery events', [
			// Keep Endpoint Registered off: deactivation deletes the endpoint (kept by default).
			{ name: 'Events', type: T.trigger, typeVersion: 1.2, parameters: { registration: 'automatic', options: { keepEndpoint: false } }, credentials: CREDS.server, webhookId: TRIGGER_WEBHOOK_ID },
			{ name: 'Received', type: T.noop, executeOnce: false },
		]),
	];
}

/** Statuses after which an execution does not change. */
const ended = (status: unknown) => ['success', 'error', 'crashed', 'canceled'].includes(String(status));
const triggerUrl = () => `${env.n8n.url}/webhook/${TRIGGER_WEBHOOK_ID}/webhook`;

beforeAll(async () => {
	env = await createEnv();
	sandbox = new SandboxClient(env.sandbox);
	await env.n8n.importWorkflows(workflows(env.sandbox.orchestrationUrl));
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
});

describe('Standing Deposit Address and Affiliate in n8n', () => {
	it('the same reference twice returns one instruction; a changed body is refused with what to do', async () => {
		const twice = await executeWorkflow(env, 'e2eStandingTwice');
		if (!twice.ok) throw new Error(twice.raw.slice(-4000));
		const [first] = twice.outputs.First;
		expect(first).toMatchObject({ standingAddressId: expect.stringMatching(/^sda_/), reference: 'e2e customer-1', feeBps: 15 });
		expect(twice.outputs.Second[0].standingAddressId).toBe(first.standingAddressId);
		expect(twice.outputs.Read[0].standingAddressId).toBe(first.standingAddressId);

		const changed = await executeWorkflow(env, 'e2eStandingChanged');
		expect(changed.ok).toBe(false);
		expect(changed.raw).toMatch(/instruction_conflict/);
	});

	it('an affiliate created, claimed (formatted amount) and listed', async () => {
		const result = await executeWorkflow(env, 'e2eAffiliate');
		if (!result.ok) throw new Error(result.raw.slice(-4000));
		expect(result.outputs['Create affiliate'][0]).toMatchObject({ affiliateId: 'aff_e2e', feeBps: 30, enabled: true });
		const [claim] = result.outputs.Claim;
		expect(claim).toMatchObject({ affiliateId: 'aff_e2e', amount: '3250000', amountFormatted: '3.25', settlementAsset: 'USDC', settlementChain: 'base' });
		expect(result.outputs.Claims.map((c) => c.id)).toEqual([claim.id]);
		expect(result.outputs.Affiliates.map((a) => a.affiliateId)).toContain('aff_e2e');
	});

	it('a claim followed until paid (Wait Until Final), then read back by its ID', async () => {
		const result = await executeWorkflow(env, 'e2eClaimPaid');
		if (!result.ok) throw new Error(result.raw.slice(-4000));
		const [claim] = result.outputs.Claim;
		expect(claim).toMatchObject({
			id: expect.stringMatching(/^clm_/), affiliateId: 'aff_e2e_paid', amount: '1750000', amountFormatted: '1.75', status: 'completed',
			txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), waitEndedBy: 'paid', waitTimedOut: false,
		});
		expect(result.outputs['Read back'][0]).toMatchObject({ id: claim.id, status: 'completed', txHash: claim.txHash });
		// the sandbox saw the claim processing first: the node waited for the payout, it did not find it done
		const claims = env.sandbox.orchestration.ctx.state.partnerBook.claims.filter((c) => c.id === claim.id);
		expect(claims).toEqual([expect.objectContaining({ attempts: 1, status: 'completed' })]);
		expect(Date.parse(String(claim.completedAt)) - Date.parse(String(claim.createdAt))).toBeGreaterThan(0);
	});
});

describe('Orchestration Trigger: recovery events and deactivation', () => {
	beforeAll(async () => {
		const r = await env.n8n.cli(['publish:workflow', `--id=${TRIGGER}`]);
		if (r.code !== 0) throw new Error(`publish ${TRIGGER}: ${r.stderr || r.stdout}`);
		await env.n8n.start();
		apiKey = await env.n8n.createApiKey(await env.n8n.setupOwner(OWNER));
	}, 300_000);

	const executions = async () =>
		(await env.n8n.api<{ data: Array<{ id: string; status: string; data?: unknown }> }>(apiKey, 'GET', `/executions?workflowId=${TRIGGER}&includeData=true&limit=250`)).data;

	it('activation registered the endpoint and a recovery subscription for the same URL', async () => {
		const [hook, recovery] = await until('both subscriptions', async () => {
			const main = (await sandbox.webhooks()).find((w) => w.url === triggerUrl());
			const rec = (await sandbox.webhooks({ recovery: true })).find((w) => w.url === triggerUrl());
			return main && rec ? [main, rec] : undefined;
		});
		expect(hook.webhookId).toMatch(/^wh_/);
		expect(recovery.webhookId).toMatch(/^whr_/);
	});

	it('a signed order.recovery_required delivery starts the workflow', async () => {
		await sandbox.setSwitches({ autoAdvance: false });
		const orderId = await sandbox.paidOrder();
		const raised = await fetch(`${env.sandbox.orchestrationUrl}/sandbox/orders/${orderId}/recovery-required`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ reviewStatus: 'pending_review' }),
		});
		expect(raised.status).toBe(202);
		const run = await until('a run with the recovery event', async () =>
			(await executions()).find((e) => ended(e.status) && JSON.stringify(e.data ?? '').includes('order.recovery_required') && JSON.stringify(e.data).includes(orderId)),
		);
		expect(run.status).toBe('success');
		const deliveries = await sandbox.deliveries({ orderId });
		const recoveryDelivery = deliveries.find((d) => d.event === 'order.recovery_required');
		expect(recoveryDelivery?.state).toBe('delivered');
		expect(recoveryDelivery?.attempts[0].status).toBe(200);
	});

	it('a payment to a standing address is listed by Get Deposits, and its order (quoteId null) reaches the trigger by webhook', async () => {
		await sandbox.setSwitches({ autoAdvance: true });
		const result = await executeWorkflow(env, 'e2eStandingDeposits');
		if (!result.ok) throw new Error(result.raw.slice(-4000));
		const [paid] = result.outputs.Pay;
		expect(paid).toMatchObject({ reference: 'e2e deposits-1', orderId: expect.stringMatching(/^ord_/), order: { quoteId: null } });
		const orderId = String(paid.orderId);
		expect(result.outputs.Deposits).toEqual([
			expect.objectContaining({ reference: 'e2e deposits-1', chain: 'base', asset: 'USDC', amount: '2500000', amountFormatted: '2.5', orderId, quoteId: null, status: 'converted' }),
		]);
		const run = await until('the trigger run of the standing order', async () =>
			(await executions()).find((e) => {
				// n8n saves the trigger's data before the run ends ("new"): wait for the end
				if (!ended(e.status)) return false;
				const text = JSON.stringify(e.data ?? '');
				return text.includes(orderId) && text.includes('order.completed');
			}),
		);
		expect(run.status).toBe('success');
		const received = (run.data as { resultData: { runData: Record<string, Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }>> } }).resultData.runData.Events[0].data.main[0][0].json;
		expect(received).toMatchObject({ event: 'order.completed', data: { id: orderId, quoteId: null, sourceChain: 'base', destinationChain: 'base' } });
		const delivered = (await sandbox.deliveries({ orderId })).filter((d) => d.url === triggerUrl());
		expect(delivered.map((d) => d.event)).toEqual(expect.arrayContaining(['order.processing', 'order.completed']));
	});

	it('with Keep Endpoint Registered off, deactivating the workflow deletes the endpoint and the recovery subscription at the sandbox', async () => {
		await env.n8n.api(apiKey, 'POST', `/workflows/${TRIGGER}/deactivate`);
		const gone = await until('both subscriptions disabled', async () => {
			const all = [...(await sandbox.webhooks()), ...(await sandbox.webhooks({ recovery: true }))].filter((w) => w.url === triggerUrl());
			return all.length === 2 && all.every((w) => w.disabledAt) ? all : undefined;
		});
		expect(gone).toHaveLength(2);
		// a new order's events reach no endpoint any more
		const before = (await sandbox.deliveries()).length;
		await sandbox.setSwitches({ autoAdvance: true });
		const orderId = await sandbox.paidOrder();
		await until('the order completed', async () => (await sandbox.orderStatus(orderId)) === 'completed');
		expect((await sandbox.deliveries()).length).toBe(before);
	});
});
