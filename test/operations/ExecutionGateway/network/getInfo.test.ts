/**
 * Network > Get Info against the sandbox gateway: the §2.3a fields, cached 60 s per gateway URL
 * (concurrent items share one request), Force Refresh.
 */
import type { INodeParameters } from 'n8n-workflow';
import { clearNetworkInfoCache } from '../../../../nodes/ExecutionGateway/helpers/gateway';
import {
	gatewayHarness,
	run,
	startGatewayEnv,
	startRecordingProxy,
	type GatewayEnv,
} from '../../../harness/gateway';

describe('Network > Get Info', () => {
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

	const infoParams = (options: INodeParameters = {}): INodeParameters => ({ resource: 'network', operation: 'getInfo', options });

	it('returns the §2.3a fields and is cached 60 s per gateway URL; concurrent items share one request', async () => {
		const h = gatewayHarness(env, infoParams());
		const out = await run(h, [{}, {}, {}, {}, {}, {}]);
		expect(out).toHaveLength(6);
		expect(out[0]).toEqual({
			spark: { depositAddress: expect.any(String), network: expect.any(String) },
			execution: { contractAddress: expect.any(String), chainId: env.sb.keys.gateway.chainId },
			paused: false,
			minDepositSats: expect.any(Number),
		});
		await run(h);
		expect(env.proxy.to('/api/v1/network/info')).toHaveLength(1);
		// Another URL (another proxy to the same gateway) has its own entry.
		const second = await startRecordingProxy(env.sb.gatewayUrl);
		try {
			await run(gatewayHarness({ url: second.url, signerKey: env.signerKey }, infoParams()));
			expect(second.to('/api/v1/network/info')).toHaveLength(1);
		} finally {
			await second.close();
		}
	});

	it('Force Refresh sends forceRefresh=1 and refreshes the cache', async () => {
		const h = gatewayHarness(env, infoParams());
		await run(h);
		await env.control('POST', '/sandbox/gateway/config', { minDepositSats: 4321 });
		expect((await run(h))[0].minDepositSats).not.toBe(4321);
		h.node.parameters = infoParams({ forceRefresh: true });
		expect((await run(h))[0].minDepositSats).toBe(4321);
		h.node.parameters = infoParams();
		expect((await run(h))[0].minDepositSats).toBe(4321);
		expect(env.proxy.to('/api/v1/network/info').map((r) => r.path)).toEqual(['/api/v1/network/info', '/api/v1/network/info?forceRefresh=1']);
		await env.control('POST', '/sandbox/gateway/config', { minDepositSats: 1000 });
	});

	it('an entry older than 60 seconds is fetched again', async () => {
		const h = gatewayHarness(env, infoParams());
		await run(h);
		const now = Date.now();
		const spy = jest.spyOn(Date, 'now').mockReturnValue(now + 59_000);
		try {
			await run(h);
			expect(env.proxy.to('/api/v1/network/info')).toHaveLength(1);
			spy.mockReturnValue(now + 61_000);
			await run(h);
			expect(env.proxy.to('/api/v1/network/info')).toHaveLength(2);
		} finally {
			spy.mockRestore();
		}
	});
});
