/**
 * Standing Deposit Address > Get against the sandbox over HTTP: the instruction by its reference (one
 * encoded path segment), the answer passed through with the reference; an unknown reference is
 * not_found; client keys refused by the service.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { CLIENT_ALL, control, orchestrationNode, run, runError, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
	await control(sb).reset();
});

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });
const get = (reference: string, key = SERVER_KEY) => node({ resource: 'standingAddress', operation: 'get', reference }, key);

describe('Standing Deposit Address > Get', () => {
	it('reads the instruction Create or Get made, by its reference as one encoded path segment', async () => {
		const [created] = await run(
			node({ resource: 'standingAddress', operation: 'createOrGet', reference: 'customer-7 ä', destinationChain: 'base', destinationAsset: 'USDC', destinationAddress: '0x1111111111111111111111111111111111111111' }),
		);
		await control(sb).clearRequests();
		const [read] = await run(get('customer-7 ä'));
		expect(read).toMatchObject({ reference: 'customer-7 ä', standingAddressId: created.standingAddressId, addresses: created.addresses });
		expect((await control(sb).requests()).map((r) => [r.method, r.path])).toEqual([['GET', '/v1/standing-deposit-addresses/customer-7%20%C3%A4']]);
	});

	it('an unknown reference is not_found', async () => {
		expect((await runError(get('nobody'))).message).toMatch(/^not_found: /);
	});

	it('client keys are refused by the service', async () => {
		expect((await runError(get('nobody', CLIENT_ALL))).message).toMatch(/^forbidden: /);
	});
});
