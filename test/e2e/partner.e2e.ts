/**
 * Issues 26, 21 (recovery subscription) and 22 in a real n8n 2.41.1: a standing deposit address
 * created twice with the same reference returns one instruction and a changed body is refused; an
 * affiliate created, claimed and listed; a recovery event that starts the trigger's workflow; the
 * workflow deactivated and its endpoint and recovery subscription gone at the sandbox.
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
		reference: 'e2e customer/1',
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
			orch('Read', { resource: 'standingAddress', operation: 'get', reference: 'e2e customer/1' }),
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
		linearWorkflow(TRIGGER, 'E2E recovery events', [
			{ name: 'Events', type: T.trigger, typeVersion: 1.2, parameters: { registration: 'automatic', options: {} }, credentials: CREDS.server, webhookId: TRIGGER_WEBHOOK_ID },
			{ name: 'Received', type: T.noop, executeOnce: false },
		]),
	];
}

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
		expect(first).toMatchObject({ standingAddressId: expect.stringMatching(/^sda_/), reference: 'e2e customer/1', feeBps: 15 });
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
		expect(claim).toMatchObject({ affiliateId: 'aff_e2e', amount: '3250000', amountFormatted: '3.25', asset: 'USDC', chain: 'base' });
		expect(result.outputs.Claims.map((c) => c.claimId)).toEqual([claim.claimId]);
		expect(result.outputs.Affiliates.map((a) => a.affiliateId)).toContain('aff_e2e');
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
			(await executions()).find((e) => JSON.stringify(e.data ?? '').includes('order.recovery_required') && JSON.stringify(e.data).includes(orderId)),
		);
		expect(run.status).toBe('success');
		const deliveries = await sandbox.deliveries({ orderId });
		const recoveryDelivery = deliveries.find((d) => d.event === 'order.recovery_required');
		expect(recoveryDelivery?.state).toBe('delivered');
		expect(recoveryDelivery?.attempts[0].status).toBe(200);
	});

	it('deactivating the workflow deletes the endpoint and the recovery subscription at the sandbox', async () => {
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
