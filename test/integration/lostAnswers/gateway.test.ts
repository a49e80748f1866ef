/**
 * Lost answers on the gateway (issue 10): POST /api/v1/execute admits the intent, then its answer
 * is dropped or comes after the node's timeout. The node resends the same signed bytes; the
 * gateway refuses the replayed nonce, and the node reports that the intent was accepted earlier,
 * naming the nonce: one intent at the gateway, never a second one and never a generic error.
 * Only an attempt that may have reached the gateway explains a replayed nonce: after attempts that
 * were all refused, the nonce is another intent's, and the item says this one was not accepted.
 */
import type { IDataObject } from 'n8n-workflow';
import { requestTimeout } from '../../../nodes/n8n/transport';
import {
	btcTransferId,
	depositParams,
	emptyRunData,
	executeWithRunData,
	gatewayHarness,
	run,
	runError,
	startGatewayEnv,
	type GatewayEnv,
	type RecordedRequest,
} from '../../harness/gateway';

let env: GatewayEnv;
beforeAll(async () => (env = await startGatewayEnv()));
afterAll(() => env.close());
beforeEach(() => env.proxy.reset());
afterEach(() => {
	requestTimeout.ms = 30_000;
	env.sb.gatewayFaults.clear();
});

const EXECUTE = '/api/v1/execute';

async function intentsWithNonce(nonce: unknown): Promise<IDataObject[]> {
	return (await env.intents()).filter((i) => i.nonce === nonce);
}

/** The requests `list` returns once each has its answer (bounded by the test's timeout). */
async function answered(list: () => RecordedRequest[]): Promise<RecordedRequest[]> {
	while (list().length === 0 || list().some((p) => p.status === undefined)) await new Promise((resolve) => setTimeout(resolve, 50));
	return list();
}

function expectAcceptedEarlier(out: IDataObject): void {
	expect(out).toMatchObject({ outcome: 'accepted_earlier', submissionId: null, status: null, nonce: expect.stringMatching(/^[0-9a-f]{32}$/) });
	expect(out.message).toContain(`nonce "${out.nonce}"`);
	expect(out.message).toMatch(/accepted this intent earlier/);
	expect(out.messageDigest).toMatch(/^[0-9a-f]{64}$/);
}

describe('intent.execute with a lost answer', () => {
	it.each([
		['dropAnswer', { mode: 'dropAnswer' as const }, 30_000],
		['lateAnswer', { mode: 'lateAnswer' as const, latencyMs: 1500 }, 400],
	])('%s: one intent, and an "accepted earlier" outcome naming the nonce', async (_mode, fault, timeoutMs) => {
		requestTimeout.ms = timeoutMs;
		env.sb.gatewayFaults.add({ method: 'POST', path: EXECUTE, ...fault });
		const sparkTransferId = btcTransferId();
		const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId, amount: '5000' }])));

		expectAcceptedEarlier(out);
		// The lost first attempt, then the resend (on a loaded machine a resend's answer may miss the
		// 0.4 s deadline too, and the transport sends once more): always the same signed bytes, the same nonce.
		const posts = env.proxy.to(EXECUTE, 'POST');
		expect(posts.length).toBeGreaterThanOrEqual(2);
		expect(posts.every((p) => p.body === posts[0].body)).toBe(true);
		const resends = await answered(() => posts.slice(1));
		expect(resends.map((p) => p.status)).toEqual(resends.map(() => 409));
		const intents = await intentsWithNonce(out.nonce);
		expect(intents).toHaveLength(1);
		expect((await env.intents()).filter((i) => JSON.stringify(i).includes(sparkTransferId))).toHaveLength(1);
	});

	it('Retry On Fail after the transport gave up: the next try reports the earlier acceptance, no second intent', async () => {
		// Every answer is lost: the first attempt admits the intent, the retries' nonce_replayed answers are lost too.
		env.sb.gatewayFaults.add({ method: 'POST', path: EXECUTE, mode: 'dropAnswer', times: 'always' });
		const h = gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }]));
		const runData = emptyRunData();
		await expect(executeWithRunData(h, [{}], runData)).rejects.toThrow(/Could not reach the service/);
		env.sb.gatewayFaults.clear();

		const [second] = await executeWithRunData(h, [{}], runData);
		expectAcceptedEarlier(second.json);
		expect(await intentsWithNonce(second.json.nonce)).toHaveLength(1);
	});

	it('the first attempt is still on its way when the retry is admitted: the node gets the real submission, one intent', async () => {
		requestTimeout.ms = 400;
		// The first request waits 1.5 s before the gateway handles it; the node gives up and resends,
		// the resend is admitted at once, and the late original then meets its own replayed nonce.
		env.sb.gatewayFaults.add({ method: 'POST', path: EXECUTE, mode: 'latency', latencyMs: 1500 });
		const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }])));
		expect(out).toMatchObject({ status: 'ACCEPTED', submissionId: expect.any(String) });
		// The late original is handled 1.5 s after it arrived: wait until every attempt has its answer.
		const posts = await answered(() => env.proxy.to(EXECUTE, 'POST'));
		// One attempt admitted, every other (the original, and any resend a loaded machine added) met the replayed nonce.
		expect(posts.length).toBeGreaterThanOrEqual(2);
		expect(posts.map((p) => p.status).sort()).toEqual([200, ...posts.slice(1).map(() => 409)]);
		expect(await intentsWithNonce(out.nonce)).toHaveLength(1);
	});

	it('the first attempt refused before the gateway (429), the retry meets another intent\'s nonce: not accepted, said clearly', async () => {
		const nonce = `pinned-${btcTransferId()}`;
		const [other] = await run(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], { options: { nonce } })));
		expect(other.status).toBe('ACCEPTED');
		env.proxy.reset();
		env.sb.gatewayFaults.add({ method: 'POST', path: EXECUTE, mode: 'status', status: 429, code: 'rate_limited', retryAfterSeconds: 0 });
		const sparkTransferId = btcTransferId();
		const error = await runError(gatewayHarness(env, depositParams([{ sparkTransferId, amount: '5000' }], { options: { nonce } })));
		// Before: the second attempt made it "accepted earlier", though the first never reached the gateway.
		expect(error.errorCode).toBe('nonce_replayed');
		expect(String(error.description)).toMatch(/^Nonce "pinned-[0-9a-f]+" was already used by this keypair, so this intent was NOT accepted/);
		expect(String(error.description)).toContain('no intent was signed with another nonce');
		const posts = env.proxy.to(EXECUTE, 'POST');
		expect(posts.map((p) => p.status)).toEqual([429, 409]);
		expect(posts[1].body).toBe(posts[0].body);
		expect(await intentsWithNonce(nonce)).toEqual([expect.objectContaining({ submissionId: other.submissionId })]);
		expect((await env.intents()).filter((i) => JSON.stringify(i).includes(sparkTransferId))).toHaveLength(0);
	});

	it('Retry On Fail after a refusal: the next try\'s nonce_replayed is not taken for an earlier acceptance', async () => {
		const nonce = `pinned-${btcTransferId()}`;
		await run(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], { options: { nonce } })));
		env.proxy.reset();
		// The first try is refused outright (a 4xx: the gateway admitted nothing), then n8n runs the node again.
		env.sb.gatewayFaults.add({ method: 'POST', path: EXECUTE, mode: 'status', status: 409, code: 'transfer_already_claimed' });
		const h = gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], { options: { nonce } }));
		const runData = emptyRunData();
		await expect(executeWithRunData(h, [{}], runData)).rejects.toThrow(/transfer_already_claimed/);
		const second = await executeWithRunData(h, [{}], runData).then(
			() => undefined,
			(error: Error & IDataObject) => error,
		);
		// Before: the same signed bytes sent twice made the second try "accepted earlier".
		expect(second?.errorCode).toBe('nonce_replayed');
		expect(String(second?.description)).toMatch(/so this intent was NOT accepted/);
		expect(env.proxy.to(EXECUTE, 'POST').map((p) => p.status)).toEqual([409, 409]);
		expect(await intentsWithNonce(nonce)).toHaveLength(1);
	});

	it('a nonce used by another run is still an error, not an "accepted earlier" outcome', async () => {
		const params = depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], { options: { nonce: 'pinned-lost-answers-1' } });
		await run(gatewayHarness(env, params));
		const params2 = depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], { options: { nonce: 'pinned-lost-answers-1' } });
		expect((await runError(gatewayHarness(env, params2))).errorCode).toBe('nonce_replayed');
	});
});
