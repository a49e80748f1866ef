/**
 * The sandbox takes what its own routes listing offers and what the live service adds (public-notes
 * "Chains", app fees, affiliate IDs): a chain outside spec §2.1's list (stellar) quoted and paid end
 * to end, app fees in the live request form, the docs' affiliate ID rule with its own code.
 */
import { type Client, fundedOrder, quoteBody, SERVER, start, waitFor } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const QUOTE = '/v1/orchestration/quote';
const EVM = '0x1111111111111111111111111111111111111111';
/** A Stellar account id (G + 55 base32 characters). */
const STELLAR = `G${'A'.repeat(55)}`;

interface Entry {
	id: string;
	chain: string;
	decimals: number;
	route: { to: unknown };
}
const listing = async (): Promise<Entry[]> => (await api.get('/v2/orchestration/routes')).body.assets;
const orderOf = async (id: string) => (await api.get(`/v1/orchestration/status?id=${id}`, { key: SERVER })).body.order;

describe('a chain the spec does not list (stellar), offered by the listing', () => {
	it('is in the routes listing with its assets (XLM, USDC with 7 decimals), reachable from base:USDC', async () => {
		const assets = await listing();
		const stellar = assets.filter((a) => a.chain === 'stellar');
		expect(stellar.map((a) => [a.id, a.decimals])).toEqual([
			['stellar:XLM', 7],
			['stellar:USDC', 7],
		]);
		const baseUsdc = assets.find((a) => a.id === 'base:USDC');
		expect(baseUsdc?.route.to).toEqual({ except: ['litecoin:LTC'] });
	});

	it('is quoted by symbol and by routing key, and the deposit completes an order', async () => {
		const q = await api.post(QUOTE, quoteBody({ sourceChain: 'stellar', sourceAsset: 'USDC', amount: '250000000' }), { key: SERVER });
		expect(q.status).toBe(200);
		expect(q.body).toMatchObject({ sourceChain: 'stellar', sourceAsset: 'USDC', amountIn: '250000000' });
		expect(q.body.depositAddress).toMatch(/^G[A-Z2-7]{55}$/);
		expect(q.body.depositMemo).toEqual(expect.any(String));
		const keyed = await api.post(QUOTE, quoteBody({ sourceChain: 'base', destinationChain: 'stellar', destinationAsset: 'stellar:XLM', recipientAddress: STELLAR }), { key: SERVER });
		expect(keyed.status).toBe(200);
		expect(keyed.body.destinationAsset).toBe('XLM');
		const d = await api.post('/sandbox/deposits', { depositAddress: q.body.depositAddress, amount: q.body.amountIn });
		expect(d.status).toBe(201);
		const done = await waitFor(async () => ((await orderOf(d.body.orderId)).status === 'completed' ? true : undefined), 10_000, 'the stellar order to complete');
		expect(done).toBe(true);
	});

	it('is accepted in estimates, onramps, standing addresses and affiliate payouts', async () => {
		const estimate = await api.get('/v1/orchestration/estimate?sourceChain=stellar&sourceAsset=XLM&destinationChain=bitcoin&destinationAsset=BTC&amount=1000000000');
		expect(estimate.status).toBe(200);
		const onramp = await api.post('/v1/orchestration/onramp', { destinationChain: 'stellar', destinationAsset: 'USDC', recipientAddress: STELLAR, amount: '25000' }, { key: SERVER });
		expect(onramp.status).toBe(200);
		const standing = await api.call('PUT', '/v1/standing-deposit-addresses/stellar-1', { destination: { chain: 'stellar', asset: 'USDC', address: STELLAR } }, { key: SERVER, headers: { 'x-idempotency-key': 'sda-stellar-1' } });
		expect(standing.status).toBe(200);
		const payout = { feeBps: 30, payoutChain: 'stellar', payoutAsset: 'USDC', payoutAddress: STELLAR };
		const affiliate = await api.call('PUT', '/v1/affiliates/aff_stellar', payout, { key: SERVER, headers: { 'x-idempotency-key': 'aff-stellar-1' } });
		expect(affiliate.status).toBe(200);
	});

	it('refuses a chain its listing does not offer with unsupported_route, naming the listing', async () => {
		const r = await api.post(QUOTE, quoteBody({ sourceChain: 'atlantis' }), { key: SERVER });
		expect(r.status).toBe(400);
		expect(r.body.error.code).toBe('unsupported_route');
		expect(r.body.error.message).toMatch(/atlantis.*routes listing/);
		const keyed = await api.post(QUOTE, quoteBody({ sourceChain: 'atlantis', sourceAsset: 'atlantis:USDC' }), { key: SERVER });
		expect([keyed.status, keyed.body.error.code]).toEqual([400, 'unsupported_route']);
	});
});

describe('app fees in either form (public-notes: {recipient, fee} in live requests)', () => {
	it('takes {recipient, fee} and records it as {recipient, feeBps}', async () => {
		const { orderId } = await fundedOrder(api, {}, { appFees: [{ recipient: EVM, fee: 40 }] });
		const order = await orderOf(orderId);
		expect(order.feePlan.appFees).toEqual([{ recipient: EVM, feeBps: 40 }]);
		const spec = await fundedOrder(api, {}, { appFees: [{ recipient: EVM, feeBps: 40 }] });
		expect((await orderOf(spec.orderId)).feePlan.appFees).toEqual([{ recipient: EVM, feeBps: 40 }]);
	});

	it('refuses an entry with both forms or neither', async () => {
		for (const entry of [{ recipient: EVM, fee: 1, feeBps: 1 }, { recipient: EVM }]) {
			const r = await api.post(QUOTE, quoteBody({ appFees: [entry] }), { key: SERVER });
			expect({ entry, status: r.status, message: r.body.error.message }).toEqual({ entry, status: 400, message: expect.stringMatching(/^appFees\[0\]/) });
		}
	});
});

describe('affiliate IDs by the docs\' rule (trimmed, lowercased, ^[a-z0-9][a-z0-9_-]{0,63}$)', () => {
	it('reads a quote\'s IDs trimmed and lowercased', async () => {
		const { orderId } = await fundedOrder(api, {}, { affiliateId: '  AFF_Sandbox_Alpha ' });
		expect((await orderOf(orderId)).feePlan.appFees).toEqual([expect.objectContaining({ affiliateId: 'aff_sandbox_alpha' })]);
		const list = await api.post(QUOTE, quoteBody({ affiliateIds: ['AFF_SANDBOX_ALPHA'] }), { key: SERVER });
		expect(list.status).toBe(200);
	});

	it('refuses an ID outside the pattern', async () => {
		for (const bad of ['aff.sandbox', '_aff', 'x'.repeat(65)]) {
			const r = await api.post(QUOTE, quoteBody({ affiliateIds: [bad] }), { key: SERVER });
			expect({ bad, status: r.status, code: r.body.error.code }).toEqual({ bad, status: 400, code: 'invalid_request' });
		}
	});

	it('stores standing instructions and affiliate records under the normalized ID', async () => {
		const put = (ref: string, affiliateIds: unknown[], key: string) =>
			api.call('PUT', `/v1/standing-deposit-addresses/${ref}`, { destination: { chain: 'base', asset: 'USDC', address: EVM }, affiliateIds }, { key: SERVER, headers: { 'x-idempotency-key': key } });
		const first = await put('aff-case', [' AFF_SANDBOX_ALPHA'], 'sda-case-1');
		expect(first.status).toBe(200);
		expect(first.body.affiliateIds).toEqual(['aff_sandbox_alpha']);
		// the same instruction written in another case is the same instruction, not a conflict
		expect((await put('aff-case', ['aff_sandbox_alpha'], 'sda-case-2')).status).toBe(200);
		const upsert = await api.call('PUT', '/v1/affiliates/%20AFF_Case%20', { feeBps: 20, payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: EVM }, { key: SERVER, headers: { 'x-idempotency-key': 'aff-case-1' } });
		expect(upsert.body.affiliate.affiliateId).toBe('aff_case');
		expect((await api.get('/v1/affiliates/AFF_CASE/claims', { key: SERVER })).status).toBe(200);
		expect((await api.get('/v1/affiliates/aff.case/claims', { key: SERVER })).status).toBe(400);
	});
});
