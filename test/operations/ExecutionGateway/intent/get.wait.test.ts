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
		await new Promise((r) => setTimeout(r, 3500));
		const reads = env.proxy.to(`/api/v1/intents/${submissionId}`);
		// the first read at once, the second 3 s later (not 1 s): two reads in 3.5 s, not four
		expect(reads).toHaveLength(2);
		await env.control('POST', `/sandbox/intents/${submissionId}/advance`, { status: 'FINALIZED' });
		const { output, hints } = await waiting;
		expect(output![0][0].json).toMatchObject({ submissionId, status: 'FINALIZED', waitEndedBy: 'final', waitTimedOut: false });
		expect(hints[0]).toMatchObject({ type: 'info' });
	});

	it('Stop ends the wait at once', async () => {
		const submissionId = await pendingIntent();
		const stop = new AbortController();
		const started = Date.now();
		const h = gatewayHarness(env, { resource: 'intent', operation: 'get', submissionId, waitUntilFinal: true, pollIntervalSeconds: 60, waitTimeoutSeconds: 120 }, V);
		const waiting = executeNodeWithHints(h, [{ json: {} }], stop.signal);
		await new Promise((r) => setTimeout(r, 300));
		stop.abort();
		const { error } = await waiting;
		expect(error?.message).toBe('The wait was stopped: the execution was cancelled');
		expect(Date.now() - started).toBeLessThan(10_000);
	});
});
