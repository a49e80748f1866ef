/**
 * Intent > Execute over many items and repeated runs: order and pairing under bounded concurrency, one
 * authentication per run, deterministic nonces (a retried item cannot create a second intent), and
 * n8n's Retry On Fail reusing the first submission.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../../../../nodes/n8n/items';
import { clearNetworkInfoCache } from '../../../../nodes/ExecutionGateway/helpers/gateway';
import { executeNode } from '../../../harness/n8n';
import {
	btcTransferId,
	CREDENTIAL,
	depositParams,
	emptyRunData,
	executeWithRunData,
	gatewayHarness,
	run,
	runError,
	sleepMs,
	startGatewayEnv,
	type GatewayEnv,
} from '../../../harness/gateway';

const address = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;

describe('Intent > Execute: items, retries and nonces', () => {
	let env: GatewayEnv;
	beforeAll(async () => {
		env = await startGatewayEnv();
	});
	afterAll(async () => {
		await env.close();
	});
	beforeEach(() => {
		clearNetworkInfoCache();
		env.proxy.reset();
	});

	const perItemParams = () => depositParams([{ sparkTransferId: '={{ $json.id }}', amount: '={{ $json.amount }}' }], { recipient: '={{ $json.recipient }}' });
	const itemsOf = (n: number): IDataObject[] => Array.from({ length: n }, (_, i) => ({ id: btcTransferId(), amount: String(1000 + i), recipient: address(i + 1) }));

	it('keeps input order and pairing with bounded concurrency, authenticating once', async () => {
		const items = itemsOf(10);
		// The second submission is slow (the first goes alone while it obtains the token): it finishes after
		// submissions sent later, but stays second.
		env.sb.gatewayFaults.add({ method: 'POST', path: '/api/v1/execute', mode: 'latency', latencyMs: 0, times: 1 });
		env.sb.gatewayFaults.add({ method: 'POST', path: '/api/v1/execute', mode: 'latency', latencyMs: 1000, times: 1 });
		const h = gatewayHarness(env, perItemParams());
		const [out] = await executeNode(h, items.map((json) => ({ json })));
		const posts = env.proxy.to('/api/v1/execute', 'POST');
		// Precondition: answers came back out of input order (submissions sent after the slow one were
		// answered before it; on a loaded machine not necessarily all of them).
		const slow = posts.findIndex((p) => p.body.includes(String(items[1].id)));
		const overtook = posts.filter((p, i) => i > slow && (p.answeredAs ?? Infinity) < posts[slow].answeredAs!);
		expect(overtook.length).toBeGreaterThan(0);
		expect(out).toHaveLength(10);
		out.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json).toMatchObject({ status: 'ACCEPTED', recipient: address(i + 1) });
		});
		expect(new Set(out.map((o) => o.json.nonce)).size).toBe(10);
		expect(h.credentialsHelper.preAuthRuns[CREDENTIAL]).toBe(1);
		expect(env.proxy.to('/api/v1/auth/verify')).toHaveLength(1);
		expect(env.proxy.to('/api/v1/network/info')).toHaveLength(1);
		expect(env.proxy.maxInFlight).toBeLessThanOrEqual(DEFAULT_CONCURRENCY);
		expect(env.proxy.maxInFlight).toBeGreaterThan(1);
		const byNonce = new Map((await env.intents()).map((i) => [i.nonce, i]));
		out.forEach((item, i) => expect((byNonce.get(item.json.nonce) as IDataObject).transfers).toEqual([expect.objectContaining({ sparkTransferId: items[i].id, amount: items[i].amount })]));
	});

	it('Continue On Fail: failed items become error items in place, the others go through', async () => {
		const items = itemsOf(5);
		items[1].amount = '5'; // below the minimum: stopped before sending
		items[3].id = 'not-hex'; // malformed id: stopped before sending
		const out = await run(gatewayHarness(env, perItemParams(), { continueOnFail: true }), items);
		expect(out.map((o) => o.status ?? o.errorCode)).toEqual(['ACCEPTED', 'below_min_deposit', 'ACCEPTED', 'invalid_transfer_id', 'ACCEPTED']);
		expect(env.proxy.to('/api/v1/execute', 'POST')).toHaveLength(3);
	});

	it('the default nonce is deterministic: running the same execution again yields no second intent (nonce_replayed)', async () => {
		const items = itemsOf(2);
		const executionId = `exec-again-${btcTransferId()}`;
		const first = await run(gatewayHarness(env, perItemParams(), { executionId }), items);
		expect(first.map((o) => o.status)).toEqual(['ACCEPTED', 'ACCEPTED']);
		const again = await run(gatewayHarness(env, perItemParams(), { executionId, continueOnFail: true }), items);
		expect(again.map((o) => o.errorCode)).toEqual(['nonce_replayed', 'nonce_replayed']);
		expect(String(again[0].description)).toContain(`Nonce "${first[0].nonce}"`);
		const nonces = (await env.intents()).map((i) => i.nonce);
		expect(nonces.filter((n) => n === first[0].nonce)).toHaveLength(1);
		expect(nonces.filter((n) => n === first[1].nonce)).toHaveLength(1);
		// Another execution of the same items is a new intent (a pinned nonce is how to dedupe across runs).
		// Its transfers are free again only once the oracle has expired the first intents (they are not
		// registered: "not found"); until then their soft claims answer transfer_already_claimed (§3).
		const firstNonces = new Set([first[0].nonce, first[1].nonce]);
		for (const deadline = Date.now() + 5000; ; await sleepMs(10)) {
			const firstIntents = (await env.intents()).filter((i) => firstNonces.has(i.nonce));
			if (firstIntents.every((i) => i.status === 'EXPIRED')) break;
			if (Date.now() > deadline) throw new Error(`the first intents did not expire: ${JSON.stringify(firstIntents.map((i) => i.status))}`);
		}
		const other = await run(gatewayHarness(env, perItemParams()), items);
		expect(other[0].nonce).not.toBe(first[0].nonce);
	});

	it('the default nonce depends on the node, the item index and the content', async () => {
		const executionId = `exec-nonce-${btcTransferId()}`;
		const id = btcTransferId();
		await env.control('POST', '/sandbox/gateway/config', { autoAdvance: false });
		try {
			const same = { id, amount: '5000', recipient: address(7) };
			const a = await run(gatewayHarness(env, perItemParams(), { executionId, continueOnFail: true }), [same, { ...same, amount: '5001' }]);
			expect(a[0].status).toBe('ACCEPTED');
			// Item 1 has other content (and claims the same transfer): another nonce, rejected for the claim.
			expect(a[1].errorCode).toBe('transfer_already_claimed');
			const b = await run(gatewayHarness(env, perItemParams(), { executionId, nodeName: 'Second Gateway', continueOnFail: true }), [same]);
			expect(b[0].errorCode).toBe('transfer_already_claimed');
			const nonces = env.proxy.to('/api/v1/execute', 'POST').map((r) => /"nonce":"([^"]+)"/.exec(r.body)?.[1]);
			expect(new Set(nonces).size).toBe(3);
		} finally {
			await env.control('POST', '/sandbox/gateway/config', { autoAdvance: true });
		}
	});

	it("n8n's Retry On Fail (same run data): an item already accepted returns its first submission; the failed one goes through", async () => {
		const blocker = btcTransferId();
		const items = itemsOf(2);
		items[1].id = blocker;
		await env.control('POST', '/sandbox/gateway/config', { autoAdvance: false });
		let blocking: IDataObject;
		try {
			[blocking] = await run(gatewayHarness(env, depositParams([{ sparkTransferId: blocker, amount: '1001' }], { recipient: address(99) })));
		} finally {
			await env.control('POST', '/sandbox/gateway/config', { autoAdvance: true });
		}
		const h = gatewayHarness(env, perItemParams());
		const runData = emptyRunData();
		await expect(executeWithRunData(h, items, runData)).rejects.toThrow(/transfer_already_claimed/);
		// The blocking intent expires and releases its claim; n8n waits between tries, then runs the node again.
		await env.control('POST', `/sandbox/intents/${blocking.submissionId}/advance`, { status: 'EXPIRED' });
		await sleepMs(300);
		const posts = env.proxy.to('/api/v1/execute', 'POST').length;
		const retried = await executeWithRunData(h, items, runData);
		expect(retried.map((o) => o.json.status)).toEqual(['ACCEPTED', 'ACCEPTED']);
		// Item 0 was not sent again; item 1 was sent once more with the same nonce and expiry it first signed.
		const sent = env.proxy.to('/api/v1/execute', 'POST').slice(posts);
		expect(sent).toHaveLength(1);
		const firstTry = env.proxy.to('/api/v1/execute', 'POST').find((r) => r.body.includes(blocker) && r.body.includes(String(retried[1].json.nonce)));
		expect(firstTry).toBeDefined();
		expect(/"expiresAt":(\d+)/.exec(sent[0].body)?.[1]).toBe(/"expiresAt":(\d+)/.exec(firstTry!.body)?.[1]);
		const all = await env.intents();
		expect(all.filter((i) => i.nonce === retried[0].json.nonce)).toHaveLength(1);
		expect(all.filter((i) => i.nonce === retried[1].json.nonce)).toHaveLength(1);
	});

	it('a pinned nonce deduplicates across executions', async () => {
		const nonce = `payout-${btcTransferId()}`;
		const params = depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], { options: { nonce } });
		expect((await run(gatewayHarness(env, params)))[0].nonce).toBe(nonce);
		expect((await runError(gatewayHarness(env, params))).errorCode).toBe('nonce_replayed');
	});
});
