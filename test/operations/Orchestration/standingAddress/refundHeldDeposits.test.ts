/**
 * Standing Deposit Address > Refund Held Deposits against the sandbox over HTTP (public-notes:
 * `{batchId, refundAddress}` -> refund_requested; the path is not shown): a paused address's held
 * deposit sent back, the derived key replayed by Retry On Fail, a 404 saying the path may differ.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { ADDR, control, orchestrationNode, run, runError, SERVER_KEY, standingAddress, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
	await control(sb).reset();
	await control(sb).config({ autoAdvance: true });
});

const node = (parameters: INodeParameters, executionId?: string) => orchestrationNode({ sb, key: SERVER_KEY, executionId, parameters });

/** A paused reference with one held deposit on its EVM address; the deposit as Get Deposits lists it. */
async function heldDeposit(reference: string) {
	const addresses = await standingAddress(sb, reference);
	await run(node({ resource: 'standingAddress', operation: 'pause', reference }));
	await control(sb).deposit({ depositAddress: addresses.evm, amount: '4000000' });
	const [held] = await run(node({ resource: 'standingAddress', operation: 'getDeposits', reference, returnAll: true }));
	// precondition: the deposit is held in a batch
	expect(held).toMatchObject({ status: 'held', batchId: expect.any(String) });
	return held;
}

describe('Standing Deposit Address > Refund Held Deposits', () => {
	it('asks for the refund of a held batch; Retry On Fail replays it; the deposit is then refunded', async () => {
		const held = await heldDeposit('held-1');
		const refund = () => node({ resource: 'standingAddress', operation: 'refundHeldDeposits', reference: 'held-1', batchId: String(held.batchId), refundAddress: ADDR.evm }, 'exec-held-1');
		const [first] = await run(refund());
		expect(first).toEqual({ reference: 'held-1', batchId: held.batchId, status: 'refund_requested' });
		const [again] = await run(refund());
		expect(again).toMatchObject({ batchId: held.batchId, replayed: true });
		const posts = await control(sb).requests({ path: '/v1/standing-deposit-addresses/held-1/refund', method: 'POST' });
		expect(posts.map((p) => p.body)).toEqual([{ batchId: held.batchId, refundAddress: ADDR.evm }, { batchId: held.batchId, refundAddress: ADDR.evm }]);
		expect(posts[1].idempotencyKey).toBe(posts[0].idempotencyKey);
		for (let tries = 0; tries < 100; tries++) {
			const [deposit] = await run(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'held-1', returnAll: true }));
			if (deposit.status === 'refunded') return expect(deposit.refundTxId).toEqual(expect.any(String));
			await new Promise((r) => setTimeout(r, 100));
		}
		throw new Error('the held deposit was not refunded');
	});

	it('a 404 names the unconfirmed path; Request Path sends elsewhere; blanks are refused before any request', async () => {
		const held = await heldDeposit('held-2');
		const moved = await runError(node({ resource: 'standingAddress', operation: 'refundHeldDeposits', reference: 'held-2', batchId: String(held.batchId), refundAddress: ADDR.evm, options: { requestPath: '/v1/standing-deposit-addresses/{ref}/refunds' } }));
		expect([moved.httpCode, moved.description]).toEqual(['404', expect.stringMatching(/the docs do not show it\. If the deposits are listed, set Options > "Request Path"/)]);
		expect((await control(sb).requests({ method: 'POST' })).at(-1)?.path).toBe('/v1/standing-deposit-addresses/held-2/refunds');
		await control(sb).clearRequests();
		const blank = await runError(node({ resource: 'standingAddress', operation: 'refundHeldDeposits', reference: 'held-2', batchId: '', refundAddress: ADDR.evm }));
		expect(blank.message).toMatch(/^Invalid "batchId" in item 0: is required/);
		expect(await control(sb).requests()).toEqual([]);
	});
});
