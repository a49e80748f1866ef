/** Reading node parameters of one item with the types the operations need. */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import { ProtocolError } from '../../shared/errors';
import { amountInputText, integerInput, pathSegment, textInput } from '../../shared/orchestration/inputs';
import { fieldError } from '../../transport/nodeErrors';
import { DEFAULT_CONCURRENCY } from './fields';

/** The operation's "Options" collection (empty when the operation has none). */
export function optionsOf(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return (ctx.getNodeParameter('options', itemIndex, {}) as IDataObject) ?? {};
}

/** Runs a pure input rule; its ProtocolError becomes `Invalid "<field>" in item N: ...`. */
export function checked<T>(ctx: IExecuteFunctions, itemIndex: number, field: string, rule: () => T): T {
	let failure: unknown;
	try {
		return rule();
	} catch (error) {
		failure = error;
	}
	if (failure instanceof ProtocolError) throw fieldError(ctx.getNode(), itemIndex, field, failure.message);
	throw new NodeOperationError(ctx.getNode(), failure as Error, { itemIndex });
}

/** A text parameter, trimmed; '' when unset; objects, arrays and booleans are refused. */
export function text(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	return checked(ctx, itemIndex, name, () => textInput(value));
}

/** A text parameter that goes into the URL path: encoded, dot segments refused (before any request). */
export function pathParam(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = text(ctx, name, itemIndex);
	return checked(ctx, itemIndex, name, () => pathSegment(value));
}

/** A decimal text parameter (e.g. USD): a JS number only when its text is exact; '' when unset. */
export function decimalText(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	return checked(ctx, itemIndex, name, () => amountInputText(value, 'decimal'));
}

/** A text member of an options collection, trimmed; undefined when unset or empty. */
export function optionText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	name: string,
	field = name,
): string | undefined {
	const s = checked(ctx, itemIndex, field, () => textInput(options[name]));
	return s === '' ? undefined : s;
}

/** An integer member of an options collection; fractions, exponents and text are field errors. */
export function optionInteger(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	name: string,
	field = name,
): number | undefined {
	return checked(ctx, itemIndex, field, () => integerInput(options[name]));
}

/** Concurrency from the first item's options (a node-wide setting), default 5. */
export function concurrencyOf(ctx: IExecuteFunctions): number {
	if (ctx.getInputData().length === 0) return DEFAULT_CONCURRENCY;
	const raw = (ctx.getNodeParameter('options.concurrency', 0, DEFAULT_CONCURRENCY) as number) ?? DEFAULT_CONCURRENCY;
	const n = Math.floor(Number(raw));
	return Number.isFinite(n) && n >= 1 ? Math.min(n, 50) : DEFAULT_CONCURRENCY;
}
