/**
 * The per-item part of both action nodes: the loop over the input items (bounded concurrency,
 * output order and pairing, continueOnFail), where every failure of an item becomes n8n's error
 * once, and the reads of an item's parameters through the protocol core's typed rules
 * (nodes/shared/inputs.ts), each failure naming its field.
 */
import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
} from 'n8n-workflow';
import { inField } from '../shared/errors';
import { integerInput, pathSegment, textInput } from '../shared/inputs';
import { errorCodeOf, fieldError, ItemError, itemErrorOf, type FieldNaming } from './errors';

// ---------------------------------------------------------------- the loop

/** Enough to overlap round trips, few enough to stay polite to the services. */
export const DEFAULT_CONCURRENCY = 5;
export const MAX_CONCURRENCY = 50;

export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
	default: DEFAULT_CONCURRENCY,
	description:
		'How many items are sent to the service at the same time. Output order always follows the input.',
};

/** Options > Concurrency of the first item (a node-wide setting), at most MAX_CONCURRENCY. */
export function concurrencyOf(ctx: IExecuteFunctions, fallback = DEFAULT_CONCURRENCY): number {
	if (ctx.getInputData().length === 0) return fallback;
	const raw = (ctx.getNodeParameter('options.concurrency', 0, fallback) as number) ?? fallback;
	const n = Math.floor(Number(raw));
	return Number.isFinite(n) && n >= 1 ? Math.min(n, MAX_CONCURRENCY) : fallback;
}

/** One output item with binary data (an image, a file) next to its JSON. */
export class ItemWithBinary {
	constructor(
		readonly json: IDataObject,
		readonly binary: IBinaryKeyData,
	) {}
}

export type ItemResult = IDataObject | IDataObject[] | ItemWithBinary;

/** The failure as n8n's error of the item, thrown, or under continueOnFail its error item. */
function failedItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	failure: unknown,
	naming: FieldNaming,
): INodeExecutionData[] {
	const error = itemErrorOf(ctx.getNode(), itemIndex, failure, naming);
	if (!ctx.continueOnFail()) throw error;
	const e = error as Error & { description?: string; httpCode?: string };
	const errorCode = errorCodeOf(error);
	const fields: IDataObject = {
		...(errorCode ? { errorCode } : {}),
		...(e.httpCode ? { httpCode: e.httpCode } : {}),
		...(e.description ? { description: e.description } : {}),
	};
	// n8n moves an item to the error output only when its json holds nothing but error, message and
	// details (and replaces the json of an item carrying item.error with { error }): there the
	// service's code goes under details.
	const json: IDataObject =
		ctx.getNode().onError === 'continueErrorOutput'
			? { error: e.message, ...(Object.keys(fields).length > 0 ? { details: fields } : {}) }
			: { error: e.message, ...fields };
	return [{ json, pairedItem: { item: itemIndex } }];
}

function outputOf(result: ItemResult, itemIndex: number): INodeExecutionData[] {
	if (result instanceof ItemWithBinary)
		return [{ json: result.json, binary: result.binary, pairedItem: { item: itemIndex } }];
	return (Array.isArray(result) ? result : [result]).map((json) => ({
		json,
		pairedItem: { item: itemIndex },
	}));
}

export interface ItemsRun {
	concurrency: number;
	/** How the core's fields and codes are named in this node's errors. */
	naming?: FieldNaming;
	/** Told after each item, whatever its outcome. */
	onItemDone?: () => void;
}

/**
 * Runs `execute` once per input item, at most `concurrency` at a time. Output order and pairedItem
 * follow the input. After an item fails (without continueOnFail) no further item starts: money must
 * not move for items after a failed one; the ones in flight finish, then the lowest failure is thrown.
 */
export function runItems(
	ctx: IExecuteFunctions,
	run: ItemsRun,
	execute: (itemIndex: number) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const count = ctx.getInputData().length;
	const results = new Array<INodeExecutionData[]>(count);
	let next = 0;
	const state: { failure?: { index: number; error: unknown } } = {};
	const fail = (index: number, error: unknown) => {
		if (state.failure === undefined || index < state.failure.index)
			state.failure = { index, error };
	};
	const worker = async () => {
		while (next < count && state.failure === undefined) {
			const itemIndex = next++;
			try {
				results[itemIndex] = outputOf(await execute.call(ctx, itemIndex), itemIndex);
			} catch (error) {
				try {
					results[itemIndex] = failedItem(ctx, itemIndex, error, run.naming ?? {});
				} catch (thrown) {
					fail(itemIndex, thrown);
				}
			} finally {
				run.onItemDone?.();
			}
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(run.concurrency, count)) }, worker);
	return Promise.all(workers).then(() => {
		if (state.failure !== undefined) throw state.failure.error;
		return results.flat();
	});
}

// ---------------------------------------------------------------- an item's parameters

/** One entry per node run (n8n makes a new execute context for every run of a node). */
const runs = new WeakMap<object, { raw: INodeParameters; resolved: Map<string, unknown> }>();

/** Whether a stored value holds an expression anywhere inside (a string starting with "="). */
export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object')
		return Object.values(value).some(holdsExpression);
	return false;
}

function storedAt(parameters: INodeParameters, path: string): unknown {
	let value: unknown = parameters;
	for (const part of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[part];
	}
	return value;
}

/**
 * `ctx.getNodeParameter(name, itemIndex, fallback)`. n8n resolves a parameter anew on every call
 * (a copy, the additional keys, a search of the node's properties); a value without an expression
 * is the same for every item, so it is resolved once per node run and reused.
 */
export function getNodeParameter<T = unknown>(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: unknown = '',
): T {
	let run = runs.get(ctx);
	if (run === undefined) {
		run = { raw: ctx.getNode().parameters ?? {}, resolved: new Map() };
		runs.set(ctx, run);
	}
	if (name.includes('[')) return ctx.getNodeParameter(name, itemIndex, fallback as never) as T;
	const stored = storedAt(run.raw, name);
	const value = stored === undefined ? fallback : stored;
	if (holdsExpression(value)) return ctx.getNodeParameter(name, itemIndex, fallback as never) as T;
	const key =
		stored === undefined ? `${name}\u0000${JSON.stringify(fallback) ?? 'undefined'}` : name;
	if (run.resolved.has(key)) return run.resolved.get(key) as T;
	// n8n's own resolution and validation, once; an error is not kept (every item throws it again).
	const resolved = ctx.getNodeParameter(name, itemIndex, fallback as never);
	run.resolved.set(key, resolved);
	return resolved as T;
}

/** A text parameter, trimmed; '' when unset; objects, booleans and inexact numbers are refused naming it. */
export function textParameter(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = getNodeParameter(ctx, name, itemIndex);
	return inField(name, () => textInput(value));
}

/** An integer parameter; fractions, exponents and text are refused naming it; undefined when unset. */
export function integerParameter(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
): number | undefined {
	const value = getNodeParameter(ctx, name, itemIndex);
	return inField(name, () => integerInput(value));
}

/** A text parameter that goes into the URL path, encoded (pathSegment's rules). */
export function pathParameter(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = textParameter(ctx, name, itemIndex);
	return inField(name, () => pathSegment(value));
}

/** The operation's "Options" collection (empty when it has none). */
export function optionsOf(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return getNodeParameter<IDataObject | undefined>(ctx, 'options', itemIndex, {}) ?? {};
}

/** A text member of `from` (an options collection, a row), trimmed; undefined when unset or empty. */
export function textOption(from: IDataObject, name: string, field = name): string | undefined {
	const text = inField(field, () => textInput(from[name]));
	return text === '' ? undefined : text;
}

/** An integer member of `from`; undefined when unset. */
export function integerOption(from: IDataObject, name: string, field = name): number | undefined {
	return inField(field, () => integerInput(from[name]));
}

/** `Invalid "<field>" in item N: <problem>`, for a rule the core cannot state. */
export function invalidField(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	problem: string,
	errorCode?: string,
): ItemError {
	return fieldError(ctx.getNode(), itemIndex, { field, problem, errorCode });
}

/** `<message> (item N)`, a failure of the whole item with its next step and code. */
export function itemFailure(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	details: { description?: string; errorCode?: string } = {},
): ItemError {
	return new ItemError(ctx.getNode(), `${message} (item ${itemIndex})`, { itemIndex, ...details });
}

/** `list` cut to "Limit" unless "Return All". */
export function limitedList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	list: IDataObject[],
): IDataObject[] {
	if (getNodeParameter(ctx, 'returnAll', itemIndex, false)) return list;
	const limit = Math.max(1, Number(getNodeParameter(ctx, 'limit', itemIndex, 50)) || 50);
	return list.slice(0, limit);
}

/** The array member of a list answer, cut to "Limit" unless "Return All". */
export function listOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject | undefined,
	member: string,
): IDataObject[] {
	const list = body?.[member];
	if (!Array.isArray(list))
		throw new ItemError(ctx.getNode(), `The answer has no "${member}" list`, { itemIndex });
	return limitedList(ctx, itemIndex, list as IDataObject[]);
}
