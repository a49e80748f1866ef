/**
 * The endpoint's life against the sandbox over real HTTP: n8n's delete (deactivation, re-publish,
 * update) keeps the production endpoint and its recovery subscription unless "Keep Endpoint
 * Registered" is set off, which deletes both; a test event's endpoint is deleted after the test, or
 * reused by the next test when kept; recovery deliveries (signed with the recovery secret) start runs,
 * and each secret verifies only its subscription's events, in one pass; a loopback webhook URL
 * towards a remote service is refused with the fix.
 */
import * as crypto from 'node:crypto';
import { startSandbox } from '../../../sandbox/index';
import { forgetKnownRegistrations, recoveryWanted, unreachableWebhookUrl } from '../../../nodes/OrchestrationTrigger/registration';
import { runWebhookMethod, startWebhookServer, type NodeHarness } from '../../harness/n8n';
import { deliverInMemory, envelope, nodeStaticData, post, signedHeaders, triggerHarness } from '../../harness/trigger';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

interface Hook {
	webhookId: string;
	url: string;
	kind?: 'recovery';
	disabledAt?: string;
}

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true });
});
afterAll(async () => {
	await sb.close();
});
beforeEach(async () => {
	forgetKnownRegistrations();
	await fetch(`${sb.orchestrationUrl}/sandbox/reset`, { method: 'POST' });
});

const hooks = async (): Promise<Hook[]> => ((await (await fetch(`${sb.orchestrationUrl}/sandbox/webhooks`)).json()) as { webhooks: Hook[] }).webhooks;
const active = async () => (await hooks()).filter((h) => !h.disabledAt);
const requests = async (method: string) =>
	((await (await fetch(`${sb.orchestrationUrl}/sandbox/requests?method=${method}`)).json()) as { requests: Array<{ path: string; status: number; idempotencyKey: string }> }).requests;
const fault = (rule: Record<string, unknown>) =>
	fetch(`${sb.orchestrationUrl}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });

const harness = (parameters = {}, extra: { baseUrl?: string; webhookBaseUrl?: string; typeVersion?: number } = {}) =>
	triggerHarness({ baseUrl: extra.baseUrl ?? sb.orchestrationUrl, parameters, webhookBaseUrl: extra.webhookBaseUrl, typeVersion: extra.typeVersion });

async function activate(h: NodeHarness, isTest = false): Promise<void> {
	if (!(await runWebhookMethod(h, 'checkExists', { isTest }))) expect(await runWebhookMethod(h, 'create', { isTest })).toBe(true);
}

/** A new test session: n8n starts each Listen for test event with empty static data. */
function newTestSession(h: NodeHarness): void {
	for (const key of Object.keys(nodeStaticData(h))) delete nodeStaticData(h)[key];
}

describe('deactivation (n8n calls the same delete for a re-publish or an update)', () => {
	it('keeps the endpoint, its secret and the recovery subscription; the next activation reuses them', async () => {
		const h = harness();
		await activate(h);
		const stored = { ...nodeStaticData(h) };
		expect(stored.recoveryWebhookId).toMatch(/^whr_/);
		// n8n 2.41.1 calls delete with activation "update" in every case (deregisterWebhooks).
		expect(await runWebhookMethod(h, 'delete', { activation: 'update' })).toBe(true);
		expect(await requests('DELETE')).toEqual([]);
		expect((await active()).map((w) => w.webhookId).sort()).toEqual([stored.webhookId, stored.recoveryWebhookId].sort());
		expect(nodeStaticData(h)).toEqual(stored);
		await activate(h);
		expect(nodeStaticData(h)).toEqual(stored);
		expect((await requests('POST')).filter((r) => r.path.startsWith('/v1/webhooks'))).toHaveLength(2);
	});

	it('with "Keep Endpoint Registered" set off, deletes both at the service and forgets them', async () => {
		const h = harness({ options: { keepEndpoint: false } });
		await activate(h);
		const stored = { ...nodeStaticData(h) };
		expect(await runWebhookMethod(h, 'delete', { activation: 'update' })).toBe(true);
		expect(await active()).toEqual([]);
		const deletes = await requests('DELETE');
		expect(deletes.map((d) => [d.path, d.status])).toEqual([
			[`/v1/webhooks/recovery/${String(stored.recoveryWebhookId)}`, 200],
			[`/v1/webhooks/${String(stored.webhookId)}`, 200],
		]);
		for (const d of deletes) expect(d.idempotencyKey).toMatch(/^n8n-[0-9a-f]{64}$/);
		expect(nodeStaticData(h)).toEqual({});
		// the next activation registers anew
		await activate(h);
		expect(nodeStaticData(h).webhookId).not.toBe(stored.webhookId);
	});

	it('version 1 and 1.1 nodes keep their registration too unless the option is set off', async () => {
		for (const typeVersion of [1, 1.1]) {
			const old = harness({}, { typeVersion });
			await activate(old);
			expect(await runWebhookMethod(old, 'delete')).toBe(true);
			expect(nodeStaticData(old).webhookId).toBeDefined();
			const optedIn = harness({ options: { keepEndpoint: false } }, { typeVersion });
			await activate(optedIn);
			expect(await runWebhookMethod(optedIn, 'delete')).toBe(true);
			expect(nodeStaticData(optedIn)).toEqual({});
		}
		expect(await active()).toHaveLength(4);
		expect((await requests('DELETE')).map((d) => d.status)).toEqual([200, 200, 200, 200]);
	});

	it('set off: a failed or already-done delete never blocks deactivation', async () => {
		const h = harness({ options: { keepEndpoint: false } });
		await activate(h);
		await fault({ method: 'DELETE', path: `/v1/webhooks/${String(nodeStaticData(h).webhookId)}`, mode: 'status', status: 500, times: 'always' });
		try {
			expect(await runWebhookMethod(h, 'delete')).toBe(false);
		} finally {
			await fetch(`${sb.orchestrationUrl}/sandbox/faults`, { method: 'DELETE' });
		}
		// the endpoint is still stored (and reused by the next activation), the recovery one is gone
		expect(nodeStaticData(h).webhookId).toBeDefined();
		expect(nodeStaticData(h).recoveryWebhookId).toBeUndefined();
		// deleted meanwhile in the dashboard: 404 counts as gone
		await fetch(`${sb.orchestrationUrl}/v1/webhooks/${String(nodeStaticData(h).webhookId)}`, {
			method: 'DELETE',
			headers: { authorization: 'Bearer fn_sandbox_server_partner1', 'x-idempotency-key': 'dashboard-1' },
		});
		expect(await runWebhookMethod(h, 'delete')).toBe(true);
		expect(nodeStaticData(h)).toEqual({});
	});

	it('set off: never deletes a registration made for another URL (another copy of the workflow), only this node\'s', async () => {
		const h = harness({ options: { keepEndpoint: false } });
		await activate(h);
		const stored = { ...nodeStaticData(h) };
		(h.additionalData as unknown as { webhookBaseUrl: string }).webhookBaseUrl = 'http://127.0.0.1:5679/webhook';
		expect(await runWebhookMethod(h, 'delete')).toBe(true);
		expect(await requests('DELETE')).toEqual([]);
		expect(nodeStaticData(h)).toEqual(stored);
	});
});

describe('recovery subscription (issue 21)', () => {
	it('is registered for All Events or Order Recovery Required only', async () => {
		await activate(harness({ events: ['order.completed'] }));
		expect((await active()).map((w) => w.kind)).toEqual([undefined]);
		await activate(harness({ events: ['order.recovery_required'] }));
		expect((await active()).filter((w) => w.kind === 'recovery')).toHaveLength(1);
	});

	it('a recovery delivery verified with the recovery secret starts a run; the endpoint secret still works; a forged one does not', async () => {
		const h = harness();
		await activate(h);
		const { secret, recoverySecret, recoveryWebhookId, webhookId } = nodeStaticData(h) as Record<string, string>;
		const server = await startWebhookServer(h);
		try {
			const recovery = JSON.stringify(envelope({ event: 'order.recovery_required', data: { status: 'processing', reviewStatus: 'pending_review' } }));
			expect((await post(server.url, recovery, signedHeaders(recoverySecret, recovery))).status).toBe(200);
			const normal = JSON.stringify(envelope({ event: 'order.completed', id: 'ord_other' }));
			expect((await post(server.url, normal, signedHeaders(secret, normal))).status).toBe(200);
			const forged = JSON.stringify(envelope({ event: 'order.recovery_required', id: 'ord_forged' }));
			expect((await post(server.url, forged, signedHeaders('whsec_not_the_secret_at_all', forged))).status).toBe(401);
			expect(server.runs).toHaveLength(2);
			expect(server.runs[0][0].json).toMatchObject({ event: 'order.recovery_required', delivery: { webhookId: recoveryWebhookId } });
			expect(server.runs[1][0].json).toMatchObject({ event: 'order.completed', delivery: { webhookId } });
		} finally {
			await server.close();
		}
	});

	it('when only All Events wants it, a refused recovery registration does not block activation; selected by name it does', async () => {
		await fault({ method: 'POST', path: '/v1/webhooks/recovery', mode: 'status', status: 404, times: 'always' });
		try {
			const all = harness();
			await activate(all);
			expect(nodeStaticData(all).webhookId).toBeDefined();
			expect(nodeStaticData(all).recoveryWebhookId).toBeUndefined();
			const named = harness({ events: ['order.recovery_required'] });
			await expect(runWebhookMethod(named, 'create')).rejects.toThrow();
		} finally {
			await fetch(`${sb.orchestrationUrl}/sandbox/faults`, { method: 'DELETE' });
		}
	});

	it('recoveryWanted: All Events, none selected, or the event by name (explicit)', () => {
		expect(recoveryWanted(['*'])).toEqual({ wanted: true, explicit: false });
		expect(recoveryWanted([])).toEqual({ wanted: true, explicit: false });
		expect(recoveryWanted(['order.completed', 'order.recovery_required'])).toEqual({ wanted: true, explicit: true });
		expect(recoveryWanted(['order.completed'])).toEqual({ wanted: false, explicit: false });
		expect(recoveryWanted('={{ $json.x }}')).toEqual({ wanted: false, explicit: false });
	});

	it('each secret verifies only its subscription\'s events: a recovery-signed order.completed and an endpoint-signed recovery event start nothing', async () => {
		const h = harness();
		await activate(h);
		const { secret, recoverySecret } = nodeStaticData(h) as Record<string, string>;
		const server = await startWebhookServer(h);
		try {
			const completed = JSON.stringify(envelope({ event: 'order.completed' }));
			const answer = await post(server.url, completed, signedHeaders(recoverySecret, completed));
			expect([answer.status, answer.json?.error]).toEqual([401, 'wrong_subscription']);
			expect(answer.json?.message).toMatch(/recovery subscription's secret/);
			const recovery = JSON.stringify(envelope({ event: 'order.recovery_required', data: { status: 'processing' } }));
			const refused = await post(server.url, recovery, signedHeaders(secret, recovery));
			expect([refused.status, refused.json?.error]).toEqual([401, 'wrong_subscription']);
			expect(server.runs).toHaveLength(0);
			expect(JSON.stringify(server.answers)).not.toContain(recoverySecret);
		} finally {
			await server.close();
		}
	});

	it('verifies a delivery once: one HMAC for an order event, even with a recovery subscription', async () => {
		const h = harness();
		await activate(h);
		const { secret, recoverySecret } = nodeStaticData(h) as Record<string, string>;
		const completed = JSON.stringify(envelope({ event: 'order.completed' }));
		const recovery = JSON.stringify(envelope({ event: 'order.recovery_required', data: { status: 'processing' } }));
		const orderHeaders = signedHeaders(secret, completed);
		const recoveryHeaders = signedHeaders(recoverySecret, recovery);
		// Every HMAC ends in Hmac#digest, whoever imported createHmac and however.
		const hmacs = jest.spyOn((crypto as unknown as { Hmac: { prototype: crypto.Hmac } }).Hmac.prototype, 'digest');
		try {
			expect((await deliverInMemory(h, completed, orderHeaders)).result.workflowData).toHaveLength(1);
			expect(hmacs).toHaveBeenCalledTimes(1);
			hmacs.mockClear();
			// A recovery event: the endpoint's secret, then the recovery one, in the same pass.
			expect((await deliverInMemory(h, recovery, recoveryHeaders)).result.workflowData).toHaveLength(1);
			expect(hmacs).toHaveBeenCalledTimes(2);
		} finally {
			hmacs.mockRestore();
		}
	});
});

describe('test events without litter (issue 22)', () => {
	it('deletes the test endpoint after each test event: repeated tests leave nothing registered', async () => {
		const h = harness();
		for (let n = 0; n < 3; n++) {
			newTestSession(h);
			await activate(h, true);
			expect(await runWebhookMethod(h, 'delete', { activation: 'update', isTest: true })).toBe(true);
		}
		expect(await active()).toEqual([]);
	});

	it('with "Keep Endpoint Registered", repeated tests reuse one registration per workflow, node and URL', async () => {
		const h = harness({ options: { keepEndpoint: true } });
		const ids = new Set<unknown>();
		for (let n = 0; n < 3; n++) {
			newTestSession(h);
			await activate(h, true);
			ids.add(nodeStaticData(h).webhookId);
			expect(await runWebhookMethod(h, 'delete', { activation: 'update', isTest: true })).toBe(true);
		}
		expect(ids.size).toBe(1);
		const posts = (await requests('POST')).filter((r) => r.path.startsWith('/v1/webhooks'));
		expect(posts.map((p) => p.path)).toEqual(['/v1/webhooks', '/v1/webhooks/recovery']);
		expect(await active()).toHaveLength(2);
		// the production URL is another registration
		await activate(h);
		expect(await active()).toHaveLength(4);
	});

	it('unreachableWebhookUrl: loopback hooks only towards loopback services', () => {
		for (const hook of ['http://localhost:5678/webhook/x', 'http://127.0.0.1/webhook/x', 'http://127.8.9.1/w', 'http://[::1]:5678/w']) {
			expect(unreachableWebhookUrl(hook, 'https://api.example.com')).toMatch(/points to this machine/);
			expect(unreachableWebhookUrl(hook, 'http://127.0.0.1:8787')).toBeUndefined();
		}
		expect(unreachableWebhookUrl('https://n8n.example.com/webhook/x', 'https://api.example.com')).toBeUndefined();
		expect(unreachableWebhookUrl('http://10.0.0.5:5678/webhook/x', 'https://api.example.com')).toBeUndefined();
	});

	it('refuses a loopback webhook URL towards a service elsewhere, with the fix, before any request', async () => {
		const h = harness({}, { baseUrl: 'https://api.example.com', webhookBaseUrl: 'http://localhost:5678/webhook' });
		const error = (await runWebhookMethod(h, 'create').then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		)) as (Error & { description?: string }) | undefined;
		expect(error?.message).toMatch(/^Not registered: n8n's webhook URL \(http:\/\/localhost:5678\/webhook\/.*\) points to this machine/);
		expect(error?.description).toMatch(/Set WEBHOOK_URL/);
		expect(nodeStaticData(h)).toEqual({});
		// the sandbox on this machine is fine
		await activate(harness({}, { webhookBaseUrl: 'http://localhost:5678/webhook' }));
		expect(await active()).toHaveLength(2);
	});
});
