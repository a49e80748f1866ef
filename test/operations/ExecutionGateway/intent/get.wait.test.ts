/**
 * Execution Gateway 1.2: Intent > Get / Execute wait with the Orchestration node's top-level wait
 * parameters (pollIntervalSeconds >= 3 s, waitTimeoutSeconds, onTimeout: returnLastState), say how
 * the wait ended, report it as a hint, and stop at once on Stop (n8n's execution cancel signal).
 */
import { executeNodeWithHints } from '../../../harness/n8n';
import { depositParams, gatewayHarness, run, startGatewayEnv, type GatewayEnv } from '../../../harness/gateway';

const V = { typeVersion: 1.2 };

describe('Intent > Get (Execution Gateway 1.2): the shared wait', () => {
	let env: GatewayEnv;
	beforeAll(async () => {
		env = await startGatewayEnv();
		await env.control('POST', '/sandbox/gateway/config', { autoAdvance: false });
	});
	afterAll(async () => await env.close());

	async function pendingIntent(): Promise<string> {
		const [accepted] = await run(gatewayHarness(env, depositParams([]), V));
		return String(accepted.submissionId);
	}

	it('Intent > Get: a timeout returns the last status with waitEndedBy when asked, and a hint says so', async () => {
		const submissionId = await pendingIntent();
		const h = gatewayHarness(env, { resource: 'intent', operation: 'get', submissionId, waitUntilFinal: true, waitTimeoutSeconds: 1, onTimeout: 'returnLastState' }, V);
		const { output, hints } = await executeNodeWithHints(h, [{ json: {} }]);
		expect(output![0][0].json).toMatchObject({ submissionId, status: 'ACCEPTED', waitEndedBy: 'timeout', waitTimedOut: true });
		expect(hints).toEqual([expect.objectContaining({ type: 'warning', message: expect.stringMatching(new RegExp(`^Item 0: intent ${submissionId} was still ACCEPTED at the wait timeout`)) })]);
	});

	it('the wait reads at most every 3 s even when asked for 1 s, and ends on FINALIZED', async () => {
		const submissionId = await pendingIntent();
		env.proxy.requests.length = 0;
		const h = gatewayHarness(env, { resource: 'intent', operation: 'get', submissionId, waitUntilFinal: true, pollIntervalSeconds: 1, waitTimeoutSeconds: 30 }, V);
		const waiting = executeNodeWithHints(h, [{ json: {} }]);
		const reads = () => env.proxy.to(`/api/v1/intents/${submissionId}`);
		while (reads().length < 2) await new Promise((r) => setTimeout(r, 50));
		await env.control('POST', `/sandbox/intents/${submissionId}/advance`, { status: 'FINALIZED' });
		const { output, hints } = await waiting;
		expect(output![0][0].json).toMatchObject({ submissionId, status: 'FINALIZED', waitEndedBy: 'final', waitTimedOut: false });
		expect(hints[0]).toMatchObject({ type: 'info' });
		// 3 s from each answer to the next read (not 1 s): the proxy saw the reads at least that far apart
		const at = reads().map((r) => r.at);
		expect(at.length).toBeGreaterThanOrEqual(3);
		for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(3000);
	});

	it('Stop ends the wait at once', async () => {
		const submissionId = await pendingIntent();
		const stop = new AbortController();
		env.proxy.reset();
		// Polls a minute apart, for two minutes: only Stop can end this run within the test's timeout.
		const h = gatewayHarness(env, { resource: 'intent', operation: 'get', submissionId, waitUntilFinal: true, pollIntervalSeconds: 60, waitTimeoutSeconds: 120 }, V);
		const waiting = executeNodeWithHints(h, [{ json: {} }], stop.signal);
		// precondition: the wait began (its first read answered)
		while (!env.proxy.to(`/api/v1/intents/${submissionId}`).some((r) => r.status !== undefined)) await new Promise((r) => setTimeout(r, 20));
		stop.abort();
		const { error } = await waiting;
		expect(error?.message).toBe('The wait was stopped: the execution was cancelled');
		expect(env.proxy.to(`/api/v1/intents/${submissionId}`)).toHaveLength(1);
	});

	it('Stop while the first read is in flight ends the wait the same way', async () => {
		const submissionId = await pendingIntent();
		const stop = new AbortController();
		env.proxy.reset();
		// the first read held 10 s by the sandbox: Stop lands before any answer (checked below)
		const faults = `${env.sb.orchestrationUrl}/sandbox/faults`;
		const armed = await fetch(faults, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ service: 'gateway', method: 'GET', path: `/api/v1/intents/${submissionId}`, mode: 'latency', latencyMs: 10_000, times: 1 }) });
		expect(armed.status).toBe(201);
		const h = gatewayHarness(env, { resource: 'intent', operation: 'get', submissionId, waitUntilFinal: true, pollIntervalSeconds: 60, waitTimeoutSeconds: 120 }, V);
		const waiting = executeNodeWithHints(h, [{ json: {} }], stop.signal);
		// precondition: the read reached the proxy and has no answer yet
		while (env.proxy.to(`/api/v1/intents/${submissionId}`).length === 0) await new Promise((r) => setTimeout(r, 20));
		expect(env.proxy.to(`/api/v1/intents/${submissionId}`).map((r) => r.status)).toEqual([undefined]);
		stop.abort();
		const { error } = await waiting;
		expect(error?.message).toBe('The wait was stopped: the execution was cancelled');
		// the held answer comes and goes before the sandbox closes (it waits for open connections)
		while (env.proxy.to(`/api/v1/intents/${submissionId}`)[0].status === undefined) await new Promise((r) => setTimeout(r, 50));
		await fetch(`${faults}?service=gateway`, { method: 'DELETE' });
	}, 60_000);
});
