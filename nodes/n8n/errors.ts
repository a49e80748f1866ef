/**
 * n8n's errors of this package, made here and nowhere else: a NodeOperationError (ItemError) is a
 * failure n8n raises itself (bad input, a refused state, a wait that ended, a credential refused
 * before any request); a NodeApiError (ServiceError) is the service's answer, its silence, or an
 * answer the node cannot use. The core's ProtocolError is translated once, by the per-item loop
 * (itemErrorOf), naming the field and the item. The service's code travels in `errorCode`.
 */
import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';
import { ProtocolError } from '../shared/errors';
import { redact } from '../shared/redact';

export interface ItemErrorOptions {
	/** The item the failure is of; none for a failure of the whole run (the credential, the operation chosen). */
	itemIndex?: number;
	description?: string;
	/** The service's code for the same failure (e.g. the gateway's admission code), when it has one. */
	errorCode?: string;
}

/** A failure that n8n raised, not the service: bad input, a refused network state, a wait timeout. */
export class ItemError extends NodeOperationError {
	readonly errorCode?: string;

	constructor(node: INode, message: string, options: ItemErrorOptions = {}) {
		super(node, message, { itemIndex: options.itemIndex, description: options.description });
		// n8n tells node errors apart by name (n8n-core WorkflowExecute.rethrowNodeError), not by class.
		this.name = 'NodeOperationError';
		this.errorCode = options.errorCode;
	}
}

export interface ServiceErrorOptions {
	message: string;
	itemIndex?: number;
	description?: string;
	httpCode?: string;
	/** The service's machine code (`error.code` of the body); undefined when it sent none. */
	errorCode?: string;
	/** Attempts made: more than one means an earlier attempt may have acted. */
	attempts?: number;
}

/** The service answered with an error, could not be reached, or answered what the node cannot use. */
export class ServiceError extends NodeApiError {
	readonly errorCode?: string;
	readonly attempts?: number;

	constructor(node: INode, errorResponse: JsonObject, options: ServiceErrorOptions) {
		const { errorCode, attempts, ...shown } = options;
		super(node, errorResponse, shown);
		// n8n tells node errors apart by name (n8n-core WorkflowExecute.rethrowNodeError), not by class.
		this.name = 'NodeApiError';
		this.errorCode = errorCode;
		this.attempts = attempts;
	}
}

/** The same service error with `detail` added to its description (a hint the answer alone cannot give). */
export function withDetail(error: ServiceError, detail: string): ServiceError {
	const description = [error.description, detail]
		.filter((t) => typeof t === 'string' && t !== '')
		.join(' ');
	return new ServiceError(
		error.node,
		{ code: error.errorCode ?? null, message: error.message, httpCode: error.httpCode ?? null },
		{
			message: error.message,
			description,
			httpCode: error.httpCode ?? undefined,
			itemIndex: (error.context?.itemIndex as number | undefined) ?? undefined,
			errorCode: error.errorCode,
			attempts: error.attempts,
		},
	);
}

/** Thrown when the execution is stopped during a wait (nodes/n8n/wait.ts); the loop makes it the item's error. */
export class WaitStopped extends Error {
	constructor() {
		super('The wait was stopped: the execution was cancelled');
	}
}

/** One wrong field of an item: its name, what is wrong, and the service's code for the same mistake. */
export interface FieldMistake {
	field: string;
	problem: string;
	errorCode?: string;
}

/** `Invalid "<field>" in item N: <problem>`, raised before any request leaves. */
export function fieldError(
	node: INode,
	itemIndex: number,
	{ field, problem, errorCode }: FieldMistake,
): ItemError {
	return new ItemError(node, `Invalid "${field}" in item ${itemIndex}: ${problem}`, {
		itemIndex,
		description: `Fix "${field}" for item ${itemIndex}; nothing was sent to the service.`,
		errorCode,
	});
}

/** How a node names the core's fields and codes (the parameter name, the service's code for it). */
export interface FieldNaming {
	field?: (coreField: string) => string;
	errorCode?: (field: string, reason?: string) => string | undefined;
}

/**
 * Any failure of one item as n8n's error, the one translation (the per-item loop's): a core error
 * names its field; a stopped wait says so; n8n's errors pass as they are.
 */
export function itemErrorOf(
	node: INode,
	itemIndex: number,
	error: unknown,
	naming: FieldNaming = {},
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof ProtocolError && error.field !== undefined) {
		const field = naming.field?.(error.field) ?? error.field;
		return fieldError(node, itemIndex, {
			field,
			problem: error.message,
			errorCode: naming.errorCode?.(error.field, error.reason),
		});
	}
	if (error instanceof WaitStopped) return new ItemError(node, error.message, { itemIndex });
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/** The machine code of a failure, for the error item of continueOnFail. */
export function errorCodeOf(error: unknown): string | undefined {
	return error instanceof ItemError || error instanceof ServiceError ? error.errorCode : undefined;
}

// ---------------------------------------------------------------- the service's answers as errors

/**
 * Hints for the codes of the shared HTTP rules (idempotency keys, rate limits, body size) that any
 * service of this package may answer. A service passes hints for its own codes as ApiRequest.hints.
 */
export const COMMON_HINTS: Record<string, string> = {
	missing_idempotency_key: 'The service needs an idempotency key for this operation.',
	invalid_idempotency_key: 'Idempotency keys are 1 to 255 printable ASCII characters.',
	idempotency_conflict:
		'This idempotency key was already used with a different request. Use a new key for a changed request (the service stores the first answer, errors included).',
	idempotency_in_progress:
		'The same request is still being processed; it was retried until the retry budget ran out.',
	rate_limited:
		'Rate limit reached. With On Rate Limit = Wait the item waited by Retry-After up to its Max Rate Limit Wait (other calls retry within a 30 s budget). Raise that maximum or try again later.',
	payload_too_large: 'The request body is larger than 1 MiB.',
};

/** Which scope each operation needs from a client key (orchestration-service.md §5). */
export function scopeHint(requiredScope: string | undefined): string | undefined {
	return requiredScope
		? `This operation needs the client-key scope "${requiredScope}".`
		: undefined;
}

export function errorOf(body: unknown): { code?: string; message?: string } {
	const err = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
	if (err && typeof err === 'object') {
		return {
			code: typeof err.code === 'string' ? err.code : undefined,
			message: typeof err.message === 'string' ? err.message : undefined,
		};
	}
	return {};
}

/** Characters of an error body's text shown in an error; the rest is cut. */
export const ERROR_TEXT_CHARS = 300;
/** Only this much of a body is looked at, so no pattern ever runs over a huge answer. */
const ERROR_SCAN_CHARS = 4_096;

/**
 * The readable text of an error body of any shape (public-notes.md: the live service's error
 * bodies vary): a message-like field of a JSON object, else the JSON itself; HTML without its
 * tags; plain text as is. Secrets removed, whitespace collapsed, cut to ERROR_TEXT_CHARS.
 */
export function errorBodyText(body: unknown, secrets: Array<string | undefined>): string {
	if (body === undefined || body === null || body === '') return '';
	let text: string;
	if (typeof body === 'string') text = body.slice(0, ERROR_SCAN_CHARS);
	else {
		const b = body as { message?: unknown; error?: unknown; detail?: unknown; title?: unknown };
		const nested = (b.error as { message?: unknown } | undefined)?.message;
		const field = [b.message, nested, b.error, b.detail, b.title].find(
			(v) => typeof v === 'string' && v.trim() !== '',
		);
		text =
			typeof field === 'string'
				? field.slice(0, ERROR_SCAN_CHARS)
				: (JSON.stringify(body) ?? String(body)).slice(0, ERROR_SCAN_CHARS);
	}
	if (/^\s*</.test(text))
		text = text.replace(/<(script|style)[^>]*>[^<]*<\/\1>/gi, ' ').replace(/<[^>]{0,512}>/g, ' ');
	const clean = redact(text.replace(/\s+/g, ' ').trim(), secrets);
	return clean.length > ERROR_TEXT_CHARS ? `${clean.slice(0, ERROR_TEXT_CHARS)}…` : clean;
}

/** What an error of a request is built from: the node, the request (item, hints, scope, URL) and its secrets. */
export interface FailedRequest {
	node: INode;
	request: {
		itemIndex?: number;
		hints?: Record<string, string>;
		requiredScope?: string;
		url: string;
	};
	secrets: Array<string | undefined>;
}

/** An answer that is not a success: code, HTTP status, message, a hint and the attempts made; `detail` (why it was not retried) before the hint. */
export function serviceError(
	{ node, request, secrets }: FailedRequest,
	res: { statusCode: number; body: unknown },
	attempts: number,
	detail?: string,
): ServiceError {
	const { code, message } = errorOf(res.body);
	const clean = (t: string) => redact(t, secrets);
	const bodyText = code ? '' : errorBodyText(res.body, secrets);
	const what = code
		? `${code}: ${message ?? 'no message'}`
		: `HTTP ${res.statusCode}${bodyText ? `: ${bodyText}` : ' (empty body)'}`;
	const hint =
		code === 'scope_required'
			? (scopeHint(request.requiredScope) ?? request.hints?.[code])
			: code
				? (request.hints?.[code] ?? COMMON_HINTS[code])
				: undefined;
	const retried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
	const description = [detail, hint]
		.filter((t): t is string => t !== undefined && t !== '')
		.join(' ');
	const errorResponse: JsonObject = {
		code: code ?? null,
		message: clean(message ?? (bodyText || `HTTP ${res.statusCode}`)),
		httpCode: String(res.statusCode),
	};
	// Callers tell an answer to a retry (an earlier attempt may have acted) from a first answer by `attempts`.
	return new ServiceError(node, errorResponse, {
		message: clean(`${what}${retried}`),
		description: description ? clean(description) : undefined,
		httpCode: String(res.statusCode),
		itemIndex: request.itemIndex,
		errorCode: code,
		attempts,
	});
}

/** `scheme://host[:port]` of a Location header (never its path or query, which may carry data), or why there is none. */
function originOf(location: unknown, base: string): string {
	const text = Array.isArray(location) ? location[0] : location;
	if (typeof text !== 'string' || text.trim() === '') return 'no address (no Location header)';
	try {
		return new URL(text.trim(), base).origin;
	} catch {
		return 'an address that is not a URL';
	}
}

/** A redirect answer (3xx), never followed: the error names where it pointed (its origin only) and what to fix. */
export function redirectError(
	{ node, request, secrets }: FailedRequest,
	res: { statusCode: number; headers: Record<string, unknown> },
	attempts: number,
): ServiceError {
	const target = originOf(res.headers?.location, request.url);
	const here = originOf(request.url, request.url);
	const where = target === here ? `another path of ${target}` : target;
	const message = redact(
		`HTTP ${res.statusCode}: the service answered with a redirect to ${where}, which is not followed`,
		secrets,
	);
	const description = redact(
		`Redirects are never followed, so the key and the request went nowhere else. Set the credential's URL to the address the service answers on directly (as its documentation gives it), not one that redirects (for example http:// to https://, or another host).`,
		secrets,
	);
	return new ServiceError(
		node,
		{ code: 'redirect_not_followed', message, httpCode: String(res.statusCode) },
		{
			message,
			description,
			httpCode: String(res.statusCode),
			itemIndex: request.itemIndex,
			errorCode: 'redirect_not_followed',
			attempts,
		},
	);
}

/** No answer: the service could not be reached, or did not answer completely within an attempt's deadline. */
export function networkError(
	{ node, request, secrets }: FailedRequest,
	error: unknown,
	attempts: number,
): ServiceError {
	const e = error as { code?: string; message?: string; ms?: number };
	const message = redact(
		e.code === 'ERR_DEADLINE' && typeof e.ms === 'number'
			? `The service did not answer completely within ${e.ms / 1000} s, after ${attempts} attempt(s) (each attempt has this deadline)`
			: `Could not reach the service (${e.code ?? 'network error'}) after ${attempts} attempt(s)`,
		secrets,
	);
	return new ServiceError(
		node,
		{ code: e.code ?? 'network_error', message },
		{
			message,
			description: redact(String(e.message ?? ''), secrets),
			itemIndex: request.itemIndex,
			attempts,
		},
	);
}

/** A failure that is neither an answer nor a network error, its message without the request's secrets. */
export function requestError(
	{ node, request, secrets }: FailedRequest,
	error: unknown,
): ServiceError {
	const message = redact((error as Error).message ?? 'request failed', secrets);
	return new ServiceError(node, { message }, { message, itemIndex: request.itemIndex });
}
