/** The ledger (ledger.ts) and example 7's reads (reconcile.ts) against the sandbox, through the package's node. */
import { startSandbox, type Sandbox } from '../../sandbox';
import { pickSandboxKeys } from '../../scripts/lib/examples';
import { Ledger } from './ledger';
import { payOne } from './payouts';
import { fromTheOrder, fromTheQuote, reconcile } from './reconcile';

describe('the ledger, as examples 1 and 3 write it', () => {
	it('knows the quote first; an event fills in its order, a final row stays, an unknown order is added by its first event', () => {
		const ledger = new Ledger();
		ledger.quoted('p1', 'q1');
		ledger.event({ event: 'order.processing', orderId: 'o1', quoteId: 'q1', status: 'processing' });
		expect(ledger.ofOrder('o1')).toMatchObject({ payoutId: 'p1', quoteId: 'q1', status: 'processing', final: false });
		ledger.event({ event: 'order.completed', orderId: 'o1', quoteId: 'q1', status: 'completed' });
		ledger.event({ event: 'order.processing', orderId: 'o1', quoteId: 'q1', status: 'processing' });
		expect(ledger.ofOrder('o1')).toMatchObject({ status: 'completed', final: true });
		ledger.event({ event: 'order.completed', orderId: 'o9', status: 'completed' });
		expect(ledger.ofOrder('o9')).toBeUndefined();
		ledger.event({ event: 'order.processing', orderId: 'o9', status: 'processing' });
		expect(ledger.ofOrder('o9')).toMatchObject({ quoteId: '', status: 'processing' });
	});

	it("leaves a row the reconciliation read while an event wrote it (example 7's checkedAt)", () => {
		const ledger = new Ledger();
		const row = ledger.quoted('p1', 'q1');
		const [read] = ledger.open();
		ledger.event({ event: 'order.processing', orderId: 'o1', quoteId: 'q1', status: 'processing' });
		expect(ledger.write({ rowId: read.id, readAt: read.checkedAt, orderId: 'o1', status: 'expired', final: true })).toBe(false);
		expect(ledger.rows[0]).toMatchObject({ id: row.id, status: 'processing', final: false });
	});

	it("maps what it read as example 7's From the order and From the quote do", () => {
		const row = { id: 1, payoutId: 'p', quoteId: 'q', orderId: '', status: 'quoted', final: false, checkedAt: 3, note: '' };
		expect(fromTheOrder(row, { id: 'o1', status: 'completed' })).toEqual({ rowId: 1, readAt: 3, orderId: 'o1', status: 'completed', final: true });
		expect(fromTheOrder(row, { id: 'o1', status: 'unfulfilled', supersededByOperationId: 'o2' })).toMatchObject({ orderId: 'o2', status: 'replaced', final: false });
		expect(fromTheOrder(row, { error: { message: 'timeout' } })).toMatchObject({ status: 'quoted', final: false, error: 'timeout' });
		const now = Date.parse('2026-01-02T00:00:00Z');
		expect(fromTheQuote(row, { expiresAt: '2026-01-01T00:00:00Z' }, now, 12)).toMatchObject({ status: 'expired', final: true });
		expect(fromTheQuote(row, { expiresAt: '2026-01-01T00:00:00Z' }, now, 24)).toMatchObject({ status: 'quoted', final: false });
	});
});

describe("example 7's reads through the Orchestration node, against the sandbox", () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ timeScale: 10, quiet: true });
	});
	afterAll(async () => {
		await sb.close();
	});

	it('finds the order of a payout whose event never reached the ledger, by its quote; reads the others by order', async () => {
		const ledger = new Ledger();
		const seen = await payOne(sb, ledger, 'p-seen');
		const lost = await payOne(sb, ledger, 'p-lost');
		ledger.event({ event: 'order.processing', orderId: seen, quoteId: ledger.rows[0].quoteId, status: 'processing' });
		expect(ledger.ofOrder(lost)).toBeUndefined();
		const run = await reconcile(ledger, sb, pickSandboxKeys(sb).server.key);
		expect(run).toEqual({ open: 2, readByOrder: 1, readByQuote: 1, paidQuotes: 1, written: 2, errors: [] });
		expect(ledger.ofOrder(lost)).toMatchObject({ payoutId: 'p-lost', status: 'processing', final: false, note: 'reconciled: quoted -> processing' });
		expect(ledger.ofOrder(seen)).toMatchObject({ payoutId: 'p-seen', status: 'processing' });
	});
});
