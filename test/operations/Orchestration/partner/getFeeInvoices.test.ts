/**
 * Partner > Get Fee Invoices against the sandbox over HTTP (public-notes: server key; the answer's
 * shape is not shown): every page, in each plausible shape, with the amounts readable; a partner
 * billed by invoice sees feeAmount "0" on its quotes.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, quoteParams, run, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
	// 130 invoices: more than one page of 100
	for (let m = 0; m < 130; m++) {
		const periodStart = new Date(Date.UTC(2015, m, 1)).toISOString();
		const res = await fetch(`${sb.orchestrationUrl}/sandbox/fee-invoices`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ periodStart, amount: String(1_000_000 + m) }) });
		expect(res.ok).toBe(true);
	}
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters) => orchestrationNode({ sb, key: SERVER_KEY, parameters });
const invoices = (extra: INodeParameters = {}) => node({ resource: 'partner', operation: 'getFeeInvoices', returnAll: true, ...extra });

describe('Partner > Get Fee Invoices', () => {
	it.each([
		['{invoices, nextOffset}', { shape: 'invoices', nextOffset: true }],
		['{data} without nextOffset', { shape: 'data', nextOffset: false }],
		['a bare list', { shape: 'array', nextOffset: false }],
	])('reads every page of %s', async (_, feeInvoices) => {
		await control(sb).config({ feeInvoices });
		const all = await run(invoices());
		expect(all).toHaveLength(130);
		expect(new Set(all.map((i) => i.id)).size).toBe(130);
		expect(all[0]).toMatchObject({ amount: expect.any(String), amountFormatted: '1.000129' }); // newest first: the 130th month, 1,000,129 smallest units of USDC
		const pages = await control(sb).requests({ path: '/v1/partner/dashboard/fee-invoices' });
		expect(pages.map((p) => p.query)).toEqual([{ limit: '100', offset: '0' }, { limit: '100', offset: '100' }]);
	});

	it('a Limit reads only what it needs', async () => {
		await control(sb).config({ feeInvoices: { shape: 'invoices', nextOffset: true } });
		expect(await run(invoices({ returnAll: false, limit: 7 }))).toHaveLength(7);
		expect((await control(sb).requests({ path: '/v1/partner/dashboard/fee-invoices' })).map((p) => p.query)).toEqual([{ limit: '7', offset: '0' }]);
	});

	it('a partner billed by invoice: its quotes show feeAmount "0"', async () => {
		await control(sb).config({ invoiceBilling: { partner_sandbox_1: true } });
		try {
			const [quote] = await run(node(quoteParams()));
			expect(quote.feeAmount).toBe('0');
		} finally {
			await control(sb).config({ invoiceBilling: {} });
		}
	});
});
