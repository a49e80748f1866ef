/** Per-item processing shared by the action nodes: bounded concurrency, order, pairing, continueOnFail. */
import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';
import { errorCodeOf, itemErrorOf } from './nodeErrors';
import { assertToolActionAllowed } from './toolMode';

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

type ItemResult = IDataObject | IDataObject[];

/** An error item under continueOnFail; otherwise the error, as a node error carrying the item index. */
function failedItem(ctx: IExecuteFunctions, itemIndex: number, error: unknown): INodeExecutionData[] {
	if (!ctx.continueOnFail()) {
		throw itemErrorOf(ctx.getNode(), itemIndex, error);
	}
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
 * Runs one operation per input item. Output order and pairedItem follow the input; with
 * continueOnFail a failed item becomes an error item instead of failing the node.
 */
export async function processItems(
	ctx: IExecuteFunctions,
	concurrency: number,
	fn: (itemIndex: number) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const items = ctx.getInputData();
	const perItem = await mapWithConcurrency(items.length, concurrency, async (itemIndex) => {
		let result: ItemResult;
		try {
			result = await fn(itemIndex);
		} catch (error) {
			return failedItem(ctx, itemIndex, error);
		}
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
	if (!op) throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	const action = toolActions[`${resource}.${operation}`];
	if (action !== undefined) assertToolActionAllowed(ctx, action);
	return op;
}
