/**
 * Standing Deposit Address > Resume against the sandbox over HTTP: a paused address converts deposits
 * again; PATCH {enabled: true} with a derived key that Retry On Fail replays.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, run, SERVER_KEY, standingAddress, startTestSandbox } from '../../../harness/orchestration';

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

describe('Standing Deposit Address > Resume', () => {
	it('converts deposits again after Pause; sends PATCH {enabled: true} with a derived key that Retry On Fail replays', async () => {
		const addresses = await standingAddress(sb, 'pausable');
		await run(node({ resource: 'standingAddress', operation: 'pause', reference: 'pausable' }));
		expect((await control(sb).deposit({ depositAddress: addresses.evm, amount: '4000000' })).orderId).toBeNull();
		await control(sb).clearRequests();
		const resume = () => node({ resource: 'standingAddress', operation: 'resume', reference: 'pausable' }, { executionId: 'exec-resume-1' });
		const [resumed] = await run(resume());
		expect(resumed).toMatchObject({ reference: 'pausable', enabled: true });
		const [again] = await run(resume());
		expect(again).toMatchObject({ enabled: true, replayed: true });
		const patches = await control(sb).requests({ path: '/v1/standing-deposit-addresses/pausable/enabled' });
		expect(patches.map((p) => [p.method, p.body, p.idempotencyKey === patches[0].idempotencyKey])).toEqual([
			['PATCH', { enabled: true }, true],
			['PATCH', { enabled: true }, true],
		]);
		expect((await control(sb).deposit({ depositAddress: addresses.evm, amount: '5000000' })).orderId).toMatch(/^ord_/);
		const deposits = await run(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'pausable', returnAll: true }));
		expect(deposits.map((d) => [d.amountFormatted, d.status, d.orderId === null])).toEqual([
			['5', 'converted', false],
			['4', 'held', true],
		]);
	});
});
