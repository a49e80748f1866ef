/**
 * The webhook handler's contract without the sandbox: description names, check order, the two
 * deduplication layers (persisted static data and this process), the window, event selection
 * and the output shape. Deliveries are signed here with node:crypto.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { OrchestrationTrigger } from '../../../nodes/OrchestrationTrigger/OrchestrationTrigger.node';
import { startWebhookServer, type WebhookServer } from '../../harness/n8n';
import { completeRun, deliverInMemory, envelope, nodeStaticData, post, signedHeaders, triggerHarness } from './helpers';

const SECRET = 'whsec_webhook_contract_0123456789';
const existing = (extra: INodeParameters = {}): INodeParameters => ({ registration: 'existingEndpoint', webhookSecret: SECRET, ...extra });

function signed(env: IDataObject | string) {
	const body = typeof env === 'string' ? env : JSON.stringify(env);
	return { body, headers: signedHeaders(SECRET, body) };
}

describe('Orchestration Trigger: description', () => {
	const { description } = new OrchestrationTrigger();

	it('is the orchestrationTrigger node with the server-key credential and an empty 200 on acceptance', () => {
		expect(description.name).toBe('orchestrationTrigger');
		expect(description.displayName).toBe('Orchestration Trigger');
		expect(description.inputs).toEqual([]);
		expect(description.credentials).toEqual([
			expect.objectContaining({ name: 'orchestrationServerApi', displayOptions: { show: { registration: ['automatic'] } } }),
		]);
		expect(description.webhooks).toEqual([
			expect.objectContaining({ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: 'noData' }),
		]);
	});

	it('has the public parameters and options with their defaults', () => {
		const byName = Object.fromEntries(description.properties.map((p) => [p.name, p]));
		expect(byName.registration.default).toBe('automatic');
		expect(byName.registration.options?.map((o) => (o as { value: string }).value)).toEqual(['automatic', 'existingEndpoint']);
		expect(byName.webhookSecret.typeOptions?.password).toBe(true);
		expect(byName.events.default).toHaveLength(11);
		expect(byName.events.options).toHaveLength(11);
		const options = Object.fromEntries((byName.options.options as Array<{ name: string; default: unknown }>).map((o) => [o.name, o.default]));
		expect(options).toEqual({
			deduplicate: true,
			deduplicationWindow: 1000,
			includeHeaders: false,
			onlyData: false,
			toleranceSeconds: 300,
		});
		expect(String(byName.notice.displayName)).toMatch(/partner dashboard/);
	});
});

describe('Orchestration Trigger: webhook handler', () => {
	const servers: WebhookServer[] = [];
	afterAll(async () => {
		await Promise.all(servers.map((s) => s.close()));
	});
	async function serve(parameters: INodeParameters) {
		const h = triggerHarness({ parameters });
		const server = await startWebhookServer(h);
		servers.push(server);
		return { h, server };
	}

	it('outputs the envelope with delivery metadata and no headers by default', async () => {
		const { h, server } = await serve(existing());
		const env = envelope({ event: 'order.delivering' });
		const { body, headers } = signed(env);
		const answer = await post(server.url, body, headers);
		expect(answer.status).toBe(200);
		const { json } = server.runs[0][0];
		const data = env.data as IDataObject;
		expect(json).toEqual({
			event: 'order.delivering',
			timestamp: env.timestamp,
			data,
			delivery: {
				signatureTimestamp: Number(headers['x-service-timestamp']),
				signatureTime: new Date(Number(headers['x-service-timestamp'])).toISOString(),
				duplicateKey: JSON.stringify([data.id, 'order.delivering', data.updatedAt]),
				receivedAt: expect.any(String),
			},
		});
		expect(await completeRun(h, server.runs[0])).toEqual([{ json, pairedItem: { item: 0 } }]);
	});

	it('treats an empty event selection as every order event, and never runs on other kinds', async () => {
		const { server } = await serve(existing({ events: [] }));
		for (const event of ['order.processing', 'order.refunded', 'order.awaiting_approval']) {
			const { body, headers } = signed(envelope({ event }));
			expect((await post(server.url, body, headers)).status).toBe(200);
		}
		// Newer kinds of the live service (public-notes) and unknown ones: 200, no run.
		for (const event of ['order.superseded', 'order.recovery_required', 'order.paused', 'payment.completed']) {
			const { body, headers } = signed(envelope({ event }));
			const answer = await post(server.url, body, headers);
			expect([answer.status, answer.json?.ignored]).toEqual([200, 'event_not_selected']);
		}
		expect(server.runs.map((r) => r[0].json.event)).toEqual(['order.processing', 'order.refunded', 'order.awaiting_approval']);
	});

	it('checks the signature before the JSON, the JSON before the envelope, the envelope before the filter', async () => {
		const { server } = await serve(existing({ events: ['order.completed'] }));
		const notJson = 'not json';
		expect((await post(server.url, notJson, signedHeaders('whsec_other', notJson))).json?.error).toBe('signature_mismatch');
		expect((await post(server.url, notJson, signedHeaders(SECRET, notJson))).json?.error).toBe('invalid_json');
		const noId = JSON.stringify({ event: 'order.failed', data: {} });
		expect((await post(server.url, noId, signedHeaders(SECRET, noId))).json?.error).toBe('invalid_envelope');
		const filtered = JSON.stringify(envelope({ event: 'order.failed' }));
		expect((await post(server.url, filtered, signedHeaders(SECRET, filtered))).json?.ignored).toBe('event_not_selected');
		expect(server.runs).toHaveLength(0);
	});

	it('dedupes on (data.id, event, data.updatedAt), not on the bytes or the signature timestamp', async () => {
		const { server } = await serve(existing());
		const env = envelope({ id: 'ord_same', event: 'order.bridging', updatedAt: '2025-02-02T00:00:00.000Z' });
		await post(server.url, JSON.stringify(env), signedHeaders(SECRET, JSON.stringify(env)));
		// Same key, other bytes (a member added and re-ordered), fresh signature: still the same event.
		const reworded = { data: { ...(env.data as IDataObject), extra: true }, event: env.event };
		const again = await post(server.url, JSON.stringify(reworded), signedHeaders(SECRET, JSON.stringify(reworded), Date.now() + 5));
		expect(again.json?.ignored).toBe('duplicate');
		// Another updatedAt or another event of the same order is a new event.
		for (const other of [
			envelope({ id: 'ord_same', event: 'order.bridging', updatedAt: '2025-02-02T00:00:01.000Z' }),
			envelope({ id: 'ord_same', event: 'order.swapping', updatedAt: '2025-02-02T00:00:00.000Z' }),
		]) {
			const { body, headers } = signed(other);
			expect((await post(server.url, body, headers)).status).toBe(200);
		}
		expect(server.runs).toHaveLength(3);
	});

	it('dedupes on a hash of the payload when the snapshot has no updatedAt', async () => {
		const { server } = await serve(existing());
		const env = { event: 'order.completed', data: { id: 'ord_no_updated_at', status: 'completed' } };
		const body = JSON.stringify(env);
		await post(server.url, body, signedHeaders(SECRET, body));
		const retry = await post(server.url, body, signedHeaders(SECRET, body, Date.now() + 3));
		expect(retry.json?.ignored).toBe('duplicate');
		expect(server.runs).toHaveLength(1);
		expect(String(server.runs[0][0].json.delivery && (server.runs[0][0].json.delivery as IDataObject).duplicateKey)).toMatch(/^sha256:[0-9a-f]{64}$/);
	});

	it('keeps the persisted memory bounded by the window, oldest forgotten first', async () => {
		const { h, server } = await serve(existing({ options: { deduplicationWindow: 3 } }));
		// Each accepted delivery's run completes (the trigger's execute persists its key).
		const send = async (env: IDataObject) => {
			const before = server.runs.length;
			const { body, headers } = signed(env);
			const answer = await post(server.url, body, headers);
			if (server.runs.length > before) await completeRun(h, server.runs[before]);
			return answer;
		};
		const keyOf = (e: IDataObject) => JSON.stringify([(e.data as IDataObject).id, e.event, (e.data as IDataObject).updatedAt]);
		const oldestFirst = () => {
			const ring = nodeStaticData(h).seenKeys as string[];
			const next = nodeStaticData(h).seenNext as number;
			return [...ring.slice(next), ...ring.slice(0, next)];
		};
		const envs = Array.from({ length: 4 }, () => envelope());
		for (const env of envs) await send(env);
		expect(oldestFirst()).toEqual(envs.slice(1).map(keyOf));
		// The newest three are still duplicates; the evicted first one runs again.
		expect((await send(envs[3])).json?.ignored).toBe('duplicate');
		expect((await send(envs[0])).status).toBe(200);
		expect(server.runs).toHaveLength(5);
		expect(oldestFirst()).toEqual([envs[2], envs[3], envs[0]].map(keyOf));

		// A smaller window keeps the newest keys; a larger one grows from there.
		(h.node.parameters.options as IDataObject).deduplicationWindow = 2;
		const fifth = envelope();
		await send(fifth);
		expect(oldestFirst()).toEqual([envs[0], fifth].map(keyOf));
		(h.node.parameters.options as IDataObject).deduplicationWindow = 5;
		const more = Array.from({ length: 3 }, () => envelope());
		for (const env of more) await send(env);
		expect(oldestFirst()).toEqual([envs[0], fifth, ...more].map(keyOf));
		expect(server.runs).toHaveLength(9);
	});

	it('leaves static data to the run: webhook() writes nothing, execute() in the run persists the key', async () => {
		// n8n 2.41 drops static data written by webhook() once a run starts, and saves the run's.
		const h = triggerHarness({ parameters: existing() });
		const root = h.workflow.staticData as IDataObject & { __dataChanged?: boolean };
		const env = signed(envelope());
		root.__dataChanged = false;
		const accepted = await deliverInMemory(h, env.body, env.headers);
		expect(accepted.result.workflowData?.[0]).toHaveLength(1);
		expect((await deliverInMemory(h, env.body, env.headers)).json?.ignored).toBe('duplicate');
		expect((await deliverInMemory(h, env.body, signedHeaders('whsec_x', env.body))).status).toBe(401);
		expect(root.__dataChanged).toBe(false);
		expect(nodeStaticData(h).seenKeys).toBeUndefined();

		await completeRun(h, accepted.result.workflowData![0]);
		expect(root.__dataChanged).toBe(true);
		const delivery = accepted.result.workflowData![0][0].json.delivery as IDataObject;
		expect(nodeStaticData(h).seenKeys).toEqual([delivery.duplicateKey]);
	});

	it('catches duplicates with the persisted memory alone, after a restart (saved and reloaded static data)', async () => {
		const first = triggerHarness({ parameters: existing() });
		const env = signed(envelope());
		const accepted = await deliverInMemory(first, env.body, env.headers);
		await completeRun(first, accepted.result.workflowData![0]);
		// n8n saves static data as JSON and loads it into a new Workflow; a new process has no process memory.
		const saved = JSON.parse(JSON.stringify(first.workflow.staticData)) as IDataObject;
		const restarted = triggerHarness({ parameters: existing(), staticData: saved, workflowId: `${first.workflow.id}-restarted` });
		const retry = await deliverInMemory(restarted, env.body, signedHeaders(SECRET, env.body, Date.now() + 7));
		expect(retry.json?.ignored).toBe('duplicate');
		expect(retry.result.workflowData).toBeUndefined();
	});

	it('persists the keys other runs of this process accepted too (concurrent runs save last-writer-wins)', async () => {
		const h = triggerHarness({ parameters: existing() });
		const a = signed(envelope());
		const b = signed(envelope());
		const runA = (await deliverInMemory(h, a.body, a.headers)).result.workflowData![0];
		const runB = (await deliverInMemory(h, b.body, b.headers)).result.workflowData![0];
		// Run B finishes on static data loaded before run A saved: it still writes A's key.
		await completeRun(h, runB);
		const keyOf = (run: typeof runA) => (run[0].json.delivery as IDataObject).duplicateKey;
		expect(nodeStaticData(h).seenKeys).toEqual([keyOf(runA), keyOf(runB)]);
	});

	it('persists nothing with deduplication off, and passes items without delivery metadata through', async () => {
		const off = triggerHarness({ parameters: existing({ options: { deduplicate: false } }) });
		const env = signed(envelope());
		const accepted = await deliverInMemory(off, env.body, env.headers);
		await completeRun(off, accepted.result.workflowData![0]);
		expect(nodeStaticData(off).seenKeys).toBeUndefined();
		const on = triggerHarness({ parameters: existing() });
		expect(await completeRun(on, [{ json: { pinned: true } }])).toEqual([{ json: { pinned: true }, pairedItem: { item: 0 } }]);
		expect(nodeStaticData(on).seenKeys).toBeUndefined();
	});

	it('catches duplicates with the process memory alone, before n8n has saved the static data', async () => {
		const first = triggerHarness({ parameters: existing() });
		const env = signed(envelope());
		await deliverInMemory(first, env.body, env.headers);
		// A concurrent request loads the workflow with the static data as it was before the first run ended.
		const concurrent = triggerHarness({ parameters: existing(), staticData: {}, workflowId: first.workflow.id });
		const duplicate = await deliverInMemory(concurrent, env.body, signedHeaders(SECRET, env.body, Date.now() + 9));
		expect(duplicate.json?.ignored).toBe('duplicate');
		// The test URL is another endpoint: its own process memory.
		const test = await deliverInMemory(concurrent, env.body, env.headers, true);
		expect(test.result.workflowData).toHaveLength(1);
	});

	it('answers concurrent copies of one event with exactly one run', async () => {
		const { server } = await serve(existing());
		const { body } = signed(envelope());
		const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(server.url, body, signedHeaders(SECRET, body, Date.now() + i))));
		expect(answers.every((a) => a.status === 200)).toBe(true);
		expect(answers.filter((a) => a.json?.ignored === 'duplicate')).toHaveLength(19);
		expect(server.runs).toHaveLength(1);
	});
});
