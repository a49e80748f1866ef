/**
 * The idempotency key of each mutating request of the Orchestration node (§4): the user's explicit
 * key, or one derived from the run, the item, the operation and the body, so Retry On Fail sends the
 * same key and the service answers the first request again.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { deriveIdempotencyKey } from '../../shared/orchestration/idempotency';

/** The call a key is for: the operation, its body, and the key the user set (if any). */
export interface KeyedRequest {
	operation: string;
	body: unknown;
	explicitKey?: string;
}

/** The same for every item of one node run: read once (a data proxy per item costs ~0.2 ms, getNode copies the node). */
const runKeys = new WeakMap<
	object,
	{ runIndex: number; nodeName: string; workflowId: string | undefined }
>();

function runKeysOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { runIndex: number; nodeName: string; workflowId: string | undefined } {
	let keys = runKeys.get(ctx);
	if (keys === undefined) {
		keys = {
			runIndex: Number(ctx.getWorkflowDataProxy(itemIndex).$runIndex ?? 0),
			nodeName: ctx.getNode().name,
			workflowId: ctx.getWorkflow().id,
		};
		runKeys.set(ctx, keys);
	}
	return keys;
}

/** The explicit key (checked when the item was read), else one derived from workflow, execution, node, run, item, operation and body. */
export function idempotencyKeyFor(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: KeyedRequest,
): string {
	const { operation, body, explicitKey } = request;
	if (explicitKey !== undefined && explicitKey !== '') return explicitKey;
	// A later run of the node in the same execution (a loop) is other items; Retry On Fail keeps the run index.
	const { runIndex, nodeName, workflowId } = runKeysOf(ctx, itemIndex);
	return deriveIdempotencyKey({
		workflowId,
		executionId: ctx.getExecutionId(),
		nodeName,
		itemIndex,
		operation: runIndex > 0 ? `${operation}#run${runIndex}` : operation,
		body,
	});
}
