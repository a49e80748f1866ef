/**
 * The payout ledger of the fault suite, kept as the examples keep `payout_ledger` (no n8n, no I/O:
 * ledger.test.ts runs it on hand-made cases). It knows each payout before its events flow: example
 * 1 writes the quote's row (`quoted`) before the wallet pays. An event's effect updates the row as
 * example 3 does (found by its quote, else by its order; a final row is never overwritten; an
 * unknown order's first event adds it). The daily reconciliation (example 7) reads every row that is
 * not final back from the service and writes what it read (reconcile.ts).
 */

export interface LedgerRow {
	id: number;
	payoutId: string;
	quoteId: string;
	orderId: string;
	status: string;
	final: boolean;
	/** When the row was last written (example 7 leaves a row alone that changed while it read the service). */
	checkedAt: number;
	note: string;
}

/** What one event tells the ledger (the order snapshot in its `data`). */
export interface LedgerEvent {
	event: string;
	orderId: string;
	quoteId?: string;
	status: string;
}

/** Example 7's final statuses ("From the order"): a replaced deposit is not final. */
export const FINAL = ['completed', 'failed', 'refunded', 'expired'];

/** What example 7 read for one row (its "From the order" and "From the quote" steps). */
export interface ReadBack {
	rowId: number;
	/** The row's `checkedAt` when the reconciliation read it. */
	readAt: number;
	orderId: string;
	status: string;
	final: boolean;
	error?: string;
}

export class Ledger {
	readonly rows: LedgerRow[] = [];
	private clock = 0;

	private tick(): number {
		return ++this.clock;
	}

	/** Example 1's "Ledger: payout started" and "Ledger: quoted": the row exists before the wallet pays. */
	quoted(payoutId: string, quoteId: string): LedgerRow {
		const row: LedgerRow = { id: this.rows.length + 1, payoutId, quoteId, orderId: '', status: 'quoted', final: false, checkedAt: this.tick(), note: '' };
		this.rows.push(row);
		return row;
	}

	/** Example 3: the row of the event's quote, else of its order; a final row stays; an order's first event adds its row. */
	event(e: LedgerEvent): void {
		const row = e.quoteId ? this.rows.find((r) => r.quoteId === e.quoteId) : this.rows.find((r) => r.orderId === e.orderId);
		const final = FINAL.includes(e.status.toLowerCase());
		if (row === undefined) {
			if (e.event === 'order.processing') this.rows.push({ id: this.rows.length + 1, payoutId: '', quoteId: e.quoteId ?? '', orderId: e.orderId, status: e.status, final, checkedAt: this.tick(), note: 'added by its event' });
			return;
		}
		if (row.final) return;
		Object.assign(row, { orderId: e.orderId, status: e.status, final, checkedAt: this.tick() });
	}

	/** Example 7's "Open ledger rows": every row that is not final. */
	open(): LedgerRow[] {
		return this.rows.filter((r) => !r.final).map((r) => ({ ...r }));
	}

	/** Example 7's "Update the row": only where the row did not change since it was read (examples 1 and 3 wrote newer). */
	write(read: ReadBack): boolean {
		const row = this.rows.find((r) => r.id === read.rowId);
		if (row === undefined || row.checkedAt !== read.readAt) return false;
		const note = row.status !== read.status ? `reconciled: ${row.status} -> ${read.status}` : row.note;
		Object.assign(row, { orderId: read.orderId, status: read.status, final: read.final, checkedAt: this.tick(), note });
		return true;
	}

	/** The row that carries an order (by its order ID). */
	ofOrder(orderId: string): LedgerRow | undefined {
		return this.rows.find((r) => r.orderId === orderId);
	}
}
