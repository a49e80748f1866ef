/**
 * Standing Deposit Address > Get Deposits against the sandbox over HTTP: one item per deposit, newest
 * first, paged by nextOffset; Request Path; bad references and page sizes refused before any request.
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

describe('Standing Deposit Address > Get Deposits', () => {
	it('one item per deposit, newest first, with the reference, its order (quoteId null) and a readable amount', async () => {
		const addresses = await standingAddress(sb, 'customer-7');
		const usdc = await control(sb).deposit({ depositAddress: addresses.evm, amount: '2500000' });
		const btc = await control(sb).deposit({ depositAddress: addresses.bitcoin, amount: '125000' });
		const deposits = await run(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'customer-7', returnAll: true }));
		expect(deposits).toEqual([
			expect.objectContaining({ reference: 'customer-7', chain: 'bitcoin', asset: 'BTC', amount: '125000', amountFormatted: '0.00125', orderId: btc.orderId, quoteId: null }),
			expect.objectContaining({ reference: 'customer-7', chain: 'base', asset: 'USDC', amount: '2500000', amountFormatted: '2.5', orderId: usdc.orderId, quoteId: null }),
		]);
		const [listing] = await control(sb).requests({ path: '/v1/standing-deposit-addresses/customer-7/deposits' });
		expect(listing.query).toEqual({ limit: '100', offset: '0' });
	});

	it('pages by nextOffset: Limit across pages of Page Size, Return All until nextOffset is null', async () => {
		const addresses = await standingAddress(sb, 'paged');
		for (const amount of ['1000000', '2000000', '3000000']) await control(sb).deposit({ depositAddress: addresses.evm, amount });
		await control(sb).clearRequests();
		const two = await run(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'paged', returnAll: false, limit: 2, options: { pageSize: 1 } }));
		expect(two.map((d) => d.amount)).toEqual(['3000000', '2000000']);
		const all = await run(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'paged', returnAll: true, options: { pageSize: 2 } }));
		expect(all.map((d) => d.amount)).toEqual(['3000000', '2000000', '1000000']);
		const queries = (await control(sb).requests({ path: '/v1/standing-deposit-addresses/paged/deposits' })).map((r) => r.query);
		expect(queries).toEqual([
			{ limit: '1', offset: '0' },
			{ limit: '1', offset: '1' },
			{ limit: '2', offset: '0' },
			{ limit: '2', offset: '2' },
		]);
	});

	it('Request Path reads the listing from another path (the path is from public client code)', async () => {
		await standingAddress(sb, 'moved');
		const error = await runError(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'moved', options: { requestPath: '/v1/standing-deposits/{ref}' } }));
		expect(error.message).toMatch(/^not_found: /);
		const [sent] = await control(sb).requests({ path: '/v1/standing-deposits/moved' });
		expect(sent).toMatchObject({ method: 'GET', query: { limit: '50', offset: '0' } });
	});

	it('an unknown reference is not_found; a bad reference or page size is refused before any request', async () => {
		expect((await runError(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'nobody' }))).message).toMatch(/^not_found: /);
		await control(sb).clearRequests();
		expect((await runError(node({ resource: 'standingAddress', operation: 'getDeposits', reference: '..' }))).message).toMatch(/^Invalid "reference" in item 0/);
		expect((await runError(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'r', options: { pageSize: 0 } }))).message).toMatch(/^Invalid "pageSize" in item 0/);
		expect(await control(sb).requests()).toEqual([]);
	});
});
