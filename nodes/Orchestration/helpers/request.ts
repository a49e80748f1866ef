/** The node's one way to the service: the shared transport with this node's credential and base URL. */
import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';
import { deriveIdempotencyKey } from '../../shared/orchestration/idempotency';
import { callService, joinUrl, type RequestContext, type ServiceResponse } from '../../transport/request';
import type { ServiceAccess } from './access';

export interface OrchestrationCall {
	method: IHttpRequestMethods;
	/** Path under the base URL, e.g. /v1/orchestration/quote. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	headers?: Record<string, string>;
	/** Mutating calls send it on every attempt (orchestration-service.md §4). */
	idempotencyKey?: string;
	itemIndex?: number;
	/** The client-key scope the operation needs (§5), named in the scope_required hint. */
	requiredScope?: string;
	/** Further secrets to keep out of errors (read tokens). */
	secrets?: Array<string | undefined>;
}

export async function orchestrationRequest<T = unknown>(
	ctx: RequestContext,
	access: ServiceAccess,
	call: OrchestrationCall,
): Promise<ServiceResponse<T>> {
	return (await callService.call(ctx, {
		credentialType: access.credentialType,
		method: call.method,
		url: joinUrl(access.baseUrl, call.path),
		qs: call.qs,
		body: call.body,
		headers: call.headers,
		idempotencyKey: call.idempotencyKey,
		itemIndex: call.itemIndex,
		requiredScope: access.isClientKey ? call.requiredScope : undefined,
		secrets: call.secrets,
	})) as ServiceResponse<T>;
}

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
