/** Idempotency keys for mutating calls: an n8n retry of the same item sends the same key. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { deriveIdempotencyKey } from '../shared/orchestration/idempotency';

/** The call a key is for: the operation, its body, and the key the user set (if any). */
export interface KeyedRequest {
	operation: string;
	body: unknown;
	explicitKey?: string;
}

/**
 * The explicit key when the user set one (for example a payout id, to dedupe across executions),
 * otherwise a key derived from workflow id, execution id, node, run index, item index, operation and body.
 */
export function idempotencyKeyFor(ctx: IExecuteFunctions, itemIndex: number, request: KeyedRequest): string {
	const { operation, body, explicitKey } = request;
	// The explicit key was checked once, when the item was read (explicitIdempotencyKey).
	if (explicitKey !== undefined && explicitKey !== '') return explicitKey;
	// A later run of the node in the same execution (a loop) is other items; Retry On Fail keeps the run index.
	const runIndex = Number(ctx.getWorkflowDataProxy(itemIndex).$runIndex ?? 0);
	return deriveIdempotencyKey({
		workflowId: ctx.getWorkflow().id,
		executionId: ctx.getExecutionId(),
		nodeName: ctx.getNode().name,
		itemIndex,
		operation: runIndex > 0 ? `${operation}#run${runIndex}` : operation,
		body,
	});
}
