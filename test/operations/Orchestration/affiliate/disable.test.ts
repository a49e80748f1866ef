/**
 * Affiliate > Disable against the sandbox over HTTP: a disabled affiliate leaves Get Many unless
 * Include Disabled.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, run, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

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

describe('Affiliate > Disable', () => {
	const upsert = (affiliateId: string, feeBps: number, payoutChain = 'base') =>
		node({ resource: 'affiliate', operation: 'upsert', affiliateId, feeBps, payoutChain, payoutAsset: 'USDC', payoutAddress: '0x2222222222222222222222222222222222222222' });

	it('Create or Update, Disable, Get Many with Include Disabled and paging', async () => {
		const [created] = await run(upsert('aff_shop', 30));
		expect(created).toMatchObject({ affiliateId: 'aff_shop', feeBps: 30, enabled: true });
		const [updated] = await run(upsert('aff_shop', 45));
		expect(updated.feeBps).toBe(45);
		const [disabled] = await run(node({ resource: 'affiliate', operation: 'disable', affiliateId: 'aff_shop' }));
		expect(disabled).toEqual({ affiliateId: 'aff_shop', ok: true });
		const enabled = await run(node({ resource: 'affiliate', operation: 'getAll', returnAll: true }));
		expect(enabled.map((a) => a.affiliateId)).toEqual(['aff_sandbox_alpha', 'aff_sandbox_beta']);
		await control(sb).clearRequests();
		const limited = await run(node({ resource: 'affiliate', operation: 'getAll', returnAll: false, limit: 3, includeDisabled: true }));
		expect(limited.map((a) => a.affiliateId)).toEqual(['aff_sandbox_alpha', 'aff_sandbox_beta', 'aff_sandbox_retired']);
		const [listing] = await control(sb).requests({ path: '/v1/affiliates' });
		expect(listing.query).toEqual({ includeDisabled: 'true', limit: '3', offset: '0' });
	});
});
