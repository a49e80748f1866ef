/**
 * Route > Get Limits against the sandbox over HTTP: the route filters passed, the answer untouched.
 */
import { clearRoutesCache } from '../../../../nodes/Orchestration/helpers/routes';
import type { Sandbox } from '../../../../sandbox';
import {
	CLIENT_ALL,
	control,
	orchestrationNode,
	run,
	SERVER_KEY,
	startTestSandbox,
} from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
	clearRoutesCache();
	await control(sb).clearRequests();
});

describe('Route > Get Limits', () => {
	it('passes the route filters and returns the answer untouched', async () => {
		const parameters = {
			resource: 'route',
			operation: 'getLimits',
			filters: { sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'bitcoin', destinationAsset: 'BTC' },
		};
		for (const key of [SERVER_KEY, CLIENT_ALL]) {
			const [out] = await run(orchestrationNode({ sb, key, parameters }));
			expect(out.generatedAt).toEqual(expect.any(String));
			expect(out.routes).toEqual([expect.objectContaining({ sourceChain: 'base', destinationAsset: 'BTC', minAmount: '1000000' })]);
		}
	});
});
