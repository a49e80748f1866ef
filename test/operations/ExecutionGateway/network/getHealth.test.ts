/**
 * Network > Get Health against the sandbox gateway: one GET /api/v1/health without authentication,
 * its answer as the item (that it works with a malformed key: test/integration/gateway/auth.test.ts).
 */
import { gatewayHarness, run, startGatewayEnv, type GatewayEnv } from '../../../harness/gateway';

describe('Network > Get Health', () => {
	let env: GatewayEnv;
	beforeAll(async () => {
		env = await startGatewayEnv();
	});
	afterAll(async () => {
		await env.close();
	});

	it('sends GET /api/v1/health, unauthenticated, one per item, and outputs the answer', async () => {
		env.proxy.reset();
		expect(await run(gatewayHarness(env, { resource: 'network', operation: 'getHealth' }), [{}, {}])).toEqual([
			{ healthy: true, status: 'ok' },
			{ healthy: true, status: 'ok' },
		]);
		expect(env.proxy.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
			['GET', '/api/v1/health', undefined],
			['GET', '/api/v1/health', undefined],
		]);
	});
});
