/**
 * n8n's Data Tables through its public API (n8n 2.41.1: /api/v1/data-tables), for `npm start`, the
 * end-to-end suites and benchmarks: find a table by its exact name, read every row, add, update
 * and delete rows.
 */
import type { N8nInstance } from './n8n-instance';

export type Row = Record<string, unknown> & { id: number };

interface TableInfo {
	id: string;
	name: string;
}

export class DataTables {
	constructor(
		private readonly n8n: N8nInstance,
		private readonly apiKey: string,
	) {}

	/** The table's id; the examples find tables by name, n8n's API by id. */
	async idOf(name: string): Promise<string> {
		const tables: TableInfo[] = [];
		let cursor: string | undefined;
		do {
			const q = new URLSearchParams({ limit: '250', ...(cursor ? { cursor } : {}) });
			const page = await this.n8n.api<{ data: TableInfo[]; nextCursor?: string | null }>(this.apiKey, 'GET', `/data-tables?${q}`);
			tables.push(...page.data);
			cursor = page.nextCursor ?? undefined;
		} while (cursor);
		const found = tables.find((t) => t.name === name);
		if (!found) throw new Error(`no Data Table named ${name} (there are: ${tables.map((t) => t.name).join(', ') || 'none'})`);
		return found.id;
	}

	async rows(name: string): Promise<Row[]> {
		const id = await this.idOf(name);
		const out: Row[] = [];
		let cursor: string | undefined;
		do {
			const q = new URLSearchParams({ limit: '250', ...(cursor ? { cursor } : {}) });
			const page = await this.n8n.api<{ data: Row[]; nextCursor?: string | null }>(this.apiKey, 'GET', `/data-tables/${id}/rows?${q}`);
			out.push(...page.data);
			cursor = page.nextCursor ?? undefined;
		} while (cursor);
		return out;
	}

	/** Deletes the rows with these ids (a lost row, in a test). */
	async delete(name: string, ids: number[]): Promise<void> {
		const id = await this.idOf(name);
		for (const rowId of ids) {
			const filter = JSON.stringify({ type: 'and', filters: [{ columnName: 'id', condition: 'eq', value: rowId }] });
			await this.n8n.api(this.apiKey, 'DELETE', `/data-tables/${id}/rows/delete?filter=${encodeURIComponent(filter)}`);
		}
	}

	/** Sets `data` on the row with this id (as a flow's update would), answers the row as written. */
	async update(name: string, rowId: number, data: Record<string, unknown>): Promise<Row[]> {
		const id = await this.idOf(name);
		const filter = { type: 'and', filters: [{ columnName: 'id', condition: 'eq', value: rowId }] };
		return await this.n8n.api<Row[]>(this.apiKey, 'PATCH', `/data-tables/${id}/rows/update`, { filter, data, returnData: true });
	}

	async insert(name: string, rows: Array<Record<string, unknown>>): Promise<Row[]> {
		if (rows.length === 0) return [];
		const id = await this.idOf(name);
		return await this.n8n.api<Row[]>(this.apiKey, 'POST', `/data-tables/${id}/rows`, { data: rows, returnType: 'all' });
	}
}
