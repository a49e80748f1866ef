/**
 * The webhook handler's contract without the sandbox: description names, check order, the
 * duplicate check at run time (n8n's processed-data store, owner marks, retries) and the window,
 * event selection and the output shape. Deliveries are signed here with node:crypto.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { OrchestrationTrigger } from '../../../nodes/OrchestrationTrigger/OrchestrationTrigger.node';
import { testCredential, type WebhookServer } from '../../harness/n8n';
import { failNextStoreCall, storeCalls, storedEntries } from '../../harness/processedStore';
import { ORDER_EVENTS } from '../../../nodes/shared/orchestration/enums';
import { completeRun, deliverInMemory, effectiveRuns, envelope, inOtherProcess, post, serveTrigger, signedHeaders, triggerHarness } from '../../harness/trigger';

const SECRET = 'whsec_webhook_contract_0123456789';
const RECOVERY_SECRET = 'whsec_recovery_contract_0123456789';
const existing = (extra: INodeParameters = {}): INodeParameters => ({ registration: 'existingEndpoint', webhookSecret: SECRET, ...extra });

/**
 * Each attempt gets a fresh timestamp (spec §6 rule 2), so a re-send is a retry, never a replay of one
 * signature. order.recovery_required comes from the recovery subscription, signed with its secret.
 */
let lastTimestamp = 0;
function signed(env: IDataObject | string) {
	const body = typeof env === 'string' ? env : JSON.stringify(env);
	lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
	const recovery = typeof env !== 'string' && env.event === 'order.recovery_required';
	return { body, headers: signedHeaders(recovery ? RECOVERY_SECRET : SECRET, body, lastTimestamp) };
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
			// Automatic registration; Existing Endpoint with Readable Amounts (that parameter exists there only).
			expect.objectContaining({ name: 'orchestrationServerApi', required: true, displayOptions: { hide: { readableAmounts: [false] } } }),
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
			deduplicationWindow: 10_000,
			includeHeaders: false,
			includeSensitiveHeaders: false,
			keepEndpoint: true,
			onlyData: false,
			toleranceSeconds: 300,
		});
		expect(String(byName.notice.displayName)).toMatch(/Deactivating, re-publishing or updating the workflow keeps them/);
		expect(byName.readableAmounts).toMatchObject({ type: 'boolean', default: false, displayOptions: { show: { registration: ['existingEndpoint'] } } });
	});
});

describe('Orchestration Trigger: the secret credential test', () => {
	it('says OK for a usable secret and names the problem of one that cannot be an HMAC key', async () => {
		const h = triggerHarness({ parameters: { registration: 'existingEndpoint' } });
		const check = (secret: unknown) => testCredential(h, 'webhookSecretCheck', 'orchestrationWebhookSecretApi', { secret } as never);
		expect(await check(SECRET)).toMatchObject({ status: 'OK' });
		expect(await check('short')).toEqual({ status: 'Error', message: 'Not usable: the webhook secret has 5 characters; at least 16 are expected' });
		expect(await check(undefined)).toEqual({ status: 'Error', message: 'Not usable: no webhook secret is set' });
		// The optional recovery secret: empty is fine, set it must be usable too.
		const both = (recoverySecret: unknown) => testCredential(h, 'webhookSecretCheck', 'orchestrationWebhookSecretApi', { secret: SECRET, recoverySecret } as never);
		expect(await both('')).toMatchObject({ status: 'OK' });
		expect(await both(RECOVERY_SECRET)).toMatchObject({ status: 'OK' });
		expect(await both('short')).toEqual({ status: 'Error', message: 'Not usable: the recovery secret has 5 characters; at least 16 are expected' });
	});
});

describe('Orchestration Trigger: webhook handler', () => {
	const servers: WebhookServer[] = [];
	afterAll(async () => {
		await Promise.all(servers.map((s) => s.close()));
	});
	async function serve(parameters: INodeParameters) {
		const h = triggerHarness({ parameters, secretCredential: { secret: SECRET, recoverySecret: RECOVERY_SECRET } });
		const server = await serveTrigger(h);
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
				deliveryId: expect.stringMatching(/^[0-9a-f-]{36}$/),
				replayKey: expect.stringMatching(/^sig:[0-9a-f]{64}$/),
				signatureTimestamp: Number(headers['x-service-timestamp']),
				signatureTime: new Date(Number(headers['x-service-timestamp'])).toISOString(),
				duplicateKey: JSON.stringify([data.id, 'order.delivering', data.updatedAt]),
				receivedAt: expect.any(String),
			},
		});
		// the run shapes it once: the order in the status (flat) shape beside the raw data (this data is flat already)
		expect(await completeRun(h, server.runs[0])).toEqual([{ json: { ...json, order: data }, pairedItem: { item: 0 } }]);
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

	it('answers an accepted delivery only through n8n: webhook() neither answers it nor writes static data', async () => {
		// n8n answers 200 once it created the execution (responseMode onReceived), 500 when it cannot:
		// the service then retries. Nothing is remembered before the execution exists (spec §6).
		const activated = { 'node:Orchestration Trigger': { activatedAt: new Date().toISOString() } };
		const h = triggerHarness({ parameters: existing(), staticData: JSON.parse(JSON.stringify(activated)) as IDataObject });
		const root = h.workflow.staticData as IDataObject & { __dataChanged?: boolean };
		const env = signed(envelope());
		const accepted = await deliverInMemory(h, env.body, env.headers);
		expect(accepted.result.noWebhookResponse).toBeUndefined();
		expect(accepted.result.workflowData?.[0]).toHaveLength(1);
		expect(root.__dataChanged).toBe(false);
		expect(JSON.parse(JSON.stringify(h.workflow.staticData))).toEqual(activated);
		// Each request gets its own delivery id (the owner mark of its run); a copy, another one.
		const again = await deliverInMemory(h, env.body, signedHeaders(SECRET, env.body, Date.now() + 3));
		const idOf = (r: typeof accepted) => (r.result.workflowData![0][0].json.delivery as IDataObject).deliveryId;
		expect(idOf(accepted)).toMatch(/^[0-9a-f-]{36}$/);
		expect(idOf(again)).not.toBe(idOf(accepted));
		// The run writes no static data either, in single mode (stored copy) and on a queue worker (empty).
		for (const staticData of [JSON.parse(JSON.stringify(activated)) as IDataObject, {}]) {
			const run = triggerHarness({ parameters: existing(), staticData, workflowId: h.workflow.id });
			const runRoot = run.workflow.staticData as IDataObject & { __dataChanged?: boolean };
			await completeRun(run, accepted.result.workflowData![0]);
			expect(runRoot.__dataChanged).toBe(false);
		}
	});

	it('dedupes at run time on (data.id, event, data.updatedAt), not on the bytes or the signature timestamp', async () => {
		const { h, server } = await serve(existing());
		const env = envelope({ id: 'ord_same', event: 'order.bridging', updatedAt: '2025-02-02T00:00:00.000Z' });
		await post(server.url, JSON.stringify(env), signedHeaders(SECRET, JSON.stringify(env)));
		// Same key, other bytes (a member added and re-ordered), fresh signature: still the same event.
		const reworded = { data: { ...(env.data as IDataObject), extra: true }, event: env.event };
		const rewordedBody = JSON.stringify(reworded);
		// The process that ran the event answers the copy itself (no execution).
		const again = await post(server.url, rewordedBody, signedHeaders(SECRET, rewordedBody, Date.now() + 5));
		expect(again.json?.ignored).toBe('duplicate');
		expect(server.runs).toHaveLength(1);
		// Another process (no run of its own yet): the copy gets an execution, whose run stops at the trigger.
		const copy = await deliverInMemory(otherProcess(h), rewordedBody, signedHeaders(SECRET, rewordedBody, Date.now() + 6));
		expect(copy.result.workflowData?.[0]).toHaveLength(1);
		expect(await completeRun(h, copy.result.workflowData![0])).toEqual([]);
		// Another updatedAt or another event of the same order is a new event.
		for (const other of [
			envelope({ id: 'ord_same', event: 'order.bridging', updatedAt: '2025-02-02T00:00:01.000Z' }),
			envelope({ id: 'ord_same', event: 'order.swapping', updatedAt: '2025-02-02T00:00:00.000Z' }),
		]) {
			const { body, headers } = signed(other);
			expect((await post(server.url, body, headers)).status).toBe(200);
		}
		expect(effectiveRuns(server)).toHaveLength(3);
	});

	it('dedupes on a hash of the payload when the snapshot has no updatedAt', async () => {
		const { h, server } = await serve(existing());
		const env = { event: 'order.completed', data: { id: 'ord_no_updated_at', status: 'completed' } };
		const body = JSON.stringify(env);
		await post(server.url, body, signedHeaders(SECRET, body));
		const copy = await deliverInMemory(otherProcess(h), body, signedHeaders(SECRET, body, Date.now() + 3));
		expect(copy.result.workflowData?.[0]).toHaveLength(1);
		expect(await completeRun(h, copy.result.workflowData![0])).toEqual([]);
		expect(effectiveRuns(server)).toHaveLength(1);
		expect(String((server.runs[0][0].json.delivery as IDataObject).duplicateKey)).toMatch(/^sha256:[0-9a-f]{64}$/);
	});

	it("keeps n8n's store bounded by the window (two entries an event), oldest forgotten first", async () => {
		const h = triggerHarness({ parameters: existing({ options: { deduplicationWindow: 3 } }) });
		const items = async (env: IDataObject) => {
			const { body, headers } = signed(env);
			return (await deliverInMemory(h, body, headers)).result.workflowData![0];
		};
		const envs = await Promise.all(Array.from({ length: 4 }, async () => await items(envelope())));
		for (const env of envs) expect(await completeRun(h, env)).toHaveLength(1);
		expect(storedEntries(h.workflow.id!, h.node.id)).toBe(6);
		// The newest three are still caught; the evicted first one runs again.
		expect(await completeRun(h, copyOf(envs[3]))).toEqual([]);
		expect(await completeRun(h, copyOf(envs[0]))).toHaveLength(1);
		expect(storedEntries(h.workflow.id!, h.node.id)).toBe(6);
	});

	it('a retry of a crashed execution runs downstream once: the owner lineage runs, a copy and its retry do not', async () => {
		const h = triggerHarness({ parameters: existing() });
		const deliver = async (env: IDataObject) => {
			const { body, headers } = signed(env);
			return (await deliverInMemory(h, body, headers)).result.workflowData![0];
		};
		const env = envelope();
		const first = await deliver(env);
		const copy = copyOf(first);
		expect(await completeRun(h, first)).toHaveLength(1);
		expect(await completeRun(h, copy)).toEqual([]);
		// n8n's Retry re-runs the execution with the same input item (mode retry).
		expect(await completeRun(h, first, 'retry')).toHaveLength(1);
		expect(await completeRun(h, copy, 'retry')).toEqual([]);
		// An execution that crashed before its trigger ran (worker killed while queued): its retry runs
		// and records the event, so a later copy stops at the trigger; a second retry of it still runs.
		const queued = await deliver(envelope());
		expect(await completeRun(h, queued, 'retry')).toHaveLength(1);
		expect(await completeRun(h, copyOf(queued))).toEqual([]);
		expect(await completeRun(h, queued, 'retry')).toHaveLength(1);
		// Manual runs (test URL, one request each) are not checked; pinned items without keys run.
		expect(await completeRun(h, copy, 'manual')).toHaveLength(1);
		expect(await completeRun(h, [{ json: { event: 'order.completed', data: { id: 'ord_pinned' } } }])).toHaveLength(1);
	});

	it('with deduplication off drops only an exact copy of one signed request', async () => {
		const h = triggerHarness({ parameters: existing({ options: { deduplicate: false } }) });
		const env = envelope();
		const { body, headers } = signed(env);
		const run = async (hdrs: Record<string, string>) => (await deliverInMemory(h, body, hdrs)).result.workflowData![0];
		const first = await run(headers);
		expect(await completeRun(h, first)).toHaveLength(1);
		// The same signed request again (an exact copy, as an attacker or a proxy would replay it).
		expect(await completeRun(h, copyOf(first))).toEqual([]);
		expect((await deliverInMemory(h, body, headers)).json?.ignored).toBe('duplicate');
		expect(await completeRun(h, await run(signedHeaders(SECRET, body, Date.now() + 7)))).toHaveLength(1);
	});

	it('a store that fails fails the run (visible, retryable), never a blind run', async () => {
		const h = triggerHarness({ parameters: existing() });
		const { body, headers } = signed(envelope());
		const items = (await deliverInMemory(h, body, headers)).result.workflowData![0];
		failNextStoreCall();
		await expect(completeRun(h, items)).rejects.toThrow(/store unavailable/);
		expect(await completeRun(h, items, 'retry')).toHaveLength(1);
	});

	it('takes the checks that wait for their turn together: 20 runs at once, one event each, in a few reads and writes', async () => {
		const h = triggerHarness({ parameters: existing() });
		const items = await Promise.all(
			Array.from({ length: 20 }, async () => {
				const { body, headers } = signed(envelope());
				return (await deliverInMemory(h, body, headers)).result.workflowData![0];
			}),
		);
		const before = storeCalls();
		const outputs = await Promise.all(items.map(async (i) => await completeRun(h, i)));
		expect(outputs.every((o) => o.length === 1)).toBe(true);
		expect(storeCalls() - before).toBeLessThanOrEqual(3);
		expect(storedEntries(h.workflow.id!, h.node.id)).toBe(40);
	});

	it('answers concurrent copies of one event at one process with exactly one run downstream', async () => {
		const h = triggerHarness({ parameters: existing() });
		const env = envelope();
		const body = JSON.stringify(env);
		const copies = await Promise.all(
			Array.from({ length: 10 }, async (_, i) => (await deliverInMemory(h, body, signedHeaders(SECRET, body, Date.now() + i))).result.workflowData![0]),
		);
		const outputs = await Promise.all(copies.map(async (items) => await completeRun(h, items)));
		expect(outputs.filter((o) => o.length > 0)).toHaveLength(1);
	});
});

function otherProcess(h: ReturnType<typeof triggerHarness>, parameters: INodeParameters = existing()): ReturnType<typeof triggerHarness> {
	return inOtherProcess({ parameters, workflowId: h.workflow.id });
}

/** Another request carrying the same delivery (a copy): a new delivery id, the rest as given. */
function copyOf(items: INodeExecutionData[], delivery: IDataObject = {}): INodeExecutionData[] {
	return items.map((i) => ({ json: { ...i.json, delivery: { ...(i.json.delivery as IDataObject), deliveryId: `copy-${Math.random()}`, ...delivery } } }));
}
