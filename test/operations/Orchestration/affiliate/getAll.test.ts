/**
 * Affiliate > Get Many against the sandbox over HTTP: every affiliate for a server key, one item each,
 * cut to the limit; a pinned client key sees only its own.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import {
	CLIENT_AFFILIATE,
	CLIENT_ALL,
	control,
	orchestrationNode,
	run,
	runError,
	SERVER_KEY,
	SERVER_KEY_PARTNER2,
	startTestSandbox,
} from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });

describe('Affiliate > Get Many', () => {
	it('lists every affiliate for a server key, one item each, cut to the limit', async () => {
		const all = await run(node({ resource: 'affiliate', operation: 'getAll', returnAll: true, includeDisabled: true }));
		expect(all.map((a) => a.affiliateId)).toEqual(['aff_sandbox_alpha', 'aff_sandbox_beta', 'aff_sandbox_retired']);
		expect(all[0]).toMatchObject({ feeBps: 50, payoutChain: 'base', enabled: true, createdAt: expect.any(String) });
		expect(await run(node({ resource: 'affiliate', operation: 'getAll', limit: 2 }))).toHaveLength(2);
		expect(await run(node({ resource: 'affiliate', operation: 'getAll' }, SERVER_KEY_PARTNER2))).toEqual([]);
	});

	it('shows a pinned client key (affiliates:read) only its own affiliate', async () => {
		const pinned = await run(node({ resource: 'affiliate', operation: 'getAll', returnAll: true }, CLIENT_AFFILIATE));
		expect(pinned.map((a) => a.affiliateId)).toEqual(['aff_sandbox_alpha']);
		const unpinned = await runError(node({ resource: 'affiliate', operation: 'getAll' }, CLIENT_ALL));
		expect(unpinned.message).toMatch(/^forbidden: /);
	});
});
