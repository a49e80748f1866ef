/**
 * The shipped daily reconciliation's reads (example 7, examples/07-daily-reconciliation.json), in
 * its order, against the sandbox through the package's own Orchestration node (n8n-core's real
 * execution context, test/harness): every ledger row that is not final is read back, by order
 * (*Order status*: Get Status) or, while no order is known, by quote (*Quote*: Get by Quote, then
 * *Order status* for a paid one), each step with the example's own parameters and error handling,
 * and the row is written as its *From the order* / *From the quote* steps write it. The fault
 * cases' orders carry no intent and no standing address: its other branches read nothing here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../sandbox';
import { executeNode } from '../harness/n8n';
import { orchestrationNode } from '../harness/orchestration';
import { FINAL, type Ledger, type LedgerRow, type ReadBack } from './ledger';

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
	onError?: string;
}

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', '07-daily-reconciliation.json');

function exampleNode(name: string): ExampleNode {
	const wf = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8')) as { nodes: ExampleNode[] };
	const node = wf.nodes.find((n) => n.name === name);
	if (!node) throw new Error(`example 7 has no node "${name}"`);
	return node;
}

/** One of example 7's Orchestration steps run on `inputs`, its outputs in their input's place (n8n's pairedItem). */
async function step(sb: Sandbox, serverKey: string, name: string, inputs: IDataObject[]): Promise<IDataObject[]> {
	if (inputs.length === 0) return [];
	const node = exampleNode(name);
	if (!node.type.endsWith('.orchestration')) throw new Error(`example 7's "${name}" is ${node.type}, not the Orchestration node`);
	const h = orchestrationNode({ sb, key: serverKey, parameters: node.parameters, typeVersion: node.typeVersion, continueOnFail: node.onError === 'continueRegularOutput' });
	const [out] = await executeNode(h, inputs.map((json) => ({ json })), 'trigger');
	const placed: IDataObject[] = new Array(inputs.length);
	(out as INodeExecutionData[]).forEach((item, i) => {
		const paired = item.pairedItem;
		const at = typeof paired === 'object' && paired !== null && !Array.isArray(paired) ? paired.item : i;
		placed[at] = item.json;
	});
	if (placed.some((x) => x === undefined) || out.length !== inputs.length) throw new Error(`example 7's "${name}": ${out.length} outputs for ${inputs.length} rows`);
	return placed;
}

const errorText = (o: IDataObject) => String((o.error as { message?: unknown } | undefined)?.message ?? o.error);

/** Example 7's "From the order". */
export function fromTheOrder(row: LedgerRow, o: IDataObject): ReadBack {
	const base = { rowId: row.id, readAt: row.checkedAt };
	if (o.error) return { ...base, orderId: row.orderId || String((o.order as IDataObject | undefined)?.id ?? ''), status: row.status, final: false, error: errorText(o) };
	const replaced = typeof o.supersededByOperationId === 'string' && o.supersededByOperationId !== '' && o.supersededByOperationId !== o.id;
	return {
		...base,
		orderId: String(o.supersededByOperationId || o.id),
		status: replaced ? 'replaced' : String(o.status),
		final: FINAL.includes(String(o.status).toLowerCase()) && !replaced,
	};
}

/** Example 7's "From the quote" (a quote not paid): expired once `unpaidQuoteHours` passed its expiry. */
export function fromTheQuote(row: LedgerRow, q: IDataObject, nowMs: number, unpaidQuoteHours: number): ReadBack {
	const base = { rowId: row.id, readAt: row.checkedAt, orderId: row.orderId };
	if (q.error) return { ...base, status: row.status, final: false, error: errorText(q) };
	const expiresAt = Date.parse(String(q.expiresAt ?? (q.quote as IDataObject | undefined)?.expiresAt ?? new Date(nowMs).toISOString()));
	const expired = nowMs > expiresAt + unpaidQuoteHours * 3_600_000;
	return { ...base, status: expired ? 'expired' : row.status, final: expired };
}

export interface Reconciliation {
	/** Rows that were not final. */
	open: number;
	readByOrder: number;
	readByQuote: number;
	/** Quotes read as paid, whose order was then read. */
	paidQuotes: number;
	/** Rows written (not changed by an event while they were read). */
	written: number;
	/** Reads the service answered with an error (the row stays as it was, not final). */
	errors: string[];
}

/** One run of example 7's reads on the ledger's open rows; writes what it read. */
export async function reconcile(ledger: Ledger, sb: Sandbox, serverKey: string, nowMs = Date.now()): Promise<Reconciliation> {
	const open = ledger.open();
	const byOrder = open.filter((r) => r.orderId);
	const byQuote = open.filter((r) => !r.orderId && r.quoteId);
	const quotes = await step(sb, serverKey, 'Quote', byQuote.map((r) => ({ ...r })));
	const paid = quotes.map((q, i) => ({ row: byQuote[i], json: q })).filter((x) => x.json.funded === true);
	const unpaid = quotes.map((q, i) => ({ row: byQuote[i], json: q })).filter((x) => x.json.funded !== true);
	const toRead = [...byOrder.map((r) => ({ row: r, json: { ...r } as IDataObject })), ...paid];
	const orders = await step(sb, serverKey, 'Order status', toRead.map((x) => x.json));
	const unpaidQuoteHours = Number((exampleNode('Settings').parameters.assignments as { assignments: Array<{ name: string; value: unknown }> }).assignments.find((a) => a.name === 'unpaidQuoteHours')?.value ?? 24);
	const reads = [
		...orders.map((o, i) => fromTheOrder(toRead[i].row, o)),
		...unpaid.map((x) => fromTheQuote(x.row, x.json, nowMs, unpaidQuoteHours)),
	];
	const written = reads.filter((r) => ledger.write(r)).length;
	return {
		open: open.length, readByOrder: byOrder.length, readByQuote: byQuote.length, paidQuotes: paid.length, written,
		errors: reads.filter((r) => r.error !== undefined).map((r) => `row ${r.rowId}: ${r.error}`),
	};
}
