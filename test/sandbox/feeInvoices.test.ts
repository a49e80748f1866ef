/**
 * Fee invoices (public-notes, fourth harvest): a partner billed by invoice sees `feeAmount: "0"` on
 * its quotes and its platform fees accrue to an invoice listed at GET /v1/partner/dashboard/fee-invoices
 * (server key); the answer's shape is not shown, so the sandbox can answer several plausible ones.
 */
import type { Sandbox } from '../../sandbox';
import { FeeInvoicesResponseSchema } from '../../sandbox/orchestration/responses';
import { ALL_SCOPES, type Client, fundedOrder, quoteBody, SERVER, SERVER2, start, waitFor } from './helpers';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(async () => {
	await api.post('/sandbox/reset');
});

const INVOICES = '/v1/partner/dashboard/fee-invoices';
const QUOTE = '/v1/orchestration/quote';
/** The fee invoices answer, held to the lenient schema of every shape the sandbox may answer. */
const invoicesOf = async (key = SERVER, query = '') => {
	const { body } = await api.get(`${INVOICES}${query}`, { key });
	expect(FeeInvoicesResponseSchema.safeParse(body).success).toBe(true);
	return body;
};

describe('a partner billed by invoice', () => {
	it('gets feeAmount "0" on quotes and the platform fee of each completed order on its open invoice', async () => {
		await api.post('/sandbox/config', { invoiceBilling: { partner_sandbox_1: true } });
		const billed = (await api.post(QUOTE, quoteBody(), { key: SERVER })).body;
		const deducted = (await api.post(QUOTE, quoteBody(), { key: SERVER2 })).body;
		expect([billed.feeAmount, billed.feeBps, deducted.feeAmount, deducted.feeBps]).toEqual(['0', 0, '300000', 30]);
		expect(BigInt(billed.estimatedOut)).toBeGreaterThan(BigInt(deducted.estimatedOut));
		// inline app fees are still taken from the amount; only the platform fee goes to the invoice
		const withFees = (await api.post(QUOTE, quoteBody({ appFees: [{ recipient: '0x2222222222222222222222222222222222222222', fee: 70 }] }), { key: SERVER })).body;
		expect([withFees.feeAmount, withFees.feeBps]).toEqual(['700000', 70]);

		expect(await invoicesOf()).toEqual({ invoices: [], nextOffset: null });
		const { orderId } = await fundedOrder(api);
		const done = await waitFor(async () => {
			const s = (await api.get(`/v1/orchestration/status?id=${orderId}`, { key: SERVER })).body.order;
			return s.status === 'completed' ? s : undefined;
		});
		expect(done.feeAmount).toBe('0');
		expect(done.feePayouts.entries.map((e: { role: string }) => e.role)).toEqual(['recipient_payout']);
		const { invoices, nextOffset } = await invoicesOf();
		expect(nextOffset).toBeNull();
		expect(invoices).toEqual([{
			id: expect.stringMatching(/^inv_/), periodStart: expect.any(String), periodEnd: expect.any(String), status: 'open',
			amount: '300000', asset: 'USDC', decimals: 6, amountUsd: '0.3', orderCount: 1,
			createdAt: expect.any(String), issuedAt: null, dueAt: expect.any(String), paidAt: null,
		}]);
		const [inv] = invoices;
		expect(Date.parse(inv.periodStart)).toBeLessThanOrEqual(Date.parse(done.updatedAt));
		expect(Date.parse(inv.periodEnd)).toBeGreaterThan(Date.parse(done.updatedAt));
		expect(Date.parse(inv.dueAt)).toBeGreaterThan(Date.parse(inv.periodEnd));
		// a second order adds to the same open invoice; another partner's list stays empty
		const second = await fundedOrder(api);
		await waitFor(async () => ((await invoicesOf()).invoices[0].orderCount === 2 ? true : undefined), 5000, `order ${second.orderId} to accrue`);
		expect((await invoicesOf()).invoices[0].amount).toBe('600000');
		expect((await invoicesOf(SERVER2)).invoices).toEqual([]);
	});

	it('a partner not billed by invoice pays the platform fee from the amount and gets no invoice', async () => {
		const { orderId } = await fundedOrder(api);
		const done = await waitFor(async () => {
			const s = (await api.get(`/v1/orchestration/status?id=${orderId}`, { key: SERVER })).body.order;
			return s.status === 'completed' ? s : undefined;
		});
		expect(done.feePayouts.entries.map((e: { role: string }) => e.role)).toContain('platform_fee');
		expect((await invoicesOf()).invoices).toEqual([]);
	});
});

describe('GET /v1/partner/dashboard/fee-invoices', () => {
	async function seed(): Promise<string[]> {
		const ids: string[] = [];
		for (const periodStart of ['2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z']) {
			const r = await api.post('/sandbox/fee-invoices', { periodStart, amount: '1250000', status: 'paid' });
			expect(r.status).toBe(201);
			ids.push(r.body.id);
		}
		await api.post('/sandbox/fee-invoices', { amount: '1', partnerId: 'partner_sandbox_2' });
		return ids.reverse(); // newest first
	}

	it('pages newest first with limit and offset, nextOffset null on the last page; server keys only', async () => {
		const ids = await seed();
		const first = await invoicesOf(SERVER, '?limit=2');
		expect(first.invoices.map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 2));
		expect(first.nextOffset).toBe(2);
		expect(first.invoices[0]).toMatchObject({ periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z', status: 'paid', amount: '1250000', amountUsd: '1.25' });
		const last = await invoicesOf(SERVER, '?limit=2&offset=2');
		expect([last.invoices.map((i: { id: string }) => i.id), last.nextOffset]).toEqual([ids.slice(2), null]);
		for (const bad of ['?limit=0', '?limit=101', '?offset=-1', '?limit=x']) {
			expect((await api.get(`${INVOICES}${bad}`, { key: SERVER })).body.error.code).toBe('invalid_query');
		}
		expect((await api.get(INVOICES, { key: ALL_SCOPES })).body.error.code).toBe('forbidden');
		expect((await api.get(INVOICES)).status).toBe(401);
	});

	it('answers the other plausible shapes when switched: a bare array, {data}, no nextOffset', async () => {
		const ids = await seed();
		await api.post('/sandbox/config', { feeInvoices: { shape: 'array' } });
		const bare = await invoicesOf(SERVER, '?limit=2');
		expect(Array.isArray(bare)).toBe(true);
		expect(bare.map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 2));
		await api.post('/sandbox/config', { feeInvoices: { shape: 'data' } });
		expect(await invoicesOf(SERVER, '?limit=2')).toEqual({ data: expect.any(Array), nextOffset: 2 });
		await api.post('/sandbox/config', { feeInvoices: { shape: 'invoices', nextOffset: false } });
		const noNext = await invoicesOf();
		expect(Object.keys(noNext)).toEqual(['invoices']);
		expect(noNext.invoices).toHaveLength(3);
	});
});
