/**
 * Standing Deposit Address > Get Destinations against the sandbox over HTTP: {chain, asset} per
 * destination, the dropdowns from that list; client keys refused by the service.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { CLIENT_ALL, control, loadOptions, orchestrationNode, run, runError, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
	await control(sb).reset();
});

const node = (parameters: INodeParameters, extra: { key?: string; executionId?: string } = {}) =>
	orchestrationNode({ sb, key: extra.key ?? SERVER_KEY, executionId: extra.executionId, parameters });

const standing = (overrides: INodeParameters = {}): INodeParameters => ({
	resource: 'standingAddress',
	operation: 'createOrGet',
	reference: 'customer 42 ä',
	destinationChain: 'base',
	destinationAsset: 'USDC',
	destinationAddress: '0x1111111111111111111111111111111111111111',
	...overrides,
});

describe('Standing Deposit Address > Get Destinations', () => {
	it('Get Destinations lists {chain, asset}; the dropdowns come from that list', async () => {
		const list = await run(node({ resource: 'standingAddress', operation: 'getDestinations', returnAll: true }));
		expect(list).toContainEqual({ chain: 'spark', asset: 'USDB' });
		const chains = await loadOptions(node(standing({ destinationChain: '' })), 'getStandingDestinationChains');
		expect(chains.map((c) => c.value)).toEqual(expect.arrayContaining(['base', 'spark', 'bitcoin']));
		const assets = await loadOptions(node(standing({ destinationChain: 'spark' })), 'getStandingDestinationAssets');
		expect(assets.map((a) => a.value)).toEqual(['BTC', 'USDB']);
	});

	it('client keys are refused by the service (server keys only, reads included)', async () => {
		const error = await runError(node({ resource: 'standingAddress', operation: 'getDestinations' }, { key: CLIENT_ALL }));
		expect(error.message).toMatch(/^forbidden: /);
	});
});
