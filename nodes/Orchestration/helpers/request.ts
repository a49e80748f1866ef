/** The node's one way to the service: the shared transport with this node's credential and base URL. */
import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';
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
