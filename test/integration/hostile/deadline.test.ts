/**
 * Every request has a total deadline. A trickling server answers at once with its headers, then
 * one byte of the body every 100 ms: n8n's idle timeout never fires, so before the deadline one
 * attempt lasted as long as the server liked (here 60 s per attempt). Now each attempt ends at the
 * deadline (requestTimeout.ms, lowered here), the connection is closed, and the call ends with a
 * clear network error after its bounded retries.
 */
import { authDeadline } from '../../../nodes/n8n/transport';
import { requestTimeout } from '../../../nodes/n8n/transport';
import { clearNetworkInfoCache } from '../../../nodes/ExecutionGateway/helpers/gateway';
import { clearPacers } from '../../../nodes/n8n/pacing';
import { gatewayHarness, runError as gatewayError } from '../../harness/gateway';
import { orchestrationNode, runError, startTestSandbox } from '../../harness/orchestration';
import type { Sandbox } from '../../../sandbox';
import { startTrickler, type Trickler } from './servers';

/** 600 bytes at one byte per 100 ms: 60 s for one answer. */
const BODY = JSON.stringify({ pad: 'x'.repeat(588) });
const GAP_MS = 100;

let sb: Sandbox;
let trickler: Trickler;
beforeAll(async () => {
	sb = await startTestSandbox();
	trickler = await startTrickler(BODY, GAP_MS);
});
afterAll(async () => {
	await trickler.close();
	await sb.close();
});
beforeEach(() => {
	trickler.requests.length = 0;
	clearPacers();
	clearNetworkInfoCache();
	requestTimeout.ms = 500;
	authDeadline.ms = 500;
});
afterEach(() => {
	requestTimeout.ms = 30_000;
	authDeadline.ms = 30_000;
});

/** Runs `work`, failing the test (instead of hanging) when it takes longer than `ms`. */
async function within<T>(ms: number, work: Promise<T>): Promise<{ value: T; took: number }> {
	const started = Date.now();
	let guard: NodeJS.Timeout | undefined;
	const late = new Promise<never>((_, reject) => {
		guard = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms);
	});
	try {
		const value = await Promise.race([work, late]);
		return { value, took: Date.now() - started };
	} finally {
		clearTimeout(guard);
	}
}

async function connectionsClosed(): Promise<number> {
	for (let i = 0; i < 50 && trickler.open() > 0; i++) await new Promise((r) => setTimeout(r, 20));
	return trickler.open();
}

describe('a trickling answer', () => {
	it('Get Status (a read, retried): 4 attempts of 0.5 s each, then a network error naming the deadline', async () => {
		const { value: error, took } = await within(
			15_000,
			runError(orchestrationNode({ sb, baseUrl: trickler.url, parameters: { resource: 'order', operation: 'getStatus', id: 'ord_trickle' } })),
		);
		expect(error.message).toBe('The service did not answer completely within 0.5 s, after 4 attempt(s) (each attempt has this deadline)');
		expect(trickler.requests).toHaveLength(4);
		// 4 deadlines and 3 back-offs (0.5 + 1 + 2 s): about 5.5 s, never the 60 s of one trickled answer.
		expect(took).toBeGreaterThanOrEqual(5_000);
		expect(took).toBeLessThan(10_000);
		expect(await connectionsClosed()).toBe(0);
	}, 20_000);

	it('the gateway (Network Info through the same transport): the same bound', async () => {
		const { value: error, took } = await within(
			15_000,
			gatewayError(gatewayHarness({ url: trickler.url, signerKey: sb.keys.gateway.privateKeys[0] }, { resource: 'network', operation: 'getInfo' })),
		);
		expect(error.message).toMatch(/did not answer completely within 0\.5 s, after 4 attempt/);
		expect(trickler.requests).toHaveLength(4);
		expect(took).toBeLessThan(10_000);
		expect(await connectionsClosed()).toBe(0);
	}, 20_000);

	it("the gateway's authentication (challenge trickled): ends at its own deadline, naming it", async () => {
		// The attempt's deadline covers the authentication too; here the authentication's own one is shorter.
		requestTimeout.ms = 5_000;
		const { value: error, took } = await within(
			15_000,
			gatewayError(gatewayHarness({ url: trickler.url, signerKey: sb.keys.gateway.privateKeys[0] }, { resource: 'intent', operation: 'get', submissionId: 'sub-trickle' })),
		);
		expect(error.message).toMatch(/authentication failed at the challenge: no complete answer within 0\.5 s/);
		expect(trickler.requests.map((r) => r.url)).toEqual(['/api/v1/auth/challenge']);
		expect(took).toBeLessThan(3_000);
		expect(await connectionsClosed()).toBe(0);
	}, 20_000);
});
