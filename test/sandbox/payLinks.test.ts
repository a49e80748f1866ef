/**
 * Pay links (public-notes, fourth harvest): POST /v1/pay-links with a quote's destination fields and
 * exactly one of amountOut or amountFiatUsd answers {shortId, shortUrl} (a hosted page); every payment
 * through the link is an order carrying payLinkId and payLinkLabel, in status and in the webhooks.
 */
import type { Sandbox } from '../../sandbox';
import { PayLinkResponseSchema } from '../../sandbox/orchestration/responses';
import { ALL_SCOPES, type Client, fundedOrder, receiver, SERVER, start, waitFor } from './helpers';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const EVM = '0x1111111111111111111111111111111111111111';
const LINK = { destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: EVM };
const create = (body: Record<string, unknown>, opts: { key?: string; idem?: string } = { key: SERVER }) => api.post('/v1/pay-links', body, opts);
const statusOf = async (id: string) => (await api.get(`/v1/orchestration/status?id=${id}`, { key: SERVER })).body.order;

describe('POST /v1/pay-links', () => {
	it('answers {shortId, shortUrl}; the URL is a page of the sandbox; the same key replays', async () => {
		const r = await create({ ...LINK, amountOut: '25000000', label: 'Invoice <42> & co' }, { key: SERVER, idem: 'pl-1' });
		expect(r.status).toBe(200);
		expect(Object.keys(r.body).sort()).toEqual(['shortId', 'shortUrl']);
		expect(PayLinkResponseSchema.safeParse(r.body).success).toBe(true);
		expect(r.body.shortId).toMatch(/^[A-Za-z0-9]{10}$/);
		expect(r.body.shortUrl).toBe(`${sb.orchestrationUrl}/p/${r.body.shortId}`);
		const replay = await create({ ...LINK, amountOut: '25000000', label: 'Invoice <42> & co' }, { key: SERVER, idem: 'pl-1' });
		expect([replay.body, replay.headers.get('x-idempotency-replayed')]).toEqual([r.body, 'true']);
		const page = await fetch(r.body.shortUrl);
		expect(page.status).toBe(200);
		expect(page.headers.get('content-type')).toMatch(/^text\/html/);
		const html = await page.text();
		expect(html).toContain('Invoice &#60;42&#62; &#38; co');
		expect(html).not.toContain('<42>');
		expect((await fetch(`${sb.orchestrationUrl}/p/nosuchlink`)).status).toBe(404);
	});

	it('refuses what a quote would refuse: amounts, destination, address, fields; server keys with an idempotency key', async () => {
		const cases: Array<[Record<string, unknown>, string, RegExp]> = [
			[{ ...LINK, amountOut: '25000000', amountFiatUsd: '25' }, 'invalid_request', /^amountFiatUsd/],
			[{ ...LINK }, 'invalid_request', /^amountOut/],
			[{ ...LINK, amountOut: '25000001' }, 'invalid_request', /^amountOut: .*whole cents/],
			[{ ...LINK, amountOut: '2.5' }, 'invalid_request', /^amountOut/],
			[{ ...LINK, amountFiatUsd: '2.505' }, 'invalid_request', /^amountFiatUsd/],
			[{ ...LINK, amountFiatUsd: '0.50' }, 'amount_too_small', /^amountFiatUsd/],
			[{ ...LINK, amountOut: '2000000000000000' }, 'amount_too_large', /^amountOut/],
			[{ ...LINK, destinationChain: 'atlantis', amountFiatUsd: '5' }, 'unsupported_route', /atlantis/],
			[{ ...LINK, destinationAsset: 'NOPE', amountFiatUsd: '5' }, 'unsupported_route', /NOPE/],
			[{ ...LINK, recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh', amountFiatUsd: '5' }, 'invalid_address', /^recipientAddress/],
			[{ ...LINK, amountFiatUsd: '5', label: 'x'.repeat(201) }, 'invalid_request', /^label/],
			[{ destinationChain: 'base', destinationAsset: 'USDC', amountFiatUsd: '5' }, 'invalid_request', /^recipientAddress/],
		];
		for (const [body, code, message] of cases) {
			const r = await create(body);
			expect({ body, status: r.status, code: r.body.error?.code, message: r.body.error?.message }).toEqual({ body, status: 400, code, message: expect.stringMatching(message) });
		}
		expect((await create({ ...LINK, amountFiatUsd: '5' }, { key: ALL_SCOPES })).body.error.code).toBe('forbidden');
		expect((await create({ ...LINK, amountFiatUsd: '5' }, {})).status).toBe(401);
		expect((await create({ ...LINK, amountFiatUsd: '5' }, { key: SERVER, idem: '' })).body.error.code).toBe('missing_idempotency_key');
		expect((await api.get('/sandbox/pay-links')).body.payLinks).toEqual([]);
	});
});

describe('paying a link (POST /sandbox/pay-links/{shortId}/pay)', () => {
	it('creates a funded order carrying payLinkId and payLinkLabel, in status and in the partner webhooks', async () => {
		const rec = await receiver();
		try {
			await api.post('/v1/webhooks', { url: rec.url }, { key: SERVER });
			const { shortId } = (await create({ ...LINK, amountOut: '25000000', label: 'Table 7' })).body;
			const paid = await api.post(`/sandbox/pay-links/${shortId}/pay`, { sourceChain: 'bitcoin', sourceAsset: 'BTC', refundAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' });
			expect(paid.status).toBe(201);
			const { orderId, quoteId } = paid.body;
			const order = await statusOf(orderId);
			expect(order).toMatchObject({ payLinkId: shortId, payLinkLabel: 'Table 7', quoteId, sourceChain: 'bitcoin', destinationChain: 'base', recipientAddress: EVM, estimatedOut: '25000000' });
			expect(order.paymentIntent).toMatchObject({ amountMode: 'exact_out', targetAmountOut: '25000000' });
			const done = await waitFor(async () => ((await statusOf(orderId)).status === 'completed' ? statusOf(orderId) : undefined));
			expect(done.amountOut).toBe('25000000');
			const events = await waitFor(() => {
				const envs = rec.received.map((r) => JSON.parse(r.raw.toString('utf8')));
				return envs.some((e) => e.event === 'order.completed') ? envs : undefined;
			});
			for (const env of events) expect(env.data).toMatchObject({ id: orderId, payLinkId: shortId, payLinkLabel: 'Table 7' });
		} finally {
			await rec.close();
		}
	});

	it('a USD link without a label: the order mirrors the fiat amount and has no payLinkLabel; other orders have payLinkId null', async () => {
		const { shortId } = (await create({ ...LINK, amountFiatUsd: '12.50' })).body;
		const paid = await api.post(`/sandbox/pay-links/${shortId}/pay`, { sourceChain: 'ethereum', sourceAsset: 'USDC', autoAdvance: false });
		const order = await statusOf(paid.body.orderId);
		expect(order).toMatchObject({ payLinkId: shortId, amountFiatUsd: '12.50', amountFiatCurrency: 'USD', estimatedOut: '12500000' });
		expect(order).not.toHaveProperty('payLinkLabel');
		const second = await api.post(`/sandbox/pay-links/${shortId}/pay`, { sourceChain: 'solana', sourceAsset: 'USDC', autoAdvance: false });
		expect(second.body.orderId).not.toBe(paid.body.orderId);
		expect((await statusOf(second.body.orderId)).payLinkId).toBe(shortId);

		const plain = await fundedOrder(api, { autoAdvance: false });
		const plainOrder = await statusOf(plain.orderId);
		expect(plainOrder.payLinkId).toBeNull();
		expect(plainOrder).not.toHaveProperty('payLinkLabel');

		expect((await api.post('/sandbox/pay-links/nosuchlink/pay', { sourceChain: 'base', sourceAsset: 'USDC' })).status).toBe(404);
		expect((await api.post(`/sandbox/pay-links/${shortId}/pay`, { sourceChain: 'bsc', sourceAsset: 'WBNB' })).body.error.code).toBe('unsupported_route');
	});
});
