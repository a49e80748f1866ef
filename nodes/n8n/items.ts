/**
 * The per-item part of both action nodes: one reader of an item's parameters (typed, the item index
 * inside it), the chosen operation, and the loop over items (bounded concurrency, order, pairing,
 * continueOnFail), where every failure of an item becomes n8n's error, once.
 */
import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { inField } from '../shared/errors';
import { integerInput, pathSegment, textInput } from '../shared/inputs';
import { errorCodeOf, fieldError, ItemError, itemErrorOf, type FieldNaming } from './errors';
import { runParameter } from './runParameters';
import { assertToolActionAllowed } from './toolMode';

/**
 * One item's parameters, read once through typed rules of the protocol core (nodes/shared/inputs.ts).
 * A rule's failure names its field; the per-item loop makes it `Invalid "<field>" in item N: ...`
 * (processItems), before any request leaves.
 */
export class ItemReader {
	private optionsRead?: IDataObject;

	constructor(
		readonly ctx: IExecuteFunctions,
		readonly itemIndex: number,
	) {}

	/** Runs a rule about one input; its error names `field` (rules such as textInput do not know it). */
	checkedField<T>(field: string, rule: () => T): T {
		return inField(field, rule);
	}

	/** `Invalid "<field>" in item N: <problem>`, for a rule the core cannot state. */
	fail(field: string, problem: string, errorCode?: string): ItemError {
		return fieldError(this.ctx.getNode(), this.itemIndex, { field, problem, errorCode });
	}

	/** `<message> (item N)`, for a failure of the whole item (not one field), with its next step and code. */
	failure(message: string, details: { description?: string; errorCode?: string }): ItemError {
		return new ItemError(this.ctx.getNode(), `${message} (item ${this.itemIndex})`, { itemIndex: this.itemIndex, ...details });
	}

	/** A parameter as stored (after expressions), not checked; `fallback` when unset. One without an expression is resolved once per node run. */
	parameter<T = unknown>(name: string, fallback: unknown = ''): T {
		return runParameter(this.ctx, name, this.itemIndex, fallback) as T;
	}

	/** The operation's "Options" collection (empty when the operation has none). */
	get options(): IDataObject {
		this.optionsRead ??= this.parameter<IDataObject | undefined>('options', {}) ?? {};
		return this.optionsRead;
	}

	/** A text parameter, trimmed; '' when unset; objects, arrays, booleans and inexact numbers are refused. */
	textParameter(name: string): string {
		return this.textValue(name, this.parameter(name));
	}

	/** `value` as text under the name `field` (a member of a collection, a JSON entry). */
	textValue(field: string, value: unknown): string {
		return this.checkedField(field, () => textInput(value));
	}

	/** A text parameter that goes into the URL path: encoded, dot segments refused. */
	pathSegment(name: string): string {
		const value = this.textParameter(name);
		return this.checkedField(name, () => pathSegment(value));
	}

	/** An integer parameter; fractions, exponents and text are field errors; undefined when unset. */
	integer(name: string): number | undefined {
		const value = this.parameter(name);
		return this.checkedField(name, () => integerInput(value));
	}

	/** A text member of `from` (the options by default), trimmed; undefined when unset or empty. */
	optionText(name: string, from: IDataObject = this.options, field = name): string | undefined {
		const s = this.textValue(field, from[name]);
		return s === '' ? undefined : s;
	}

	/** An integer member of `from` (the options by default); undefined when unset. */
	optionInteger(name: string, from: IDataObject = this.options, field = name): number | undefined {
		return this.checkedField(field, () => integerInput(from[name]));
	}

	/** The array member of a list answer, cut to "Limit" unless "Return All". */
	listOf(body: IDataObject | undefined, member: string): IDataObject[] {
		const list = body?.[member];
		if (!Array.isArray(list)) throw new ItemError(this.ctx.getNode(), `The answer has no "${member}" list`, { itemIndex: this.itemIndex });
		return this.limited(list as IDataObject[]);
	}

	/** `list` cut to "Limit" unless "Return All". */
	limited(list: IDataObject[]): IDataObject[] {
		if (this.parameter('returnAll', false)) return list;
		const limit = Math.max(1, Number(this.parameter('limit', 50)) || 50);
		return list.slice(0, limit);
	}
}

/**
 * Runs `fn` over 0..count-1 with at most `limit` in flight; results keep input order. After a
 * failure no further index starts (money must not move for items after a failed one); the ones in
 * flight finish, then the failure of the lowest index is thrown.
 */
export async function mapWithConcurrency<R>(count: number, limit: number, fn: (index: number) => Promise<R>): Promise<R[]> {
	const results = new Array<R>(count);
	let next = 0;
	const state: { failure?: { index: number; error: unknown } } = {};
	const fail = (index: number, error: unknown) => {
		if (state.failure === undefined || index < state.failure.index) state.failure = { index, error };
	};
	const workers = Array.from({ length: Math.max(1, Math.min(limit, count)) }, async () => {
		while (next < count && state.failure === undefined) {
			const index = next++;
			try {
				results[index] = await fn(index);
			} catch (error) {
				fail(index, error);
			}
		}
	});
	await Promise.all(workers);
	if (state.failure !== undefined) return Promise.reject(state.failure.error);
	return results;
}

/** One output item with binary data (an image, a file) next to its JSON. */
export class ItemWithBinary {
	constructor(
		readonly json: IDataObject,
		readonly binary: IBinaryKeyData,
	) {}
}

type ItemResult = IDataObject | IDataObject[] | ItemWithBinary;

/** The failure as n8n's error of the item (itemErrorOf), thrown, or under continueOnFail its error item. */
function failedItem(ctx: IExecuteFunctions, itemIndex: number, failure: unknown, naming: FieldNaming): INodeExecutionData[] {
	const error = itemErrorOf(ctx.getNode(), itemIndex, failure, naming);
	if (!ctx.continueOnFail()) throw error;
	const e = error as Error & { description?: string; httpCode?: string };
	const errorCode = errorCodeOf(error);
	return [
		{
			json: {
				error: e.message,
				...(errorCode ? { errorCode } : {}),
				...(e.httpCode ? { httpCode: e.httpCode } : {}),
				...(e.description ? { description: e.description } : {}),
			},
			pairedItem: { item: itemIndex },
		},
	];
}

/**
 * Runs one operation per input item. Output order and pairedItem follow the input; a failure
 * becomes n8n's error of its item here, the core's naming its field as `naming` says (the parameter,
 * the service's code for the same mistake); with continueOnFail a failed item becomes an error item
 * instead of failing the node.
 */
export async function processItems(
	ctx: IExecuteFunctions,
	concurrency: number,
	fn: (itemIndex: number) => Promise<ItemResult>,
	naming: FieldNaming = {},
): Promise<INodeExecutionData[]> {
	const items = ctx.getInputData();
	const perItem = await mapWithConcurrency(items.length, concurrency, async (itemIndex) => {
		let result: ItemResult;
		try {
			result = await fn(itemIndex);
		} catch (error) {
			return failedItem(ctx, itemIndex, error, naming);
		}
		if (result instanceof ItemWithBinary) return [{ json: result.json, binary: result.binary, pairedItem: { item: itemIndex } }];
		const list = Array.isArray(result) ? result : [result];
		return list.map((json) => ({ json, pairedItem: { item: itemIndex } }));
	});
	return perItem.flat();
}

/**
 * The operation of the chosen resource (both action nodes route the same way); one an AI agent may
 * run only with "Allow Actions as AI Tool" is refused here otherwise.
 */
export function chosenOperation<T>(ctx: IExecuteFunctions, resources: Record<string, Record<string, T>>, toolActions: Record<string, string>): T {
	const resource = ctx.getNodeParameter('resource', 0) as string;
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const op = resources[resource]?.[operation];
	if (!op) throw new ItemError(ctx.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	const action = toolActions[`${resource}.${operation}`];
	if (action !== undefined) assertToolActionAllowed(ctx, action);
	return op;
}
