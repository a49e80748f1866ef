/**
 * What one service call is (its context, request, retry policy and raw answer): the types that
 * transport.ts (which sends calls) and serviceErrors.ts (which turns answers into errors) share.
 */
import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import type { RetryPolicy } from '../shared/retries';
import type { CallPacing } from './pacing';

export type RequestContext = IExecuteFunctions | IHookFunctions | ILoadOptionsFunctions | IWebhookFunctions;

export interface ServiceCall {
	/** The credential that authenticates the call; none for public endpoints. */
	credentialType?: string;
	method: IHttpRequestMethods;
	/** Absolute URL (the service's base URL joined with the path: joinUrl of nodes/shared/secureUrl.ts). */
	url: string;
	qs?: IDataObject;
	/** An object is sent as JSON; a string is sent as already-serialized JSON (exact u64 digits). */
	body?: IDataObject | string;
	headers?: Record<string, string>;
	/** Sent as X-Idempotency-Key on every attempt: retries reuse it (orchestration-service.md §4). */
	idempotencyKey?: string;
	itemIndex?: number;
	retry?: Partial<RetryPolicy>;
	/** The credential renews an expirable token: a 401 goes once through n8n's re-authentication. */
	reauthenticateOn401?: boolean;
	/** For client keys: the scope the operation needs, named in the scope_required hint. */
	requiredScope?: string;
	/** Hints for this service's own error codes; they take precedence over COMMON_HINTS. */
	hints?: Record<string, string>;
	/** Extra secret values to keep out of errors (read tokens, webhook secrets). */
	secrets?: Array<string | undefined>;
	/** Paces the call by the service's rate limit (pacing.ts); a 429 then waits by it instead of the retry budget. */
	pacing?: CallPacing;
	/** The credential as this node run already read it: n8n then authenticates without reading and decrypting it again per request. */
	credentials?: ICredentialsDecrypted;
	/** Told after every attempt what became of it (the gateway tells a lost answer from a request that never arrived). */
	onAttempt?: (outcome: AttemptOutcome) => void;
}

/** One attempt of a call: an answer with its status, or none (and whether the request may still have reached the service). */
export type AttemptOutcome = { answered: true; statusCode: number } | { answered: false; mayHaveArrived: boolean };

export interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}
