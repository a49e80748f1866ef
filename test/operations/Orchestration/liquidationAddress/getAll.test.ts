/**
 * Liquidation Address (Deprecated) > Get Many against the sandbox over HTTP: one item per address
 * with its destination; server keys only.
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

describe('Liquidation Address (Deprecated) > Get Many', () => {
	it('lists the partner\'s liquidation addresses with a server key', async () => {
		const list = await run(node({ resource: 'liquidationAddress', operation: 'getAll', returnAll: true }));
		expect(list.map((l) => l.liquidationAddressId)).toEqual(['liq_sandbox_btc_usdc']);
		expect(list[0].destination).toEqual({ chain: 'base', asset: 'USDC', address: '0x00000000000000000000000000000000d0d0cafe' });
	});

	it('is refused to client keys', async () => {
		expect((await runError(node({ resource: 'liquidationAddress', operation: 'getAll' }, CLIENT_ALL))).message).toMatch(/^forbidden: /);
	});
});
