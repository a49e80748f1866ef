/**
 * Accumulation Address (Deprecated) > Get against the sandbox over HTTP: the record with its
 * subscriptions, server keys only, an unknown ID a 404 with its hint.
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

describe('Accumulation Address (Deprecated) > Get', () => {
	it('reads the record with a server key', async () => {
		const [record] = await run(node({ resource: 'accumulationAddress', operation: 'get', accumulationAddressId: 'acc_sandbox_usdc_base' }));
		expect(record).toMatchObject({ accumulationAddressId: 'acc_sandbox_usdc_base', sourceChain: 'base', destinationAsset: 'BTC', enabled: true });
		expect(record.subscriptions).toEqual([expect.objectContaining({ status: 'pending' })]);
		expect((await control(sb).requests()).map((r) => [r.method, r.path])).toEqual([['GET', '/v1/accumulation-addresses/acc_sandbox_usdc_base']]);
	});

	it('is refused to client keys', async () => {
		expect((await runError(node({ resource: 'accumulationAddress', operation: 'get', accumulationAddressId: 'acc_sandbox_usdc_base' }, CLIENT_ALL))).message).toMatch(/^forbidden: /);
	});

	it('an unknown id is a 404 with its hint', async () => {
		const error = await runError(node({ resource: 'accumulationAddress', operation: 'get', accumulationAddressId: 'acc_missing' }));
		expect(error).toMatchObject({ httpCode: '404', description: 'Nothing with this identifier exists for this partner.' });
	});
});
