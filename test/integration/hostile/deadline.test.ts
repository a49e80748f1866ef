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

/** Open connections once the client has closed every one (a deadline that never fires holds the test to its timeout). */
async function connectionsClosed(): Promise<number> {
	while (trickler.open() > 0) await new Promise((r) => setTimeout(r, 20));
	return trickler.open();
}

/** Each attempt ended by the client before the trickled answer was whole (60 s at this pace): its deadline did it. */
function expectCutShort(): void {
	expect(trickler.requests.map((r) => r.complete)).toEqual(trickler.requests.map(() => false));
	for (const r of trickler.requests) expect(r.bytesSent).toBeLessThan(BODY.length);
}

describe('a trickling answer', () => {
	it('Get Status (a read, retried): 4 attempts of 0.5 s each, then a network error naming the deadline', async () => {
		const started = Date.now();
		const error = await runError(orchestrationNode({ sb, baseUrl: trickler.url, parameters: { resource: 'order', operation: 'getStatus', id: 'ord_trickle' } }));
		const took = Date.now() - started;
		expect(error.message).toBe('The service did not answer completely within 0.5 s, after 4 attempt(s) (each attempt has this deadline)');
		expect(trickler.requests).toHaveLength(4);
		// 4 deadlines and 3 back-offs (0.5 + 1 + 2 s): at least 5 s (about 5.5: `npm run bench -- bounds`),
		// each attempt cut short, never the 60 s of one trickled answer.
		expect(took).toBeGreaterThanOrEqual(5_000);
		expectCutShort();
		expect(await connectionsClosed()).toBe(0);
	}, 20_000);

	it('the gateway (Network Info through the same transport): the same bound', async () => {
		const error = await gatewayError(gatewayHarness({ url: trickler.url, signerKey: sb.keys.gateway.privateKeys[0] }, { resource: 'network', operation: 'getInfo' }));
		expect(error.message).toMatch(/did not answer completely within 0\.5 s, after 4 attempt/);
		expect(trickler.requests).toHaveLength(4);
		expectCutShort();
		expect(await connectionsClosed()).toBe(0);
	}, 20_000);

	it("the gateway's authentication (challenge trickled): ends at its own deadline, naming it", async () => {
		// The attempt's deadline covers the authentication too; here the authentication's own one is shorter.
		requestTimeout.ms = 5_000;
		const error = await gatewayError(gatewayHarness({ url: trickler.url, signerKey: sb.keys.gateway.privateKeys[0] }, { resource: 'intent', operation: 'get', submissionId: 'sub-trickle' }));
		expect(error.message).toMatch(/authentication failed at the challenge: no complete answer within 0\.5 s/);
		expect(trickler.requests.map((r) => r.url)).toEqual(['/api/v1/auth/challenge']);
		// Cut at the authentication's 0.5 s, not the attempt's 5 s: 0.5 s is 5 bytes at this pace, 5 s about 50.
		expectCutShort();
		expect(trickler.requests[0].bytesSent).toBeLessThan(40);
		expect(await connectionsClosed()).toBe(0);
	}, 20_000);
});
