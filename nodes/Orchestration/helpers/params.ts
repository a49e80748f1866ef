/** Reading node parameters of one item with the types the operations need. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { fieldError } from '../../transport/items';
import { DEFAULT_CONCURRENCY } from './fields';

/** The operation's "Options" collection (empty when the operation has none). */
export function optionsOf(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return (ctx.getNodeParameter('options', itemIndex, {}) as IDataObject) ?? {};
}

/** A text parameter, trimmed; '' when unset. */
export function text(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (value === undefined || value === null) return '';
	return String(value).trim();
}

/** A text member of an options collection, trimmed; undefined when unset or empty. */
export function optionText(options: IDataObject, name: string): string | undefined {
	const value = options[name];
	if (value === undefined || value === null) return undefined;
	const s = String(value).trim();
	return s === '' ? undefined : s;
}

/** An integer member of an options collection; a fraction or text is a field error. */
export function optionInteger(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	name: string,
	field = name,
): number | undefined {
	const value = options[name];
	if (value === undefined || value === null || value === '') return undefined;
	const n = typeof value === 'number' ? value : Number(String(value).trim());
	if (!Number.isInteger(n)) throw fieldError(ctx, itemIndex, field, `"${String(value)}" must be a whole number`);
	return n;
}

/** Concurrency from the first item's options (a node-wide setting), default 5. */
export function concurrencyOf(ctx: IExecuteFunctions): number {
	if (ctx.getInputData().length === 0) return DEFAULT_CONCURRENCY;
	const raw = (ctx.getNodeParameter('options.concurrency', 0, DEFAULT_CONCURRENCY) as number) ?? DEFAULT_CONCURRENCY;
	const n = Math.floor(Number(raw));
	return Number.isFinite(n) && n >= 1 ? Math.min(n, 50) : DEFAULT_CONCURRENCY;
}
