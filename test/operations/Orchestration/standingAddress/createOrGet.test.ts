/**
 * Standing Deposit Address > Create or Get against the sandbox over HTTP: one instruction per
 * reference (one encoded path segment), a changed body refused with what to do, the same key on
 * Retry On Fail, bad input refused before any request.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, run, runError, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
	await control(sb).reset();
});

const node = (parameters: INodeParameters, extra: { key?: string; executionId?: string } = {}) =>
	orchestrationNode({ sb, key: extra.key ?? SERVER_KEY, executionId: extra.executionId, parameters });

const standing = (overrides: INodeParameters = {}): INodeParameters => ({
	resource: 'standingAddress',
	operation: 'createOrGet',
	reference: 'customer 42 ä',
	destinationChain: 'base',
	destinationAsset: 'USDC',
	destinationAddress: '0x1111111111111111111111111111111111111111',
	...overrides,
});

describe('Standing Deposit Address > Create or Get', () => {
	it('Create or Get twice with the same reference returns one instruction; the reference is one encoded path segment', async () => {
		const [first] = await run(node(standing({ options: { feeBps: 20, affiliateIds: { affiliate: [{ affiliateId: 'aff_sandbox_alpha', feeBps: '' }] } } })));
		const [second] = await run(node(standing({ options: { feeBps: 20, affiliateIds: { affiliate: [{ affiliateId: 'aff_sandbox_alpha', feeBps: '' }] } } })));
		expect(first.standingAddressId).toMatch(/^sda_/);
		expect(second).toEqual(first);
		expect(first).toMatchObject({ reference: 'customer 42 ä', feeBps: 20, affiliateIds: ['aff_sandbox_alpha'] });
		// an answer member the public notes do not name is passed through
		expect(first.addresses).toHaveProperty('tron');
		const puts = await control(sb).requests({ path: '/v1/standing-deposit-addresses/customer%2042%20%C3%A4' });
		expect(puts).toHaveLength(2);
		expect(puts[0].body).toEqual({
			destination: { chain: 'base', asset: 'USDC', address: '0x1111111111111111111111111111111111111111' },
			feeBps: 20,
			affiliateIds: ['aff_sandbox_alpha'],
		});
		for (const p of puts) expect(p.idempotencyKey).toMatch(/^n8n-[0-9a-f]{64}$/);
		const [read] = await run(node({ resource: 'standingAddress', operation: 'get', reference: 'customer 42 ä' }));
		expect(read.standingAddressId).toBe(first.standingAddressId);
	});

	it('a changed body is refused with instruction_conflict and says what to do', async () => {
		await run(node(standing({ reference: 'shop-7' })));
		const error = await runError(node(standing({ reference: 'shop-7', options: { slippageBps: 75 } })));
		expect(error.message).toMatch(/instruction_conflict/);
		expect(String(error.description)).toMatch(/Send exactly the settings it was created with .* or use a new reference/);
	});

	it('Retry On Fail in one execution sends the same key (the service replays)', async () => {
		await run(node(standing({ reference: 'retry-1' }), { executionId: 'exec-standing-retry' }));
		await run(node(standing({ reference: 'retry-1' }), { executionId: 'exec-standing-retry' }));
		const keys = (await control(sb).requests({ path: '/v1/standing-deposit-addresses/retry-1' })).map((r) => [r.idempotencyKey, r.replayed]);
		expect(keys[0][0]).toBe(keys[1][0]);
		expect(keys[1][1]).toBe(true);
	});

	it.each([
		[{ options: { feeBps: 9000, affiliateIds: { affiliate: [{ affiliateId: 'aff_sandbox_alpha', feeBps: '1000' }] } } }, /^Invalid "feeBps" in item 0: the fee and the affiliate fee overrides add up to 10000 bps/],
		[{ options: { affiliateIds: { affiliate: [{ affiliateId: 'aff alpha', feeBps: '' }] } } }, /^Invalid "affiliateIds\[0\]\.affiliateId" in item 0: "aff alpha" is not an affiliate ID/],
		[{ options: { slippageBps: 10001 } }, /^Invalid "slippageBps" in item 0: 10001 is out of range/],
		[{ reference: 'x'.repeat(129) }, /^Invalid "reference" in item 0: is 129 characters long; at most 128/],
		[{ reference: '..' }, /^Invalid "reference" in item 0: ".." is a dot segment/],
		[{ destinationChain: 'atlantis' }, /^Invalid "destinationChain" in item 0: "atlantis" is not a chain/],
		[{ options: { refundAddresses: '[1]' } }, /^Invalid "refundAddresses" in item 0: must be a JSON object/],
	])('refuses bad input before any request (%#)', async (overrides, message) => {
		const error = await runError(node(standing(overrides as INodeParameters)));
		expect(error.message).toMatch(message);
		expect(await control(sb).requests({ path: '/v1/standing-deposit-addresses' })).toEqual([]);
		expect((await control(sb).requests()).filter((r) => r.method === 'PUT')).toEqual([]);
	});
});
