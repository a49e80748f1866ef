/**
 * Accumulation Address (Deprecated) > Reindex against the sandbox over HTTP: by ID or by deposit
 * address, with a derived idempotency key; a client key needs the scope accumulation:create.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, run, runError, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });

describe('Accumulation Address (Deprecated) > Reindex', () => {
	it('reindexes by deposit address with a server key', async () => {
		const [record] = await run(node({ resource: 'accumulationAddress', operation: 'get', accumulationAddressId: 'acc_sandbox_usdc_base' }));
		const [byAddress] = await run(node({ resource: 'accumulationAddress', operation: 'reindex', idOrAddress: record.depositAddress as string }));
		expect(byAddress).toMatchObject({ ok: true, accumulationAddressId: 'acc_sandbox_usdc_base', relay: { checkedCurrencies: 1 } });
		const posts = await control(sb).requests({ method: 'POST' });
		expect(posts.map((p) => p.path)).toEqual([`/v1/accumulation-addresses/${record.depositAddress}/reindex`]);
		expect(posts[0].idempotencyKey).toMatch(/^n8n-[0-9a-f]{64}$/);
	});

	it('with a client key that has accumulation:create; a client key without it is told the scope', async () => {
		const [out] = await run(node({ resource: 'accumulationAddress', operation: 'reindex', idOrAddress: 'acc_sandbox_usdc_base' }, 'fnp_sandbox_accumulation_create'));
		expect(out.ok).toBe(true);
		const scopeless = await runError(node({ resource: 'accumulationAddress', operation: 'reindex', idOrAddress: 'acc_sandbox_usdc_base' }, 'fnp_sandbox_checkout'));
		expect(scopeless.description).toBe('This operation needs the client-key scope "accumulation:create".');
	});
});
