/**
 * Accumulation Address (Deprecated) > Sync against the sandbox over HTTP: one POST with a derived
 * idempotency key, the service's counts as the item; server keys only.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { CLIENT_ALL, control, orchestrationNode, run, runError, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });

describe('Accumulation Address (Deprecated) > Sync', () => {
	it('syncs with a server key', async () => {
		const [sync] = await run(node({ resource: 'accumulationAddress', operation: 'sync' }));
		expect(sync).toEqual({ ok: true, enabledCount: 1, solanaAddressCount: 0, errors: [] });
		const posts = await control(sb).requests({ method: 'POST' });
		expect(posts.map((p) => p.path)).toEqual(['/v1/accumulation-addresses/sync']);
		expect(posts[0].idempotencyKey).toMatch(/^n8n-[0-9a-f]{64}$/);
	});

	it('is refused to client keys', async () => {
		expect((await runError(node({ resource: 'accumulationAddress', operation: 'sync' }, CLIENT_ALL))).message).toMatch(/^forbidden: /);
	});
});
