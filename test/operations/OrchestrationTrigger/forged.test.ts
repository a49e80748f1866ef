/**
 * Every bad delivery is answered with the right status and starts no run; every good one starts
 * exactly one. Deliveries go over real HTTP to the node's webhook served like n8n serves it.
 */
import type { IDataObject } from 'n8n-workflow';
import { runWebhook, type WebhookServer } from '../../harness/n8n';
import { PUBLIC_KEYS, badDeliveries, replayCases, type BadDelivery } from './corpus';
import {
	deliverInMemory,
	envelope,
	memoryRequest,
	memoryResponse,
	n8nLogger,
	nodeStaticData,
	post,
	serveTrigger,
	effectiveRuns,
	completeRun,
	inOtherProcess,
	sign,
	signedHeaders,
	sleep,
	triggerHarness,
} from '../../harness/trigger';

const SECRET = 'whsec_corpus_0123456789abcdef0123456789abcdef';
const TOLERANCE = 300;
const REPLAYED_EVENTS = 15;

interface Failure {
	name: string;
	expected: string;
	got: string;
}

async function sendCorpus(server: WebhookServer, secret: string): Promise<{ failures: Failure[]; sent: BadDelivery[] }> {
	const failures: Failure[] = [];
	const sent: BadDelivery[] = [];
	for (const make of badDeliveries()) {
		const bad = make(secret, Date.now(), TOLERANCE);
		sent.push(bad);
		const runsBefore = server.runs.length;
		const answer = await post(server.url, bad.body, bad.headers);
		const got = `${answer.status} ${answer.json?.error ?? answer.body}`;
		if (answer.status !== bad.status || answer.json?.error !== bad.error) {
			failures.push({ name: bad.name, expected: `${bad.status} ${bad.error}`, got });
		}
		if (server.runs.length !== runsBefore) failures.push({ name: bad.name, expected: 'no run', got: 'a run started' });
		// The answer names the reason, never the secret or the signature that would have matched.
		const ts = bad.headers['x-service-timestamp'];
		const expectedSignature = typeof ts === 'string' ? sign(secret, ts, bad.body) : undefined;
		if (answer.body.includes(secret) || (expectedSignature && answer.body.includes(expectedSignature))) {
			failures.push({ name: bad.name, expected: 'no secret in the answer', got: answer.body });
		}
	}
	return { failures, sent };
}

describe('Orchestration Trigger: forged and malformed deliveries', () => {
	const servers: WebhookServer[] = [];
	afterAll(async () => {
		await Promise.all(servers.map((s) => s.close()));
	});

	it('has a corpus of at least 200 bad deliveries (forged, tampered, malformed, stale, replayed) with distinct names', () => {
		const names = [
			...badDeliveries().map((make) => make(SECRET, Date.now(), TOLERANCE).name),
			...replayCases(SECRET, Date.now(), REPLAYED_EVENTS).map((c) => c.name),
		];
		expect(names.length).toBeGreaterThanOrEqual(200);
		expect(new Set(names).size).toBe(names.length);
	});

	it.each([
		['deduplication on', {}],
		['deduplication off', { deduplicate: false }],
		['a duplicate window of one event (keys evicted at once)', { deduplicationWindow: 1 }],
	])('starts nothing from any replayed delivery, to either URL, with %s', async (_label, options) => {
		const h = triggerHarness({ parameters: { registration: 'existingEndpoint', webhookSecret: SECRET, options } });
		const production = await serveTrigger(h);
		const test = await serveTrigger(h, { isTest: true });
		servers.push(production, test);
		const cases = replayCases(SECRET, Date.now(), REPLAYED_EVENTS);
		const answers: string[] = [];
		for (const c of cases) {
			expect((await post(production.url, c.body, c.headers)).status).toBe(200);
			const replay = await post(c.toTestUrl ? test.url : production.url, c.body, c.replayHeaders);
			answers.push(`${replay.status} ${replay.json?.ignored}`);
		}
		// The process that ran the original answers its replay itself; nothing runs twice downstream.
		expect(answers).toEqual(cases.map(() => '200 duplicate'));
		expect(production.runs).toHaveLength(cases.length);
		expect(effectiveRuns(production)).toHaveLength(cases.length);
		expect(test.runs).toHaveLength(0);
	});

	it('rejects every bad delivery with its status and reason and starts no run (existing endpoint)', async () => {
		const h = triggerHarness({ parameters: { registration: 'existingEndpoint', webhookSecret: SECRET } });
		const server = await serveTrigger(h);
		servers.push(server);
		const { failures, sent } = await sendCorpus(server, SECRET);
		expect(failures).toEqual([]);
		expect(server.runs).toHaveLength(0);
		expect(sent.filter((b) => b.status === 401).length).toBeGreaterThanOrEqual(100);
		expect(sent.filter((b) => b.status === 400).length).toBeGreaterThanOrEqual(10);

		// The same endpoint still accepts genuine deliveries afterwards: exactly one run each.
		const good = Array.from({ length: 25 }, (_, i) => envelope({ event: i % 2 ? 'order.processing' : 'order.completed' }));
		for (const env of good) {
			const body = JSON.stringify(env);
			const answer = await post(server.url, body, signedHeaders(SECRET, body));
			expect(answer.status).toBe(200);
		}
		expect(server.runs).toHaveLength(good.length);
		expect(server.runs.map((run) => run.length)).toEqual(good.map(() => 1));
		expect(server.runs.map((run) => run[0].json.data)).toEqual(good.map((env) => env.data));
	});

	it('rejects the same corpus with a secret registered automatically (kept in static data)', async () => {
		const h = triggerHarness({
			parameters: {},
			staticData: {
				'node:Orchestration Trigger': {
					webhookId: 'wh_corpus',
					secret: SECRET,
					url: 'http://127.0.0.1:5678/webhook/x/webhook',
					baseUrl: 'http://127.0.0.1:9',
					registeredAt: new Date().toISOString(),
				},
			},
		});
		expect(nodeStaticData(h).secret).toBe(SECRET);
		const server = await serveTrigger(h);
		servers.push(server);
		const { failures } = await sendCorpus(server, SECRET);
		expect(failures).toEqual([]);
		expect(server.runs).toHaveLength(0);
		const body = JSON.stringify(envelope());
		expect((await post(server.url, body, signedHeaders(SECRET, body))).status).toBe(200);
		expect(server.runs).toHaveLength(1);
		expect(server.runs[0][0].json.delivery).toMatchObject({ webhookId: 'wh_corpus' });
	});

	describe('cases HTTP cannot carry (in-memory request objects)', () => {
		const h = () => triggerHarness({ parameters: { registration: 'existingEndpoint', webhookSecret: SECRET } });

		it('rejects header arrays (a header sent twice, not joined)', async () => {
			const body = JSON.stringify(envelope());
			const headers = signedHeaders(SECRET, body);
			const sig = await deliverInMemory(h(), body, { ...headers, 'x-service-signature': [headers['x-service-signature'], headers['x-service-signature']] });
			expect([sig.status, sig.json?.error]).toEqual([401, 'malformed_signature']);
			expect(sig.result.workflowData).toBeUndefined();
			const ts = await deliverInMemory(h(), body, { ...headers, 'x-service-timestamp': [headers['x-service-timestamp']] });
			expect([ts.status, ts.json?.error]).toEqual([401, 'malformed_timestamp']);
			expect(ts.result.workflowData).toBeUndefined();
		});

		it('rejects a timestamp with surrounding spaces even when the spaces were signed', async () => {
			const body = JSON.stringify(envelope());
			for (const ts of [` ${Date.now()}`, `${Date.now()} `, `\t${Date.now()}`]) {
				const answer = await deliverInMemory(h(), body, { 'x-service-timestamp': ts, 'x-service-signature': sign(SECRET, ts, body) });
				expect([answer.status, answer.json?.error]).toEqual([401, 'malformed_timestamp']);
				expect(answer.result.workflowData).toBeUndefined();
			}
		});

		it('fails closed when the raw body was not kept (500, no run), and reads it when n8n offers readRawBody', async () => {
			const body = JSON.stringify(envelope());
			const headers = signedHeaders(SECRET, body);
			const missing = await deliverInMemory(h(), undefined, headers);
			expect([missing.status, missing.json?.error]).toEqual([500, 'raw_body_unavailable']);
			expect(missing.result.workflowData).toBeUndefined();

			const req = memoryRequest(undefined, headers) as ReturnType<typeof memoryRequest> & { readRawBody: () => Promise<void> };
			req.readRawBody = async () => {
				req.rawBody = Buffer.from(body);
			};
			const result = await runWebhook(h(), req, memoryResponse().res);
			expect(result.workflowData?.[0]).toHaveLength(1);
		});

		it('never verifies against a re-serialized body: the parsed body is ignored', async () => {
			const env = envelope();
			const raw = JSON.stringify(env, null, 1);
			// Signature over the compact JSON, raw bytes indented: a verifier using req.body would accept.
			const req = memoryRequest(raw, signedHeaders(SECRET, JSON.stringify(env)));
			const mem = memoryResponse();
			const result = await runWebhook(h(), req, mem.res);
			expect(result.workflowData).toBeUndefined();
			expect(mem.answer().status).toBe(401);
		});

		it('answers 500 without a stored registration in automatic mode and starts no run', async () => {
			const body = JSON.stringify(envelope());
			const answer = await deliverInMemory(triggerHarness({ parameters: {} }), body, signedHeaders(SECRET, body));
			expect([answer.status, answer.json?.error]).toEqual([500, 'secret_unavailable']);
			expect(answer.result.workflowData).toBeUndefined();
		});
	});

	describe('replays and the clock window', () => {
		it('answers a replay inside the tolerance 200 as a replay, and 401 stale once the tolerance has passed', async () => {
			// 3 s: room for a loaded machine to send both before the tolerance passes
			const h = triggerHarness({ parameters: { registration: 'existingEndpoint', webhookSecret: SECRET, options: { toleranceSeconds: 3 } } });
			const server = await serveTrigger(h);
			servers.push(server);
			const body = JSON.stringify(envelope());
			const signedAt = Date.now();
			const headers = signedHeaders(SECRET, body, signedAt);
			expect((await post(server.url, body, headers)).status).toBe(200);
			const replay = await post(server.url, body, headers);
			expect([replay.status, replay.json?.ignored]).toEqual([200, 'duplicate']);
			await sleep(signedAt + 3200 - Date.now());
			const late = await post(server.url, body, headers);
			expect([late.status, late.json?.error]).toEqual([401, 'stale_timestamp']);
			expect(server.runs).toHaveLength(1);
		});

		it('accepts deliveries just inside the tolerance, either side of the clock', async () => {
			const h = triggerHarness({ parameters: { registration: 'existingEndpoint', webhookSecret: SECRET } });
			const server = await serveTrigger(h);
			servers.push(server);
			for (const offset of [-(TOLERANCE - 1) * 1000, (TOLERANCE - 1) * 1000]) {
				const body = JSON.stringify(envelope());
				expect((await post(server.url, body, signedHeaders(SECRET, body, Date.now() + offset))).status).toBe(200);
			}
			expect(server.runs).toHaveLength(2);
		});

		it('without deduplication a replay inside the tolerance starts nothing; a retry with a fresh signature runs', async () => {
			const h = triggerHarness({
				parameters: { registration: 'existingEndpoint', webhookSecret: SECRET, options: { deduplicate: false } },
			});
			const server = await serveTrigger(h);
			servers.push(server);
			const body = JSON.stringify(envelope());
			const headers = signedHeaders(SECRET, body);
			await post(server.url, body, headers);
			const replays = await Promise.all([1, 2, 3].map(() => post(server.url, body, headers)));
			expect(replays.map((r) => r.json?.ignored)).toEqual(['duplicate', 'duplicate', 'duplicate']);
			const upper = { ...headers, 'x-service-signature': headers['x-service-signature'].toUpperCase() };
			expect((await post(server.url, body, upper)).json?.ignored).toBe('duplicate');
			expect(server.runs).toHaveLength(1);
			// Deduplication off: the service's retry (same event, fresh timestamp and signature) runs again.
			expect((await post(server.url, body, signedHeaders(SECRET, body, Date.now() + 5))).status).toBe(200);
			expect(server.runs).toHaveLength(2);
		});

		it('a replay runs nothing downstream: answered by the process that ran it, dropped by the run in another', async () => {
			const h = triggerHarness({ parameters: { registration: 'existingEndpoint', webhookSecret: SECRET } });
			const first = JSON.stringify(envelope());
			const headers = signedHeaders(SECRET, first);
			const accepted = await deliverInMemory(h, first, headers);
			expect(await completeRun(h, accepted.result.workflowData![0])).toHaveLength(1);
			const replay = await deliverInMemory(h, first, headers);
			expect([replay.status, replay.json?.ignored, replay.result.workflowData]).toEqual([200, 'duplicate', undefined]);
			// After a restart (no process memory): an execution, whose run finds the event in n8n's store.
			const restarted = inOtherProcess({ parameters: { registration: 'existingEndpoint', webhookSecret: SECRET }, workflowId: h.workflow.id });
			const again = await deliverInMemory(restarted, first, headers);
			expect(again.result.workflowData?.[0]).toHaveLength(1);
			expect(await completeRun(restarted, again.result.workflowData![0])).toEqual([]);
		});

		it('a production delivery replayed to the test URL starts nothing (existing endpoint: one secret for both)', async () => {
			const h = triggerHarness({ parameters: { registration: 'existingEndpoint', webhookSecret: SECRET } });
			const body = JSON.stringify(envelope());
			const headers = signedHeaders(SECRET, body);
			const accepted = await deliverInMemory(h, body, headers);
			expect(await completeRun(h, accepted.result.workflowData![0])).toHaveLength(1);
			const atTestUrl = await deliverInMemory(h, body, headers, true);
			expect([atTestUrl.status, atTestUrl.json?.ignored, atTestUrl.result.workflowData]).toEqual([200, 'duplicate', undefined]);
		});

		it('accepts upper-case hex of the correct signature (protocol core policy: case carries no information)', async () => {
			const h = triggerHarness({ parameters: { registration: 'existingEndpoint', webhookSecret: SECRET } });
			const body = JSON.stringify(envelope());
			const headers = signedHeaders(SECRET, body);
			const answer = await deliverInMemory(h, body, { ...headers, 'x-service-signature': headers['x-service-signature'].toUpperCase() });
			expect(answer.result.workflowData?.[0]).toHaveLength(1);
		});
	});
});

describe('Orchestration Trigger: the secret of an existing endpoint (issue 14, point 3)', () => {
	const body = JSON.stringify(envelope());
	/** A delivery signed with each public key and with the text the value would have become. */
	const forgeries = (value: unknown) => [...PUBLIC_KEYS, String(value)].map((key) => signedHeaders(key, body));

	async function expectRefused(h: ReturnType<typeof triggerHarness>, value: unknown): Promise<void> {
		for (const headers of forgeries(value)) {
			const answer = await deliverInMemory(h, body, headers);
			expect([answer.status, answer.json?.error]).toEqual([500, 'secret_unavailable']);
			expect(answer.result.workflowData).toBeUndefined();
			if (typeof value === 'string' && value.length > 0) expect(answer.body).not.toContain(value);
		}
	}

	it.each([
		['missing', undefined],
		['null', null],
		['an object', { secret: SECRET }],
		['an array', [SECRET]],
		['a number', 1234567890123456],
		['a boolean', true],
		['empty', ''],
		['too short', 'whsec_short'],
		['spaces only', ' '.repeat(40)],
	])('a credential whose secret is %s answers 500 with the reason and starts nothing', async (_label, value) => {
		const h = triggerHarness({ parameters: { registration: 'existingEndpoint' }, secretCredential: { secret: value } as IDataObject });
		await expectRefused(h, value);
	});

	it('version 1.1 without the credential answers 500 and starts nothing', async () => {
		await expectRefused(triggerHarness({ parameters: { registration: 'existingEndpoint' } }), undefined);
	});

	it.each([
		['an expression resolving to undefined', '={{ undefined }}'],
		['an expression resolving to null', '={{ null }}'],
		['an expression resolving to an object', '={{ { a: 1 } }}'],
		['an expression reading a missing member', '={{ $json.secret }}'],
		['a failing expression', '={{ $nope.secret }}'],
		['a short string', 'abc123'],
	])('the version 1 parameter as %s answers 500 and starts nothing', async (_label, webhookSecret) => {
		const h = triggerHarness({ typeVersion: 1, parameters: { registration: 'existingEndpoint', webhookSecret } });
		await expectRefused(h, webhookSecret.startsWith('=') ? undefined : webhookSecret);
	});

	it('the version 1 parameter keeps working when it is a real string; the credential works in 1.1', async () => {
		for (const h of [
			triggerHarness({ typeVersion: 1, parameters: { registration: 'existingEndpoint', webhookSecret: SECRET } }),
			triggerHarness({ parameters: { registration: 'existingEndpoint' }, secretCredential: { secret: SECRET } }),
		]) {
			const env = JSON.stringify(envelope());
			expect((await deliverInMemory(h, env, signedHeaders(SECRET, env))).result.workflowData).toHaveLength(1);
			expect((await deliverInMemory(h, env, signedHeaders('undefined', env))).status).toBe(401);
		}
	});
});

describe('Orchestration Trigger: refusals in n8n\'s log (issue 12)', () => {
	it('logs every refused delivery at warn with its reason, never the secret, the signature or the body', async () => {
		const h = triggerHarness({ parameters: { registration: 'existingEndpoint', webhookSecret: SECRET } });
		const warn = jest.spyOn(n8nLogger(h), 'warn').mockImplementation(() => {});
		try {
			const sent: BadDelivery[] = badDeliveries().map((make) => make(SECRET, Date.now(), TOLERANCE));
			for (const bad of sent) await deliverInMemory(h, bad.body, bad.headers);
			expect(warn).toHaveBeenCalledTimes(sent.length);
			sent.forEach((bad, i) => {
				const [message, meta] = warn.mock.calls[i] as [string, IDataObject];
				expect(message).toBe(`Orchestration Trigger refused a delivery: ${bad.error}`);
				expect(meta).toMatchObject({ reason: bad.error, status: bad.status, workflowId: h.workflow.id, node: 'Orchestration Trigger' });
				const logged = JSON.stringify(warn.mock.calls[i]);
				expect(logged).not.toContain(SECRET);
				const ts = bad.headers['x-service-timestamp'];
				if (typeof ts === 'string') expect(logged).not.toContain(sign(SECRET, ts, bad.body));
				const given = bad.headers['x-service-signature'];
				if (typeof given === 'string' && given.length >= 16) expect(logged).not.toContain(given);
				if (bad.body.length > 20) expect(logged).not.toContain(bad.body.toString('utf8'));
			});
			// A misconfiguration is a refusal too; an accepted delivery, a copy and a replay are not (runs drop them).
			warn.mockClear();
			const body = JSON.stringify(envelope({ data: { note: 'body-marker-7f3a' } }));
			const headers = signedHeaders(SECRET, body);
			await deliverInMemory(h, body, headers);
			await deliverInMemory(h, body, signedHeaders(SECRET, body, Date.now() + 2));
			await deliverInMemory(h, body, headers);
			expect(warn).not.toHaveBeenCalled();
			const misconfigured = triggerHarness({ parameters: { registration: 'existingEndpoint' }, secretCredential: { secret: null } as IDataObject });
			await deliverInMemory(misconfigured, body, headers);
			expect((warn.mock.calls[0][1] as IDataObject).reason).toBe('secret_unavailable');
			expect(JSON.stringify(warn.mock.calls)).not.toContain('body-marker-7f3a');
		} finally {
			warn.mockRestore();
		}
	});
});
