/**
 * The webhook handler's contract without the sandbox: description names, check order, the two
 * deduplication layers (persisted static data and this process), the window, event selection
 * and the output shape. Deliveries are signed here with node:crypto.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { OrchestrationTrigger } from '../../../nodes/OrchestrationTrigger/OrchestrationTrigger.node';
import { runWebhookMethod, startWebhookServer, testCredential, type WebhookServer } from '../../harness/n8n';
import { MEMORY_BUCKET_MS, compactKey, memoryHas, memorySize, readMemory } from '../../../nodes/shared/orchestration/deliveryMemory';
import { webhookDuplicateKey } from '../../../nodes/shared/orchestration/webhooks';
import { ORDER_EVENTS } from '../../../nodes/shared/orchestration/enums';
import { completeRun, deliverInMemory, envelope, nodeStaticData, post, signedHeaders, triggerHarness } from './helpers';

const SECRET = 'whsec_webhook_contract_0123456789';
const existing = (extra: INodeParameters = {}): INodeParameters => ({ registration: 'existingEndpoint', webhookSecret: SECRET, ...extra });

/** Each attempt gets a fresh timestamp (spec §6 rule 2), so a re-send is a retry, never a replay of one signature. */
let lastTimestamp = 0;
function signed(env: IDataObject | string) {
	const body = typeof env === 'string' ? env : JSON.stringify(env);
	lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
	return { body, headers: signedHeaders(SECRET, body, lastTimestamp) };
}

describe('Orchestration Trigger: description', () => {
	const { description } = new OrchestrationTrigger();

	it('is the orchestrationTrigger node with the server-key credential and an empty 200 on acceptance', () => {
		expect(description.name).toBe('orchestrationTrigger');
		expect(description.displayName).toBe('Orchestration Trigger');
		expect(description.inputs).toEqual([]);
		expect(description.version).toEqual([1, 1.1, 1.2]);
		expect(description.defaultVersion).toBe(1.2);
		expect(description.credentials).toEqual([
			expect.objectContaining({ name: 'orchestrationServerApi', displayOptions: { show: { registration: ['automatic'] } } }),
			expect.objectContaining({
				name: 'orchestrationWebhookSecretApi',
				required: true,
				displayOptions: { show: { registration: ['existingEndpoint'], '@version': [1.1, 1.2] } },
			}),
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
		expect(byName.webhookSecret.displayOptions?.show?.['@version']).toEqual([1]);
		expect(byName.events.default).toEqual(['*']);
		expect(byName.events.options).toHaveLength(14);
		const options = Object.fromEntries((byName.options.options as Array<{ name: string; default: unknown }>).map((o) => [o.name, o.default]));
		expect(options).toEqual({
			deduplicate: true,
			deduplicationHours: 33,
			deduplicationWindow: 100_000,
			includeHeaders: false,
			includeSensitiveHeaders: false,
			keepEndpoint: false,
			onlyData: false,
			toleranceSeconds: 300,
		});
		expect(String(byName.notice.displayName)).toMatch(/deactivation deletes them/);
	});
});

describe('Orchestration Trigger: the secret credential test', () => {
	it('says OK for a usable secret and names the problem of one that cannot be an HMAC key', async () => {
		const h = triggerHarness({ parameters: { registration: 'existingEndpoint' } });
		const check = (secret: unknown) => testCredential(h, 'webhookSecretCheck', 'orchestrationWebhookSecretApi', { secret } as never);
		expect(await check(SECRET)).toMatchObject({ status: 'OK' });
		expect(await check('short')).toEqual({ status: 'Error', message: 'Not usable: the webhook secret has 5 characters; at least 16 are expected' });
		expect(await check(undefined)).toEqual({ status: 'Error', message: 'Not usable: no webhook secret is set' });
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
			// issue 21: the order in the status (flat) shape beside the raw data (this data is flat already)
			order: data,
			delivery: {
				signatureTimestamp: Number(headers['x-service-timestamp']),
				signatureTime: new Date(Number(headers['x-service-timestamp'])).toISOString(),
				duplicateKey: JSON.stringify([data.id, 'order.delivering', data.updatedAt]),
				receivedAt: expect.any(String),
			},
		});
		expect(await completeRun(h, server.runs[0])).toEqual([{ json, pairedItem: { item: 0 } }]);
	});

	it('with all events (empty, "All Events" or every spec kind), runs on newer and unknown kinds too', async () => {
		const kinds = ['order.processing', 'order.refunded', 'order.superseded', 'order.recovery_required', 'order.kind_added_later'];
		for (const events of [[], ['*'], [...ORDER_EVENTS]]) {
			const { server } = await serve(existing({ events }));
			for (const event of kinds) {
				const { body, headers } = signed(envelope({ event }));
				expect((await post(server.url, body, headers)).status).toBe(200);
			}
			expect(server.runs.map((r) => r[0].json.event)).toEqual(kinds);
		}
	});

	it('with a selection, runs on the selected kinds only (newer kinds selectable), others 200 without a run', async () => {
		const { server } = await serve(existing({ events: ['order.completed', 'order.superseded'] }));
		for (const event of ['order.completed', 'order.superseded', 'order.recovery_required', 'order.failed', 'payment.completed']) {
			const { body, headers } = signed(envelope({ event }));
			const answer = await post(server.url, body, headers);
			expect(answer.status).toBe(200);
		}
		expect(server.runs.map((r) => r[0].json.event)).toEqual(['order.completed', 'order.superseded']);
		const values = (new OrchestrationTrigger().description.properties.find((p) => p.name === 'events')!.options as Array<{ value: string }>).map((o) => o.value);
		expect(values).toEqual(expect.arrayContaining(['*', 'order.superseded', 'order.recovery_required', ...ORDER_EVENTS]));
	});

	it('fails closed when the event filter is not a list (500, no run, logged)', async () => {
		for (const events of ['order.completed', '={{ "order.completed" }}', '={{ { a: 1 } }}', '={{ null }}', '={{ [1, 2] }}', '={{ $fails.here }}']) {
			const h = triggerHarness({ parameters: existing({ events }) });
			const { body, headers } = signed(envelope());
			const answer = await deliverInMemory(h, body, headers);
			expect([answer.status, answer.json?.error]).toEqual([500, 'invalid_event_filter']);
			expect(answer.result.workflowData).toBeUndefined();
		}
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
		const send = async (env: IDataObject) => {
			const { body, headers } = signed(env);
			return await post(server.url, body, headers);
		};
		const stored = () => readMemory(nodeStaticData(h).deliveries);
		const keyOf = (e: IDataObject) => compactKey(JSON.stringify([(e.data as IDataObject).id, e.event, (e.data as IDataObject).updatedAt]));
		const envs = Array.from({ length: 4 }, () => envelope());
		for (const env of envs) await send(env);
		expect(stored().keys).toBe(envs.slice(1).map(keyOf).join(''));
		// The newest three are still duplicates; the evicted first one runs again.
		expect((await send(envs[3])).json?.ignored).toBe('duplicate');
		expect((await send(envs[0])).status).toBe(200);
		expect(server.runs).toHaveLength(5);
		expect(stored().keys).toBe([envs[2], envs[3], envs[0]].map(keyOf).join(''));
		// A smaller window keeps the newest keys; a larger one grows from there.
		(h.node.parameters.options as IDataObject).deduplicationWindow = 2;
		const fifth = envelope();
		await send(fifth);
		expect(stored().keys).toBe([envs[0], fifth].map(keyOf).join(''));
		(h.node.parameters.options as IDataObject).deduplicationWindow = 5;
		const more = Array.from({ length: 3 }, () => envelope());
		for (const env of more) await send(env);
		expect(stored().keys).toBe([envs[0], fifth, ...more].map(keyOf).join(''));
		expect(server.runs).toHaveLength(9);
	});

	it('webhook() writes the memory and answers 200 itself, so n8n saves the memory before the run; no run writes static data', async () => {
		// n8n 2.41.1 saves static data a webhook request wrote from its response callback; once a run has
		// started the change flag is cleared (WorkflowRunner.run re-wraps the same object), so the node
		// answers itself (noWebhookResponse), which calls that callback before the run is created.
		const activated = { 'node:Orchestration Trigger': { activatedAt: new Date().toISOString() } };
		const h = triggerHarness({ parameters: existing(), staticData: JSON.parse(JSON.stringify(activated)) as IDataObject });
		const hookRoot = h.workflow.staticData as IDataObject & { __dataChanged?: boolean };
		const env = signed(envelope());
		const accepted = await deliverInMemory(h, env.body, env.headers);
		expect(accepted.result.noWebhookResponse).toBe(true);
		expect(accepted.status).toBe(200);
		expect(accepted.body).toBe('');
		expect(accepted.result.workflowData?.[0]).toHaveLength(1);
		const delivery = accepted.result.workflowData![0][0].json.delivery as IDataObject;
		expect(hookRoot.__dataChanged).toBe(true);
		expect(memoryHas(readMemory(nodeStaticData(h).deliveries), compactKey(String(delivery.duplicateKey)))).toBe(true);
		expect(memorySize(readMemory(nodeStaticData(h).signatures))).toBe(1);
		expect(nodeStaticData(h).activatedAt).toBe(activated['node:Orchestration Trigger'].activatedAt);

		// The run in single mode (static data as stored) and on a queue-mode worker (empty): neither writes.
		for (const staticData of [JSON.parse(JSON.stringify(activated)) as IDataObject, {}]) {
			const run = triggerHarness({ parameters: existing(), staticData, workflowId: h.workflow.id });
			const runRoot = run.workflow.staticData as IDataObject & { __dataChanged?: boolean };
			const out = await completeRun(run, accepted.result.workflowData![0]);
			expect(runRoot.__dataChanged).toBe(false);
			expect(JSON.parse(JSON.stringify(run.workflow.staticData))).toEqual(JSON.parse(JSON.stringify(staticData)));
			expect(out).toHaveLength(1);
		}

		// Refused and ignored deliveries change nothing either.
		const root = h.workflow.staticData as IDataObject & { __dataChanged?: boolean };
		root.__dataChanged = false;
		expect((await deliverInMemory(h, env.body, signedHeaders(SECRET, env.body, Date.now() + 3))).json?.ignored).toBe('duplicate');
		expect((await deliverInMemory(h, env.body, signedHeaders('whsec_another_secret_x', env.body))).status).toBe(401);
		expect((await deliverInMemory(h, env.body, env.headers)).json?.ignored).toBe('replay');
		expect(root.__dataChanged).toBe(false);
	});

	it('activation marks an existing endpoint static data as the workflow own (what lets a run write)', async () => {
		const h = triggerHarness({ parameters: existing() });
		expect(await runWebhookMethod(h, 'checkExists')).toBe(true);
		expect(typeof nodeStaticData(h).activatedAt).toBe('string');
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

	it('merges what another process saved over this one (last writer wins): its keys are caught, and the next save keeps both', async () => {
		const h = triggerHarness({ parameters: existing() });
		const keyOf = (run: INodeExecutionData[]) => compactKey(String((run[0].json.delivery as IDataObject).duplicateKey));
		// This process accepts three deliveries: its write count is ahead of the other process's.
		const own = [];
		const ownEnvelopes = [];
		for (let i = 0; i < 3; i++) {
			const env = signed(envelope());
			ownEnvelopes.push(env);
			own.push(keyOf((await deliverInMemory(h, env.body, env.headers)).result.workflowData![0]));
		}
		// The other webhook process, which loaded the static data before any of them, saves after them
		// with one key of its own (and its own writer id, a lower write count).
		const theirs = signed(envelope());
		const theirKey = compactKey(webhookDuplicateKey(JSON.parse(theirs.body)));
		const bucket = Math.floor(Date.now() / MEMORY_BUCKET_MS);
		nodeStaticData(h).deliveries = { v: 1, keys: theirKey, buckets: [bucket, 1], n: 1, w: 'another-process' };
		// The service retries their event here: a duplicate, though this process's own copy is newer.
		const retry = await deliverInMemory(h, theirs.body, signedHeaders(SECRET, theirs.body, Date.now() + 5));
		expect(retry.json?.ignored).toBe('duplicate');
		expect(retry.result.workflowData).toBeUndefined();
		// Its own events stay duplicates after the merge (the process index kept in step).
		for (const env of ownEnvelopes) {
			expect((await deliverInMemory(h, env.body, signedHeaders(SECRET, env.body, Date.now() + 6))).json?.ignored).toBe('duplicate');
		}
		// That verified request wrote back this process's keys, which the other's save had dropped.
		const healed = readMemory(nodeStaticData(h).deliveries);
		for (const key of [...own, theirKey]) expect(memoryHas(healed, key)).toBe(true);
		// A forged request writes nothing, whatever the stored copy lacks.
		nodeStaticData(h).deliveries = { v: 1, keys: theirKey, buckets: [bucket, 1], n: 1, w: 'another-process' };
		const root = h.workflow.staticData as IDataObject & { __dataChanged?: boolean };
		root.__dataChanged = false;
		expect((await deliverInMemory(h, theirs.body, signedHeaders('whsec_another_secret_x', theirs.body))).status).toBe(401);
		expect(root.__dataChanged).toBe(false);
		// The next accepted delivery saves every key of both processes.
		const next = signed(envelope());
		const nextKey = keyOf((await deliverInMemory(h, next.body, next.headers)).result.workflowData![0]);
		const saved = readMemory(nodeStaticData(h).deliveries);
		for (const key of [...own, theirKey, nextKey]) expect(memoryHas(saved, key)).toBe(true);
		expect(memorySize(saved)).toBe(5);
	});

	it('heals a key that a concurrent save overwrote (last writer wins) with the next write of this process', async () => {
		const h = triggerHarness({ parameters: existing() });
		const a = signed(envelope());
		const b = signed(envelope());
		const before = JSON.parse(JSON.stringify(nodeStaticData(h)));
		const runA = (await deliverInMemory(h, a.body, a.headers)).result.workflowData![0];
		// Another request, which loaded the static data before A was saved, saves after it.
		nodeStaticData(h).deliveries = before.deliveries;
		const runB = (await deliverInMemory(h, b.body, b.headers)).result.workflowData![0];
		const keyOf = (run: typeof runA) => compactKey(String((run[0].json.delivery as IDataObject).duplicateKey));
		expect(readMemory(nodeStaticData(h).deliveries).keys).toBe(keyOf(runA) + keyOf(runB));
	});

	it('with deduplication off keeps only the replay memory, and passes items without delivery metadata through', async () => {
		const off = triggerHarness({ parameters: existing({ options: { deduplicate: false } }) });
		const env = signed(envelope());
		const accepted = await deliverInMemory(off, env.body, env.headers);
		await completeRun(off, accepted.result.workflowData![0]);
		expect(nodeStaticData(off).deliveries).toBeUndefined();
		expect(memorySize(readMemory(nodeStaticData(off).signatures))).toBe(1);
		const on = triggerHarness({ parameters: existing() });
		expect(await completeRun(on, [{ json: { pinned: true } }])).toEqual([{ json: { pinned: true }, pairedItem: { item: 0 } }]);
		expect(nodeStaticData(on).deliveries).toBeUndefined();
	});

	it('catches duplicates with the process memory alone, before n8n has saved the static data', async () => {
		const first = triggerHarness({ parameters: existing() });
		const env = signed(envelope());
		await deliverInMemory(first, env.body, env.headers);
		// A concurrent request loads the workflow with the static data as it was before the first run ended.
		const concurrent = triggerHarness({ parameters: existing(), staticData: {}, workflowId: first.workflow.id });
		const duplicate = await deliverInMemory(concurrent, env.body, signedHeaders(SECRET, env.body, Date.now() + 9));
		expect(duplicate.json?.ignored).toBe('duplicate');
		// The test URL (its own static data snapshot in n8n) is another endpoint for duplicates: its own
		// memory (a fresh signature runs)...
		const testUrl = triggerHarness({ parameters: existing(), staticData: {}, workflowId: first.workflow.id });
		const test = await deliverInMemory(testUrl, env.body, signedHeaders(SECRET, env.body, Date.now() + 11), true);
		expect(test.result.workflowData).toHaveLength(1);
		// ...but a production delivery replayed there, with its signature, starts nothing.
		const replayed = await deliverInMemory(testUrl, env.body, env.headers, true);
		expect([replayed.status, replayed.json?.ignored, replayed.result.workflowData]).toEqual([200, 'replay', undefined]);
	});

	it('catches a copy whose request loaded the static data before the save but is handled after another saw it', async () => {
		const first = triggerHarness({ parameters: existing() });
		const env = signed(envelope());
		await deliverInMemory(first, env.body, env.headers);
		const saved = JSON.parse(JSON.stringify(first.workflow.staticData)) as IDataObject;
		// Request C loaded after the save: it sees the key stored.
		const afterSave = triggerHarness({ parameters: existing(), staticData: saved, workflowId: first.workflow.id });
		const other = signed(envelope());
		await deliverInMemory(afterSave, other.body, other.headers);
		// Request B loaded before the save, handled now: still a duplicate.
		const beforeSave = triggerHarness({ parameters: existing(), staticData: {}, workflowId: first.workflow.id });
		const late = await deliverInMemory(beforeSave, env.body, signedHeaders(SECRET, env.body, Date.now() + 13));
		expect([late.json?.ignored, late.result.workflowData]).toEqual(['duplicate', undefined]);
	});

	it('two processes: a key lost to the save of the other process is written again with the next accepted delivery of its own', async () => {
		// A second n8n process: the same node code with its own module state (its own process memory).
		let Other: typeof OrchestrationTrigger | undefined;
		jest.isolateModules(() => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			Other = (require('../../../nodes/OrchestrationTrigger/OrchestrationTrigger.node') as { OrchestrationTrigger: typeof OrchestrationTrigger }).OrchestrationTrigger;
		});
		const workflowId = `wf-two-processes-${Date.now()}`;
		let db: IDataObject = {};
		// Each request reads the static data from the database and saves it, whole, when changed.
		const request = async (process: 1 | 2, env: { body: string; headers: Record<string, string> }, save = true) => {
			const h = triggerHarness({ parameters: existing(), staticData: JSON.parse(JSON.stringify(db)), workflowId, nodeType: process === 2 ? new Other!() : undefined });
			const answer = await deliverInMemory(h, env.body, env.headers);
			const changed = (h.workflow.staticData as { __dataChanged?: boolean }).__dataChanged === true;
			return { answer, save: () => changed && save && (db = JSON.parse(JSON.stringify(h.workflow.staticData))) };
		};
		const a = signed(envelope());
		const b = signed(envelope());
		const c = signed(envelope());
		const first = await request(1, a); // process 1 accepts a ...
		const second = await request(2, b); // ... while process 2, which read the same data, accepts b
		first.save();
		second.save(); // last writer wins: a is no longer stored
		const stored = () => readMemory((db['node:Orchestration Trigger'] as IDataObject).deliveries);
		const keyOf = (env: { body: string }) => {
			const { event, data } = JSON.parse(env.body) as { event: string; data: IDataObject };
			return compactKey(JSON.stringify([data.id, event, data.updatedAt]));
		};
		expect(memoryHas(stored(), keyOf(a))).toBe(false);
		// Process 1 still catches a copy of a; its next accepted delivery writes a again.
		const copyAt1 = await request(1, { body: a.body, headers: signedHeaders(SECRET, a.body, Date.now() + 21) });
		expect(copyAt1.answer.json?.ignored).toBe('duplicate');
		(await request(1, c)).save();
		expect([a, b, c].map((env) => memoryHas(stored(), keyOf(env)))).toEqual([true, true, true]);
		const copyAt2 = await request(2, { body: a.body, headers: signedHeaders(SECRET, a.body, Date.now() + 22) });
		expect(copyAt2.answer.json?.ignored).toBe('duplicate');
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
