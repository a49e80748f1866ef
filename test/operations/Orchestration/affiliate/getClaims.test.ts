/**
 * Affiliate > Get Claims against the sandbox over HTTP: filtered by settlement chain and asset, the
 * newest first.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, run, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	// timeScale 20: a claim's payout attempt takes 1 s, an order step 150 ms
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
	await control(sb).reset();
	await control(sb).config({ autoAdvance: true, claimOutcome: 'paid' });
});

const node = (parameters: INodeParameters, extra: { executionId?: string } = {}) => orchestrationNode({ sb, key: SERVER_KEY, executionId: extra.executionId, parameters });

describe('Affiliate > Get Claims', () => {
	it('filters by settlement chain and asset; Limit keeps the newest', async () => {
		await control(sb).config({ autoAdvance: false });
		for (const [chain, amount] of [['base', '2000000'], ['solana', '2100000'], ['base', '2200000']]) {
			await control(sb).accrue(amount, chain);
			await run(node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', options: { settlementChain: chain, settlementAsset: 'USDC' } }));
		}
		await control(sb).clearRequests();
		const base = await run(node({ resource: 'affiliate', operation: 'getClaims', affiliateId: 'aff_sandbox_alpha', returnAll: true, options: { settlementChain: 'base', settlementAsset: 'USDC' } }));
		expect(base.map((c) => c.amountFormatted)).toEqual(['2.2', '2']);
		const [filtered] = await control(sb).requests({ path: '/v1/affiliates/aff_sandbox_alpha/claims' });
		expect(filtered.query).toEqual({ settlementChain: 'base', settlementAsset: 'USDC', limit: '200', offset: '0' });
		const two = await run(node({ resource: 'affiliate', operation: 'getClaims', affiliateId: 'aff_sandbox_alpha', returnAll: false, limit: 2 }));
		expect(two.map((c) => c.amountFormatted)).toEqual(['2.2', '2.1']);
	});
});
