/**
 * ZeroConf offers of the fourth harvest (public-notes): an offer also carries
 * `confirmationProbability` (its type is not shown: a number by default, a decimal string when
 * switched); offers on standing-address deposits count `creditSats` where order offers count `instantSats`.
 */
import type { Sandbox } from '../../sandbox';
import { type Client, freshKey, fundedOrder, SERVER, start, waitFor } from './helpers';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const EVM = '0x1111111111111111111111111111111111111111';
const BTC_SOURCE = { sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '100000', recipientAddress: EVM, zeroconfEnabled: true };
const orderOf = async (id: string) => (await api.get(`/sandbox/orders/${id}`)).body;
const offeredOrder = async () => {
	const { orderId } = await fundedOrder(api, {}, BTC_SOURCE);
	return waitFor(async () => {
		const o = await orderOf(orderId);
		return o.order.status === 'awaiting_approval' ? o.order : undefined;
	});
};

describe('confirmationProbability', () => {
	it('is a number from 0 to 1 on an order\'s offer, or a decimal string when switched', async () => {
		const offer = (await offeredOrder()).zeroconfOffer;
		expect(typeof offer.confirmationProbability).toBe('number');
		expect(offer.confirmationProbability).toBeGreaterThan(0);
		expect(offer.confirmationProbability).toBeLessThanOrEqual(1);
		await api.post('/sandbox/config', { zeroconfProbabilityAs: 'string' });
		const text = (await offeredOrder()).zeroconfOffer.confirmationProbability;
		expect(text).toMatch(/^(0\.[0-9]+|1)$/);
		expect(Number(text)).toBe(offer.confirmationProbability);
	});
});

describe('offers on standing-address deposits', () => {
	it('the deposits listing shows the offer with creditSats (deposit less fee), the order\'s offer instantSats; answered like any offer', async () => {
		const created = await api.call('PUT', '/v1/standing-deposit-addresses/zc-shop', { destination: { chain: 'base', asset: 'USDC', address: EVM } }, { key: SERVER, headers: { 'x-idempotency-key': freshKey() } });
		const { addresses } = created.body as { addresses: Record<string, string> };
		const paid = await api.post('/sandbox/deposits', { depositAddress: addresses.bitcoin, amount: '150000', outcome: 'zeroconf_offer' });
		expect(paid.status).toBe(201);
		const orderId = paid.body.orderId as string;
		const order = await waitFor(async () => {
			const o = await orderOf(orderId);
			return o.order.status === 'awaiting_approval' ? o.order : undefined;
		});
		const listed = async () => (await api.get('/v1/standing-deposit-addresses/zc-shop/deposits', { key: SERVER })).body.deposits[0];
		const offer = (await listed()).zeroconfOffer;
		expect(offer).toEqual({
			id: order.zeroconfOffer.quoteId, status: 'pending', expiresAt: order.zeroconfOffer.expiresAt, depositSats: '150000',
			feeSats: order.zeroconfOffer.feeSats, creditSats: (150000n - BigInt(order.zeroconfOffer.feeSats)).toString(),
			confirmationProbability: order.zeroconfOffer.confirmationProbability,
		});
		expect(offer).not.toHaveProperty('instantSats');
		expect(order.zeroconfOffer).toHaveProperty('instantSats');
		expect(order.zeroconfOffer).not.toHaveProperty('creditSats');

		expect((await api.post('/v1/orchestration/zeroconf/accept', { orderId }, { key: SERVER })).body).toEqual({ orderId, status: 'processing' });
		expect((await listed()).zeroconfOffer.status).toBe('accepted');

		const plain = await api.post('/sandbox/deposits', { depositAddress: addresses.bitcoin, amount: '150000' });
		expect(plain.body.deposit.zeroconfOffer).toBeNull();
		const notBitcoin = await api.post('/sandbox/deposits', { depositAddress: addresses.evm, amount: '5000000', outcome: 'zeroconf_offer' });
		expect([notBitcoin.status, notBitcoin.body.error.code]).toEqual([400, 'invalid_request']);
	});
});
