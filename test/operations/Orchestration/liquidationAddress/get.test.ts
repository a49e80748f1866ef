/**
 * Liquidation Address (Deprecated) > Get against the sandbox over HTTP: the record Get Many lists,
 * by ID; server keys only.
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

describe('Liquidation Address (Deprecated) > Get', () => {
	it('reads one address by ID with a server key, the same record Get Many lists', async () => {
		const [one] = await run(node({ resource: 'liquidationAddress', operation: 'get', liquidationAddressId: 'liq_sandbox_btc_usdc' }));
		expect(one).toMatchObject({ liquidationAddressId: 'liq_sandbox_btc_usdc', destination: { chain: 'base', asset: 'USDC', address: '0x00000000000000000000000000000000d0d0cafe' } });
		expect((await control(sb).requests()).map((r) => [r.method, r.path])).toEqual([['GET', '/v1/liquidation-addresses/liq_sandbox_btc_usdc']]);
		const list = await run(node({ resource: 'liquidationAddress', operation: 'getAll', returnAll: true }));
		expect(one).toEqual(list[0]);
	});

	it('is refused to client keys', async () => {
		expect((await runError(node({ resource: 'liquidationAddress', operation: 'get', liquidationAddressId: 'liq_sandbox_btc_usdc' }, CLIENT_ALL))).message).toMatch(/^forbidden: /);
	});
});
