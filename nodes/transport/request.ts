/**
 * The single door to HTTP for every node of this package: authentication through n8n's
 * credential system, bounded retries with the same idempotency key, and service error bodies
 * turned into NodeApiError with code, HTTP status and a hint. No secret reaches an error.
 */
import {
	NodeApiError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';
import { ERROR_HINTS, redact, scopeHint } from './errors';
import { ServiceError } from './nodeErrors';
import { baseUrlOf } from './secureUrl';
import { DEFAULT_RETRY, isNetworkError, isRetryableStatus, nextDelayMs, parseRetryAfter, type RetryPolicy } from './retry';

export type RequestContext = IExecuteFunctions | IHookFunctions | ILoadOptionsFunctions | IWebhookFunctions;

export interface ServiceCall {
	/** The credential that authenticates the call; none for public endpoints. */
	credentialType?: string;
	method: IHttpRequestMethods;
	/** Absolute URL (see serviceUrl). */
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
	/** Hints for this service's own error codes; they take precedence over ERROR_HINTS. */
	hints?: Record<string, string>;
	/** Extra secret values to keep out of errors (read tokens, webhook secrets). */
	secrets?: Array<string | undefined>;
}

export interface ServiceResponse<T = unknown> {
	statusCode: number;
	headers: Record<string, unknown>;
	body: T;
	attempts: number;
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/** Base URL of a credential without trailing slashes, joined with a path. */
export function joinUrl(baseUrl: unknown, path: string): string {
	const base = baseUrlOf(baseUrl);
	return `${base}${path.startsWith('/') ? path : `/${path}`}`;
}

function parseBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	if (body === '') return undefined;
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

function errorOf(body: unknown): { code?: string; message?: string } {
	const err = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
	if (err && typeof err === 'object') {
		return {
			code: typeof err.code === 'string' ? err.code : undefined,
			message: typeof err.message === 'string' ? err.message : undefined,
		};
	}
	return {};
}

/** Credential fields whose values are secret; a public key or the URL a token belongs to are not. */
function isSecretField(name: string): boolean {
	return /key|token|secret|password/i.test(name) && !/publickey|url$/i.test(name);
}

async function secretsOf(ctx: RequestContext, call: ServiceCall): Promise<Array<string | undefined>> {
	const secrets = (call.secrets ?? []).flatMap((s) => (s === undefined ? [] : [s, s.trim()]));
	if (call.credentialType === undefined) return secrets;
	try {
		const creds = await ctx.getCredentials(call.credentialType);
		for (const [k, v] of Object.entries(creds)) {
			// The trimmed value too: credentials send the key trimmed, so a pasted key with a stray space would slip past.
			if (typeof v === 'string' && isSecretField(k)) secrets.push(v, v.trim());
		}
	} catch {
		// No credential to read: nothing more to redact.
	}
	return secrets;
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
		const field = [b.message, nested, b.error, b.detail, b.title].find((v) => typeof v === 'string' && v.trim() !== '');
		text = typeof field === 'string' ? field.slice(0, ERROR_SCAN_CHARS) : (JSON.stringify(body) ?? String(body)).slice(0, ERROR_SCAN_CHARS);
	}
	if (/^\s*</.test(text)) text = text.replace(/<(script|style)[^>]*>[^<]*<\/\1>/gi, ' ').replace(/<[^>]{0,512}>/g, ' ');
	const clean = redact(text.replace(/\s+/g, ' ').trim(), secrets);
	return clean.length > ERROR_TEXT_CHARS ? `${clean.slice(0, ERROR_TEXT_CHARS)}…` : clean;
}

/** Throws the service's error as a ServiceError: code, HTTP status, message, a hint and the attempts made. */
async function throwServiceError(ctx: RequestContext, call: ServiceCall, res: FullResponse, attempts: number): Promise<never> {
	const secrets = await secretsOf(ctx, call);
	const { code, message } = errorOf(res.body);
	const clean = (t: string) => redact(t, secrets);
	const bodyText = code ? '' : errorBodyText(res.body, secrets);
	const what = code ? `${code}: ${message ?? 'no message'}` : `HTTP ${res.statusCode}${bodyText ? `: ${bodyText}` : ' (empty body)'}`;
	const hint =
		code === 'scope_required'
			? (scopeHint(call.requiredScope) ?? ERROR_HINTS[code])
			: code
				? (call.hints?.[code] ?? ERROR_HINTS[code])
				: undefined;
	const retried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
	const errorResponse: JsonObject = {
		code: code ?? null,
		message: clean(message ?? (bodyText || `HTTP ${res.statusCode}`)),
		httpCode: String(res.statusCode),
	};
	// Callers tell an answer to a retry (an earlier attempt may have acted) from a first answer by `attempts`.
	throw new ServiceError(ctx.getNode(), errorResponse, {
		message: clean(`${what}${retried}`),
		description: hint ? clean(hint) : undefined,
		httpCode: String(res.statusCode),
		itemIndex: call.itemIndex,
		errorCode: code,
		attempts,
	});
}

async function throwNetworkError(ctx: RequestContext, call: ServiceCall, error: unknown, attempts: number): Promise<never> {
	const secrets = await secretsOf(ctx, call);
	const e = error as { code?: string; message?: string };
	const message = redact(`Could not reach the service (${e.code ?? 'network error'}) after ${attempts} attempt(s)`, secrets);
	throw new ServiceError(
		ctx.getNode(),
		{ code: e.code ?? 'network_error', message },
		{ message, description: redact(String(e.message ?? ''), secrets), itemIndex: call.itemIndex, attempts },
	);
}

/** Per-attempt timeout, 30 s; tests lower `ms` to make an answer arrive too late (test/integration/lostAnswers). */
export const requestTimeout = { ms: 30_000 };

function requestOptions(call: ServiceCall, throwOnStatus: boolean): IHttpRequestOptions {
	const headers: Record<string, string> = { Accept: 'application/json', ...(call.headers ?? {}) };
	if (call.idempotencyKey !== undefined) headers['X-Idempotency-Key'] = call.idempotencyKey;
	if (call.body !== undefined) headers['Content-Type'] = 'application/json';
	return {
		method: call.method,
		url: call.url,
		qs: call.qs,
		body: call.body,
		headers,
		json: typeof call.body !== 'string',
		returnFullResponse: true,
		ignoreHttpStatusErrors: !throwOnStatus,
		timeout: requestTimeout.ms,
	};
}

/** One HTTP exchange: through n8n's credential system when the call names a credential. */
async function send(ctx: RequestContext, call: ServiceCall, throwOnStatus: boolean): Promise<FullResponse> {
	const options = requestOptions(call, throwOnStatus);
	if (call.credentialType === undefined) return (await ctx.helpers.httpRequest(options)) as FullResponse;
	return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, call.credentialType, options)) as FullResponse;
}

/**
 * After a 401: n8n renews the token (preAuthentication) and repeats the request once, but throws
 * the repeat's HTTP error as a bare NodeApiError. Its answer (status, headers, body) is taken back
 * from the error's cause, so the repeat's error goes the way of any other answer (code, message,
 * hint, Retry-After, retries). Only an exchange without an answer stays an exception.
 */
async function sendAfterRenewal(ctx: RequestContext, call: ServiceCall): Promise<FullResponse> {
	try {
		return await send(ctx, call, true);
	} catch (error) {
		const response = (error as { cause?: { response?: { status?: unknown; headers?: unknown; data?: unknown } } }).cause?.response;
		if (!response || typeof response.status !== 'number') throw (error as { cause?: unknown }).cause ?? error;
		return { statusCode: response.status, headers: (response.headers ?? {}) as Record<string, unknown>, body: response.data };
	}
}

/** Sends one service call with n8n's authentication, retrying what is safe to retry. */
export async function callService<T = unknown>(this: RequestContext, call: ServiceCall): Promise<ServiceResponse<T>> {
	const policy: RetryPolicy = { ...DEFAULT_RETRY, ...(call.retry ?? {}) };
	const started = Date.now();
	let waited = 0;
	for (let attempt = 1; ; attempt++) {
		let res: FullResponse;
		try {
			res = await send(this, call, false);
			if (res.statusCode === 401 && call.reauthenticateOn401 && call.credentialType !== undefined) {
				// Let n8n see the 401: it renews the expirable token (preAuthentication) and repeats once.
				res = await sendAfterRenewal(this, call);
			}
		} catch (error) {
			const canRetry = policy.retryNetworkErrors && isNetworkError(error) && attempt < policy.maxAttempts;
			const delay = nextDelayMs(policy, attempt);
			if (canRetry && waited + delay <= policy.maxElapsedMs) {
				waited += delay;
				await sleep(delay);
				continue;
			}
			if (isNetworkError(error)) return await throwNetworkError(this, call, error, attempt);
			const secrets = await secretsOf(this, call);
			const message = redact((error as Error).message ?? 'request failed', secrets);
			throw new NodeApiError(this.getNode(), { message }, { message, itemIndex: call.itemIndex });
		}
		res.body = parseBody(res.body);
		if (res.statusCode >= 200 && res.statusCode < 300) {
			return { statusCode: res.statusCode, headers: res.headers ?? {}, body: res.body as T, attempts: attempt };
		}
		const { code } = errorOf(res.body);
		if (isRetryableStatus(res.statusCode, code) && attempt < policy.maxAttempts) {
			const retryAfter = parseRetryAfter(res.headers?.['retry-after']);
			const delay = nextDelayMs(policy, attempt, retryAfter);
			// A Retry-After beyond the budget is honoured by giving up now, not by retrying before it.
			const honoured = retryAfter === undefined || retryAfter <= delay;
			if (honoured && waited + delay <= policy.maxElapsedMs && Date.now() - started + delay <= policy.maxElapsedMs * 2) {
				waited += delay;
				await sleep(delay);
				continue;
			}
		}
		return await throwServiceError(this, call, res, attempt);
	}
}
