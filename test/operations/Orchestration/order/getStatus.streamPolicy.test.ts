/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * When Order > Get Status's wait opens no event stream, and says so in `waitFallback`: past the
 * service's pace of stream openings (public-notes: 30 connection attempts a minute per IP; the
 * sandbox enforces it), with a client key's quote-bound read token (only status by quoteId takes
 * it), and when the credential turns the stream off (the key would travel in the URL's query).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { OrchestrationClientApi } from '../../../../credentials/OrchestrationClientApi.credentials';
import { OrchestrationServerApi } from '../../../../credentials/OrchestrationServerApi.credentials';
import { Orchestration } from '../../../../nodes/Orchestration/Orchestration.node';
import { clearStreamOpens, NO_STREAM } from '../../../../nodes/Orchestration/helpers/orderWait';
import type { Sandbox } from '../../../../sandbox';
import { createHarness, executeNodeWithHints } from '../../../harness/n8n';
import { CLIENT_ALL, control, items, orchestrationNode, quoteParams, run, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

const TIME_SCALE = 20;

let sb: Sandbox;
beforeAll(async () => {
	// orders move only when a test moves them; the sandbox's limit window is a real minute
	sb = await startTestSandbox({ timeScale: TIME_SCALE, config: { switches: { autoAdvance: false, sseConnections: { enabled: true, perIp: 30, windowMs: 60_000 * TIME_SCALE } } } });
});
afterAll(() => sb.close());
beforeEach(async () => {
	clearStreamOpens();
	await control(sb).reset();
	await control(sb).clearRequests();
});

const sleep = async (ms: number) => await new Promise((r) => setTimeout(r, ms));

/** `n` funded orders in `processing` (they do not move on their own). */
async function orders(n: number, key = SERVER_KEY): Promise<IDataObject[]> {
	const quotes = await run(orchestrationNode({ sb, key, parameters: quoteParams() }), items(n));
	return await Promise.all(
		quotes.map(async (q) => ({ ...q, orderId: (await control(sb).deposit({ depositAddress: q.depositAddress, amount: q.amountIn })).orderId })),
	);
}

function waitParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'order',
		operation: 'getStatus',
		id: '={{ $json.orderId }}',
		waitUntilFinal: true,
		followBy: 'stream',
		pollIntervalSeconds: 3,
		waitTimeoutSeconds: 2,
		onTimeout: 'returnLastState',
		options: { concurrency: 50 },
		...extra,
	};
}

/** The stream openings the sandbox recorded (a stream is recorded once it closes: give it a moment). */
async function streamRequests(): Promise<any[]> {
	await sleep(300);
	const all = await control(sb).requests();
	return all.filter((r: any) => r.route === '/v1/sse/operations/:id');
}

describe('stream openings are paced to the service\'s limit (30 a minute per IP)', () => {
	it('a batch of 34 waits opens 30 streams and polls the other 4, saying why; the service refuses none', async () => {
		const batch = await orders(34);
		const { output, error } = await executeNodeWithHints(orchestrationNode({ sb, parameters: waitParameters() }), batch.map((json) => ({ json })));
		expect(error).toBeUndefined();
		const outs = output![0].map((i) => i.json);
		expect(outs).toHaveLength(34);
		for (const out of outs) expect(out).toMatchObject({ status: 'processing', waitEndedBy: 'timeout' });
		const streamed = outs.filter((o) => o.waitedVia === 'stream');
		const polled = outs.filter((o) => o.waitedVia === 'polling');
		expect(streamed).toHaveLength(30);
		expect(polled).toHaveLength(4);
		for (const o of polled) expect(o.waitFallback).toBe(NO_STREAM.pace);
		const streams = await streamRequests();
		expect(streams).toHaveLength(30);
		expect(streams.map((r: any) => r.status ?? r.statusCode).filter((s: number) => s === 429)).toEqual([]);
	});

	it('when the service says none are left (another process on this IP used them), no stream is tried until its reset', async () => {
		// another client of the same IP takes 30 attempts
		for (let i = 0; i < 30; i++) await fetch(`${sb.orchestrationUrl}/v1/sse/operations/ord_elsewhere_${i}?token=${SERVER_KEY}`);
		const [first, second] = await orders(2);
		const refused = await executeNodeWithHints(orchestrationNode({ sb, parameters: waitParameters() }), [{ json: first }]);
		expect(refused.output![0][0].json).toMatchObject({ waitedVia: 'polling', waitFallback: 'the event stream was refused (HTTP 429 rate_limited)' });
		const before = (await streamRequests()).length;
		const skipped = await executeNodeWithHints(orchestrationNode({ sb, parameters: waitParameters() }), [{ json: second }]);
		expect(skipped.output![0][0].json).toMatchObject({ waitedVia: 'polling', waitFallback: NO_STREAM.serviceLimit });
		expect(await streamRequests()).toHaveLength(before);
	});
});

describe('no stream for a quote-bound read token', () => {
	it('a client key waiting by Quote ID polls status by quoteId through the order\'s life, never opening a stream with the quote\'s token', async () => {
		const [q] = await run(orchestrationNode({ sb, key: CLIENT_ALL, parameters: quoteParams() }));
		expect(typeof q.readToken).toBe('string');
		const params = waitParameters({ lookupBy: 'quoteId', quoteId: '={{ $json.quoteId }}', id: undefined, readToken: '={{ $json.readToken }}', waitTimeoutSeconds: 30 });
		const waiting = executeNodeWithHints(orchestrationNode({ sb, key: CLIENT_ALL, parameters: params }), [{ json: q }]);
		await sleep(300);
		const { orderId } = await control(sb).deposit({ depositAddress: q.depositAddress, amount: q.amountIn });
		// the order exists: the wait now follows it, by polling
		for (let i = 0; i < 200 && !(await control(sb).requests({ path: '/v1/orchestration/status' })).some((r: any) => r.status === 200); i++) await sleep(50);
		await control(sb).advance(orderId, 'completed');
		const { output, error } = await waiting;
		expect(error).toBeUndefined();
		expect(output![0][0].json).toMatchObject({ id: orderId, status: 'completed', waitEndedBy: 'final', waitedVia: 'polling', waitFallback: NO_STREAM.quoteToken });
		expect(await streamRequests()).toEqual([]);
		// every read went by quoteId (the only lookup the quote's token opens)
		const reads = await control(sb).requests({ path: '/v1/orchestration/status' });
		expect(reads.length).toBeGreaterThan(1);
		for (const r of reads) expect(JSON.stringify(r.query)).toContain(String(q.quoteId));
	});
});

describe('the credential\'s "Allow Event Stream"', () => {
	function waitNode(allowEventStream: boolean | undefined) {
		return createHarness({
			nodeType: new Orchestration(),
			credentialTypes: [new OrchestrationServerApi(), new OrchestrationClientApi()],
			credentials: { orchestrationServerApi: { baseUrl: sb.orchestrationUrl, apiKey: SERVER_KEY, ...(allowEventStream === undefined ? {} : { allowEventStream }) } },
			parameters: { authentication: 'serverKey', ...waitParameters() },
			executionId: `allow-stream-${String(allowEventStream)}-${Date.now()}`,
		});
	}

	it('off: the wait polls (the key stays out of every URL) and says why; on, or absent in a stored credential: it streams', async () => {
		const [off, on, absent] = await orders(3);
		const polled = await executeNodeWithHints(waitNode(false), [{ json: off }]);
		expect(polled.output![0][0].json).toMatchObject({ waitedVia: 'polling', waitFallback: NO_STREAM.credential });
		expect(await streamRequests()).toEqual([]);
		for (const r of await control(sb).requests()) expect(JSON.stringify(r)).not.toContain('token');
		const streamed = await executeNodeWithHints(waitNode(true), [{ json: on }]);
		expect(streamed.output![0][0].json).toMatchObject({ waitedVia: 'stream' });
		const stored = await executeNodeWithHints(waitNode(undefined), [{ json: absent }]);
		expect(stored.output![0][0].json).toMatchObject({ waitedVia: 'stream' });
		expect(await streamRequests()).toHaveLength(2);
	});

	it('is a boolean on both Orchestration key credentials, on by default, that says where the key goes', () => {
		for (const credential of [new OrchestrationServerApi(), new OrchestrationClientApi()]) {
			const field = credential.properties.find((p) => p.name === 'allowEventStream');
			expect(field).toMatchObject({ displayName: 'Allow Event Stream', type: 'boolean', default: true });
			expect(field?.description).toMatch(/query/);
		}
		const followBy = new Orchestration().description.properties.find((p) => p.name === 'followBy');
		expect(JSON.stringify(followBy)).toMatch(/key in the stream URL's query/);
		expect(JSON.stringify(followBy)).toMatch(/Allow Event Stream/);
	});
});
