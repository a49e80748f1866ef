/**
 * Admission rejections by the gateway itself (after the node's own checks passed) reach the user
 * with the gateway's code and a hint; stale network info is dropped; the transport's retries never
 * create a second intent.
 */
import type { AddressInfo } from 'node:net';

import { publicKeyFromPrivateKey } from '../../../../nodes/shared/gateway/keys';
import { clearNetworkInfoCache } from '../../../../nodes/ExecutionGateway/helpers/gateway';
import { startSandbox } from '../../../../sandbox';
import {
	btcTransferId,
	CREDENTIAL,
	depositParams,
	gatewayHarness,
	run,
	runError,
	startGatewayEnv,
	startRecordingProxy,
	type GatewayEnv,
} from '../../../harness/gateway';

const OTHER_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

describe('Intent > Execute: the gateway\'s admission rejections', () => {
	let env: GatewayEnv;
	beforeAll(async () => {
		env = await startGatewayEnv();
	});
	afterAll(async () => {
		await env.close();
	});
	beforeEach(async () => {
		clearNetworkInfoCache();
		await env.control('POST', '/sandbox/gateway/config', { paused: false, minDepositSats: 1000 });
		env.proxy.requests.length = 0;
	});

	/** Loads network info into the node's 60-second cache, so a later change goes unseen. */
	async function warmCache(): Promise<void> {
		await run(gatewayHarness(env, { resource: 'network', operation: 'getInfo', options: {} }));
	}

	it('network_paused: the gateway paused after the cached network info; the stale entry is dropped', async () => {
		await warmCache();
		await env.control('POST', '/sandbox/gateway/config', { paused: true });
		const params = depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }]);
		const error = await runError(gatewayHarness(env, params));
		expect(error.message).toMatch(/^network_paused: /);
		expect(error.errorCode).toBe('network_paused');
		expect(error.httpCode).toBe('400');
		expect(error.description).toMatch(/paused/);
		expect(env.proxy.to('/api/v1/execute', 'POST')).toHaveLength(1);
		// The next run fetches network info again and, with Refuse When Paused, stops before sending.
		const again = await runError(gatewayHarness(env, { ...params, options: { refuseWhenPaused: true } }));
		expect(again.message).toMatch(/paused \(item 0\)/);
		expect(env.proxy.to('/api/v1/execute', 'POST')).toHaveLength(1);
	});

	it('below_min_deposit: the minimum rose after the cached network info', async () => {
		await warmCache();
		await env.control('POST', '/sandbox/gateway/config', { minDepositSats: 50_000 });
		const error = await runError(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }])));
		expect(error.message).toMatch(/^below_min_deposit: /);
		expect(error.errorCode).toBe('below_min_deposit');
		expect(error.description).toMatch(/minDepositSats/);
	});

	it('nonce_replayed: a pinned nonce used twice; the hint names the nonce and says nothing was submitted twice', async () => {
		const nonce = `order-${btcTransferId()}`;
		const first = await run(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], { options: { nonce } })));
		expect(first[0].status).toBe('ACCEPTED');
		const error = await runError(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '6000' }], { options: { nonce } })));
		expect(error.message).toMatch(/^nonce_replayed: /);
		expect(error.errorCode).toBe('nonce_replayed');
		expect(error.httpCode).toBe('409');
		expect(error.description).toContain(`Nonce "${nonce}" was already used`);
		expect((await env.intents()).filter((i) => i.nonce === nonce)).toHaveLength(1);
	});

	it('transfer_already_claimed: a transfer held by another pending intent', async () => {
		const sparkTransferId = btcTransferId();
		await env.control('POST', '/sandbox/gateway/config', { autoAdvance: false });
		try {
			await run(gatewayHarness(env, depositParams([{ sparkTransferId, amount: '5000' }])));
			const error = await runError(gatewayHarness(env, depositParams([{ sparkTransferId, amount: '5000' }], { recipient: `0x${'44'.repeat(20)}` })));
			expect(error.message).toMatch(/^transfer_already_claimed: /);
			expect(error.errorCode).toBe('transfer_already_claimed');
			expect(error.description).toMatch(/at most one intent/);
		} finally {
			await env.control('POST', '/sandbox/gateway/config', { autoAdvance: true });
		}
	});

	it('invalid_signature: the bearer token stands for another key than the one that signed', async () => {
		const h = gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }]));
		await run(h);
		// Tamper with the stored token binding: the token is the seeded key's, the signature OTHER_KEY's.
		Object.assign(h.credentialsHelper.store[CREDENTIAL], { privateKey: OTHER_KEY, accessTokenPublicKey: publicKeyFromPrivateKey(OTHER_KEY) });
		h.node.parameters = depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }]);
		const error = await runError(h);
		expect(error.message).toMatch(/^invalid_signature: /);
		expect(error.errorCode).toBe('invalid_signature');
		expect(error.description).toMatch(/could not verify/);
	});

	it.each(['invalid_action', 'invalid_evm_transaction', 'invalid_transfer_id', 'invalid_token_id', 'invalid_amount', 'invalid_expires_at', 'duplicate_transfer_id', 'chain_id_mismatch'])(
		'%s answered by the gateway (injected) is surfaced with its code and a hint',
		async (code) => {
			env.sb.gatewayFaults.add({ method: 'POST', path: '/api/v1/execute', mode: 'status', status: 400, code });
			const error = await runError(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }])));
			expect(error.message).toMatch(new RegExp(`^${code}: `));
			expect(error.errorCode).toBe(code);
			expect(String(error.description ?? '')).not.toBe('');
		},
	);

	it('a dropped connection is retried with the same signed body: one intent', async () => {
		const sparkTransferId = btcTransferId();
		env.sb.gatewayFaults.add({ method: 'POST', path: '/api/v1/execute', mode: 'drop', times: 1 });
		const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId, amount: '5000' }])));
		expect(out.status).toBe('ACCEPTED');
		const posts = env.proxy.to('/api/v1/execute', 'POST');
		expect(posts).toHaveLength(2);
		expect(posts[1].body).toBe(posts[0].body);
		expect((await env.intents()).filter((i) => i.submissionId === out.submissionId)).toHaveLength(1);
	});

	it('a 503 is retried with the same signed body: one intent', async () => {
		env.sb.gatewayFaults.add({ method: 'POST', path: '/api/v1/execute', mode: 'status', status: 503, times: 1 });
		const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }])));
		expect(out.status).toBe('ACCEPTED');
		expect(env.proxy.to('/api/v1/execute', 'POST')).toHaveLength(2);
	});
});

describe('Intent > Execute: chain_id_mismatch after the gateway changed chains within the cache window', () => {
	it('surfaces the code, drops the cache, and the next run signs for the new chain', async () => {
		const first = await startSandbox({ timeScale: 50, quiet: true });
		const port = (first.gateway.app.server.address() as AddressInfo).port;
		const proxy = await startRecordingProxy(first.gatewayUrl);
		const env = { url: proxy.url, signerKey: first.keys.gateway.privateKeys[0] };
		let second: Awaited<ReturnType<typeof startSandbox>> | undefined;
		try {
			await run(gatewayHarness(env, { resource: 'network', operation: 'getInfo', options: {} }));
			await first.close();
			second = await startSandbox({
				timeScale: 50,
				quiet: true,
				gatewayPort: port,
				config: { gateway: { chainId: first.config.gateway.chainId + 1, privateKeys: first.config.gateway.privateKeys } },
			});
			const params = depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }]);
			const error = await runError(gatewayHarness(env, params));
			expect(error.message).toMatch(/^chain_id_mismatch: /);
			expect(error.errorCode).toBe('chain_id_mismatch');
			const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }])));
			expect(out).toMatchObject({ status: 'ACCEPTED', chainId: first.config.gateway.chainId + 1 });
		} finally {
			await proxy.close();
			await first.close();
			await second?.close();
		}
	});
});
