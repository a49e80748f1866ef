/**
 * Standing Deposit Address > Pause against the sandbox over HTTP: later deposits held, PATCH {enabled}
 * with a derived key that Retry On Fail replays; Request Path for the unconfirmed path (Resume:
 * resume.test.ts).
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, run, runError, SERVER_KEY, standingAddress, startTestSandbox } from '../../../harness/orchestration';

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

describe('Standing Deposit Address > Pause', () => {
	it('holds later deposits; sends PATCH {enabled: false} with a derived key that Retry On Fail replays', async () => {
		const addresses = await standingAddress(sb, 'pausable');
		const pause = () => node({ resource: 'standingAddress', operation: 'pause', reference: 'pausable' }, { executionId: 'exec-pause-1' });
		const [paused] = await run(pause());
		expect(paused).toMatchObject({ reference: 'pausable', standingAddressId: expect.stringMatching(/^sda_/), enabled: false });
		const [again] = await run(pause());
		expect(again).toMatchObject({ enabled: false, replayed: true });
		const patches = await control(sb).requests({ path: '/v1/standing-deposit-addresses/pausable/enabled' });
		expect(patches.map((p) => [p.method, p.body, p.idempotencyKey === patches[0].idempotencyKey])).toEqual([
			['PATCH', { enabled: false }, true],
			['PATCH', { enabled: false }, true],
		]);
		expect((await control(sb).deposit({ depositAddress: addresses.evm, amount: '4000000' })).orderId).toBeNull();
		const deposits = await run(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'pausable', returnAll: true }));
		expect(deposits.map((d) => [d.amountFormatted, d.status, d.orderId === null])).toEqual([['4', 'held', true]]);
	});

	it('says the path is unconfirmed; Request Path sends the same request elsewhere, and a 404 says what to check', async () => {
		await standingAddress(sb, 'elsewhere');
		const error = await runError(node({ resource: 'standingAddress', operation: 'pause', reference: 'elsewhere', options: { requestPath: '/v1/standing-deposit-addresses/{ref}/switch' } }));
		expect(error.message).toMatch(/^not_found: /);
		expect(String(error.description)).toMatch(/not confirmed by the docs.*"Request Path"/);
		const [sent] = await control(sb).requests({ path: '/v1/standing-deposit-addresses/elsewhere/switch' });
		expect(sent).toMatchObject({ method: 'PATCH', body: { enabled: false }, idempotencyKey: expect.stringMatching(/^n8n-/) });
		await control(sb).clearRequests();
		const outside = await runError(node({ resource: 'standingAddress', operation: 'pause', reference: 'elsewhere', options: { requestPath: '//evil.example/{ref}' } }));
		expect(outside.message).toMatch(/^Invalid "requestPath" in item 0: must be a path that starts with "\/"/);
		expect(await control(sb).requests()).toEqual([]);
	});
});
