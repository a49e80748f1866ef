/**
 * Affiliate > Get Payout Destinations against the sandbox over HTTP: the payout chains and assets
 * live now, one item each, cut to the limit; refused to client keys with the hint to use a server key.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import {
	CLIENT_ALL,
	control,
	orchestrationNode,
	run,
	runError,
	SERVER_KEY,
	startTestSandbox,
} from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });

describe('Affiliate > Get Payout Destinations', () => {
	it('lists the payout chains and assets live now, one item each, cut to the limit; a profile may name each', async () => {
		const all = await run(node({ resource: 'affiliate', operation: 'getPayoutDestinations', returnAll: true }));
		expect(all).toContainEqual({ chain: 'base', asset: 'USDC' });
		expect(all.some((d) => d.chain === 'lightning')).toBe(false);
		const [first] = await run(node({ resource: 'affiliate', operation: 'getPayoutDestinations', limit: 1 }));
		expect(first).toEqual(all[0]);
		expect(await run(node({ resource: 'affiliate', operation: 'getPayoutDestinations', limit: 3 }))).toHaveLength(3);
		const [sent] = await control(sb).requests({ path: '/v1/affiliate-dashboard/payout-destinations' });
		expect(sent.method).toBe('GET');
		const [profile] = await run(
			node({ resource: 'affiliate', operation: 'upsert', affiliateId: 'aff_payout', feeBps: 25, payoutChain: String(first.chain), payoutAsset: String(first.asset), payoutAddress: '0x1111111111111111111111111111111111111111' }),
		);
		expect(profile).toMatchObject({ affiliateId: 'aff_payout', payoutChain: first.chain, payoutAsset: first.asset });
	});

	it('is refused to client keys, with the hint to use a server key', async () => {
		const error = await runError(node({ resource: 'affiliate', operation: 'getPayoutDestinations' }, CLIENT_ALL));
		expect(error.message).toMatch(/^forbidden: /);
		expect(error.description).toMatch(/Orchestration Server Key/);
	});
});
