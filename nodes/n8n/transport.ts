/**
 * The one HTTP loop of the package, behind each service's request function
 * (orchestrationApiRequest, gatewayApiRequest): n8n's credential authenticates, the call is paced by
 * the service's rate limits, every attempt has a total deadline, safe failures are retried with the
 * same idempotency key (nodes/shared/retries.ts), redirects are never followed, and an answer that
 * is not a success becomes n8n's error (errors.ts) with every secret of the call redacted.
 */
import {
	sleep,
	type ICredentialsDecrypted,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IWebhookFunctions,
} from 'n8n-workflow';
import {
	DEFAULT_RETRY,
	isNetworkError,
	isRetryableStatus,
	mayHaveArrived,
	nextDelayMs,
	parseRetryAfter,
	type RetryPolicy,
} from '../shared/retries';
import { errorOf, networkError, redirectError, requestError, serviceError } from './errors';
import type { CallPacing } from './pacing';
import { assertToolActionAllowed } from './toolMode';

export type RequestContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

export interface ApiRequest {
	/** The credential that authenticates the call; none for public endpoints. */
	credentialType?: string;
	/** The credential as this node run already read it (no database read per request). */
	credentials?: ICredentialsDecrypted;
	method: IHttpRequestMethods;
	url: string;
	qs?: IDataObject;
	/** An object is sent as JSON; a string as already-serialized JSON (exact u64 digits). */
	body?: IDataObject | string;
	headers?: Record<string, string>;
	/** Sent as X-Idempotency-Key on every attempt: retries reuse it (orchestration-service.md §4). */
	idempotencyKey?: string;
	itemIndex?: number;
	retry?: Partial<RetryPolicy>;
	/** The credential renews an expirable token: a 401 goes once through n8n's re-authentication. */
	reauthenticateOn401?: boolean;
	/** The client-key scope the call needs, named in the scope_required hint. */
	requiredScope?: string;
	/** Hints for the service's error codes. */
	hints?: Record<string, string>;
	/** Further secrets to keep out of errors (read tokens, webhook secrets). */
	secrets?: Array<string | undefined>;
	/** Paces the call by the service's rate limit; a 429 then waits by it instead of the retry budget. */
	pacing?: CallPacing;
	/** Refused as an AI-agent tool unless "Allow Actions as AI Tool" is on (the endpoint changes something). */
	toolAction?: boolean;
	/** Told after every attempt what became of it (the gateway tells a lost answer from one that never arrived). */
	onAttempt?: (outcome: AttemptOutcome) => void;
}

export type AttemptOutcome =
	| { answered: true; statusCode: number }
	| { answered: false; mayHaveArrived: boolean };

export interface ApiResponse<T = unknown> {
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

/** Per-attempt deadline, 30 s for the whole exchange; tests lower `ms` (test/integration/lostAnswers). */
export const requestTimeout = { ms: 30_000 };
// ---------------------------------------------------------------- a total deadline per attempt

/*
 * n8n's `timeout` is an idle timeout, which a server sending a byte now and then never trips. No
 * timers: n8n-workflow's `sleep`, ended when the exchange settles.
 */

/** The deadline of each request of the gateway credential's login (challenge, verify); tests lower `ms`. */
export const authDeadline = { ms: 30_000 };

/** The deadline of one attempt passed before its exchange completed (a network failure to the retry rules). */
export class DeadlineExceeded extends Error {
	readonly code = 'ERR_DEADLINE';

	constructor(readonly ms: number) {
		super(
			`no complete answer within ${ms < 10_000 ? ms / 1000 : Math.round(ms / 1000)} s (the deadline of one attempt)`,
		);
		this.name = 'DeadlineExceeded';
	}
}

/** `signal` aborts at the deadline or on Stop; `settle` ends the wait there even where a layer ignores the signal. */
export function startDeadline(ms: number, stop: AbortSignal | undefined) {
	const connection = new AbortController();
	const timer = new AbortController();
	const onStop = () => connection.abort(stop?.reason);
	if (stop?.aborted) onStop();
	else stop?.addEventListener('abort', onStop, { once: true });
	let expired: DeadlineExceeded | undefined;
	const deadline = sleep(ms, timer.signal).then(() => {
		expired = new DeadlineExceeded(ms);
		connection.abort(expired);
		throw expired;
	});
	deadline.catch(() => undefined);
	return {
		signal: connection.signal,
		async settle<T>(running: Promise<T>): Promise<T> {
			try {
				return await Promise.race([running, deadline]);
			} catch (error) {
				// Aborted by the deadline, the exchange may fail with the helper's own cancel error first.
				throw expired ?? error;
			} finally {
				timer.abort();
				stop?.removeEventListener('abort', onStop);
				// Caught after the race, so the exchange keeps one reaction and its async stack stays whole.
				running.catch(() => undefined);
			}
		},
	};
}

// ---------------------------------------------------------------- the loop

function parseBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	if (body === '') return undefined;
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

export function cancelSignalOf(ctx: RequestContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx && typeof ctx.getExecutionCancelSignal === 'function'
		? ctx.getExecutionCancelSignal()
		: undefined;
}

function requestOptions(
	request: ApiRequest,
	throwOnStatus: boolean,
	signal: AbortSignal,
): IHttpRequestOptions {
	const headers: Record<string, string> = {
		Accept: 'application/json',
		...(request.headers ?? {}),
	};
	if (request.idempotencyKey !== undefined) headers['X-Idempotency-Key'] = request.idempotencyKey;
	if (request.body !== undefined) headers['Content-Type'] = 'application/json';
	return {
		method: request.method,
		url: request.url,
		qs: request.qs,
		body: request.body,
		headers,
		json: typeof request.body !== 'string',
		returnFullResponse: true,
		ignoreHttpStatusErrors: !throwOnStatus,
		abortSignal: signal,
		// n8n follows redirects and, by default, sends the credential along to another origin: neither.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
}

/**
 * One exchange within its deadline, through n8n's credential system when the request names a
 * credential. n8n's httpRequestWithAuthentication puts the execution's cancel signal in place of
 * the request's own, so it runs on a view of the context whose cancel signal is the deadline's.
 */
async function send(
	ctx: RequestContext,
	request: ApiRequest,
	throwOnStatus: boolean,
	signal: AbortSignal,
): Promise<FullResponse> {
	const options = requestOptions(request, throwOnStatus, signal);
	if (request.credentialType === undefined)
		return (await ctx.helpers.httpRequest(options)) as FullResponse;
	const read = request.credentials ? { credentialsDecrypted: request.credentials } : undefined;
	const scoped = Object.create(ctx, {
		getExecutionCancelSignal: { value: () => signal },
	}) as RequestContext;
	return (await ctx.helpers.httpRequestWithAuthentication.call(
		scoped,
		request.credentialType,
		options,
		read,
	)) as FullResponse;
}

/** One attempt within its deadline (or Stop). */
async function attempt(
	ctx: RequestContext,
	request: ApiRequest,
	throwOnStatus: boolean,
): Promise<FullResponse> {
	const deadline = startDeadline(requestTimeout.ms, cancelSignalOf(ctx));
	return await deadline.settle(send(ctx, request, throwOnStatus, deadline.signal));
}

/**
 * After a 401 n8n renews the token (preAuthentication) and repeats once, but throws the repeat's
 * HTTP error as a bare NodeApiError: its answer is taken back from the error's cause, so it goes the
 * way of any other answer. Only an exchange without an answer stays an exception.
 */
async function sendAfterRenewal(ctx: RequestContext, request: ApiRequest): Promise<FullResponse> {
	try {
		return await attempt(ctx, request, true);
	} catch (error) {
		const response = (
			error as { cause?: { response?: { status?: unknown; headers?: unknown; data?: unknown } } }
		).cause?.response;
		if (!response || typeof response.status !== 'number')
			throw (error as { cause?: unknown }).cause ?? error;
		return {
			statusCode: response.status,
			headers: (response.headers ?? {}) as Record<string, unknown>,
			body: response.data,
		};
	}
}

/** Credential fields whose values are secret; a public key or the URL a token belongs to are not. */
function isSecretField(name: string): boolean {
	return /key|token|secret|password/i.test(name) && !/publickey|url$/i.test(name);
}

/** Every secret of a request (its own and its credential's), trimmed too: errors never show one. */
export async function secretsOf(
	ctx: RequestContext,
	request: Pick<ApiRequest, 'secrets' | 'credentialType'>,
): Promise<string[]> {
	const secrets = (request.secrets ?? []).flatMap((s) => (s === undefined ? [] : [s, s.trim()]));
	if (request.credentialType === undefined) return secrets;
	try {
		const creds = await ctx.getCredentials(request.credentialType);
		for (const [k, v] of Object.entries(creds))
			if (typeof v === 'string' && isSecretField(k)) secrets.push(v, v.trim());
	} catch {
		// No credential to read: nothing more to redact.
	}
	return secrets;
}

/** Sends one request with n8n's authentication, paced, retrying what is safe to retry; any other answer is n8n's error. */
export async function apiRequest(this: RequestContext, request: ApiRequest): Promise<ApiResponse> {
	if (request.toolAction === true)
		assertToolActionAllowed(
			this,
			`A ${request.method} request (it changes something at the service)`,
		);
	const policy: RetryPolicy = { ...DEFAULT_RETRY, ...(request.retry ?? {}) };
	const stop = cancelSignalOf(this);
	const started = Date.now();
	const node = this.getNode();
	const failure = async () => ({ node, request, secrets: await secretsOf(this, request) });
	let waited = 0;
	for (let attempt = 1; ; attempt++) {
		let res: FullResponse;
		try {
			await request.pacing?.admit();
			const deadline = startDeadline(requestTimeout.ms, stop);
			res = await deadline.settle(send(this, request, false, deadline.signal));
			request.pacing?.answered(res);
		} catch (error) {
			request.pacing?.answered(undefined);
			request.onAttempt?.({ answered: false, mayHaveArrived: mayHaveArrived(error) });
			const delay = nextDelayMs(policy, attempt);
			if (
				policy.retryNetworkErrors &&
				isNetworkError(error) &&
				attempt < policy.maxAttempts &&
				waited + delay <= policy.maxElapsedMs
			) {
				waited += delay;
				await sleep(delay, stop);
				continue;
			}
			throw isNetworkError(error)
				? networkError(await failure(), error, attempt)
				: requestError(await failure(), error);
		}
		// Let n8n see a 401: it renews the expirable token and repeats once.
		if (
			res.statusCode === 401 &&
			request.reauthenticateOn401 &&
			request.credentialType !== undefined
		)
			res = await sendAfterRenewal(this, request);
		request.onAttempt?.({ answered: true, statusCode: res.statusCode });
		res.body = parseBody(res.body);
		if (res.statusCode >= 200 && res.statusCode < 300)
			return {
				statusCode: res.statusCode,
				headers: res.headers ?? {},
				body: res.body,
				attempts: attempt,
			};
		// Never followed: an error naming where it pointed, never retried.
		if (res.statusCode >= 300 && res.statusCode < 400)
			throw redirectError(await failure(), res, attempt);
		// A paced call waits out a 429 by the pacer (Retry-After, up to the item's maximum), the same key on every try.
		if (res.statusCode === 429 && request.pacing) {
			const denial = request.pacing.denied();
			if (denial.retry) continue;
			throw serviceError(await failure(), res, attempt, denial.reason);
		}
		let beyondBudget: string | undefined;
		if (isRetryableStatus(res.statusCode, errorOf(res.body).code) && attempt < policy.maxAttempts) {
			const retryAfter = parseRetryAfter(res.headers?.['retry-after']);
			const delay = nextDelayMs(policy, attempt, retryAfter);
			// A Retry-After beyond the budget is honoured by giving up now, not by retrying before it.
			const honoured = retryAfter === undefined || retryAfter <= delay;
			if (
				honoured &&
				waited + delay <= policy.maxElapsedMs &&
				Date.now() - started + delay <= policy.maxElapsedMs * 2
			) {
				waited += delay;
				await sleep(delay, stop);
				continue;
			}
			if (!honoured)
				beyondBudget = `The service asks to wait ${Math.round((retryAfter as number) / 1000)} s (Retry-After), more than this call's retry budget of ${Math.round(policy.maxElapsedMs / 1000)} s: it was not retried.`;
		}
		throw serviceError(await failure(), res, attempt, beyondBudget);
	}
}
