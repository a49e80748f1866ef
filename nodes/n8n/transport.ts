/**
 * The single door to HTTP for every node of this package: authentication through n8n's credential
 * system and bounded retries with the same idempotency key (their pauses end on Stop; the rules are
 * nodes/shared/retries.ts). Redirects are never followed (a redirect is an error: no key goes to
 * another address), and every attempt has a total deadline (deadline.ts). Where keys may go:
 * nodes/shared/secureUrl.ts; the cache of answers: expiringCache.ts; the wait until final: wait.ts.
 * Service error bodies become a ServiceError in serviceErrors.ts.
 */
import { sleep, type IHttpRequestOptions } from 'n8n-workflow';
import { redact } from '../shared/redact';
import { DEFAULT_RETRY, isNetworkError, isRetryableStatus, mayHaveArrived, nextDelayMs, parseRetryAfter, type RetryPolicy } from '../shared/retries';
import { withDeadline } from './deadline';
import { ServiceError } from './errors';
import type { FullResponse, RequestContext, ServiceCall } from './serviceCall';
import { errorOf, secretsOf, throwNetworkError, throwRedirectError, throwServiceError } from './serviceErrors';
import { assertToolActionAllowed } from './toolMode';

export type { FullResponse, RequestContext, ServiceCall } from './serviceCall';

export interface ServiceResponse<T = unknown> {
	statusCode: number;
	headers: Record<string, unknown>;
	body: T;
	attempts: number;
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

/**
 * Per-attempt deadline, 30 s: the whole exchange (connection, headers, body); tests lower `ms` to
 * make an answer arrive too late (test/integration/lostAnswers).
 */
export const requestTimeout = { ms: 30_000 };

function requestOptions(call: ServiceCall, throwOnStatus: boolean, signal: AbortSignal): IHttpRequestOptions {
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
		// The whole exchange ends at the deadline (send): n8n's `timeout` would only bound idle time.
		abortSignal: signal,
		// n8n follows redirects and, by default, sends the credential along to another origin: neither.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
}

function cancelSignalOf(ctx: RequestContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
}

/**
 * One HTTP exchange within its deadline: through n8n's credential system when the call names a
 * credential. n8n's httpRequestWithAuthentication puts the execution's cancel signal in place of
 * the request's own, so it runs on a view of the context whose cancel signal is the exchange's
 * (Stop or the deadline, whichever first).
 */
async function send(ctx: RequestContext, call: ServiceCall, throwOnStatus: boolean): Promise<FullResponse> {
	return await withDeadline(requestTimeout.ms, cancelSignalOf(ctx), async (signal) => {
		const options = requestOptions(call, throwOnStatus, signal);
		if (call.credentialType === undefined) return (await ctx.helpers.httpRequest(options)) as FullResponse;
		const read = call.credentials ? { credentialsDecrypted: call.credentials } : undefined;
		const scoped = Object.create(ctx, { getExecutionCancelSignal: { value: () => signal } }) as RequestContext;
		return (await ctx.helpers.httpRequestWithAuthentication.call(scoped, call.credentialType, options, read)) as FullResponse;
	});
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

/** One attempt: paced when the call is; after a 401, once more with the token n8n renews. */
async function sendAttempt(ctx: RequestContext, call: ServiceCall): Promise<FullResponse> {
	const res = call.pacing ? await call.pacing.send(async () => await send(ctx, call, false)) : await send(ctx, call, false);
	// Let n8n see the 401: it renews the expirable token (preAuthentication) and repeats once.
	if (res.statusCode === 401 && call.reauthenticateOn401 && call.credentialType !== undefined) return await sendAfterRenewal(ctx, call);
	return res;
}

/** A failure that is neither an answer nor a network error, its message without the call's secrets. */
async function throwRequestError(ctx: RequestContext, call: ServiceCall, error: unknown): Promise<never> {
	const secrets = await secretsOf(ctx, call);
	const message = redact((error as Error).message ?? 'request failed', secrets);
	throw new ServiceError(ctx.getNode(), { message }, { message, itemIndex: call.itemIndex });
}

/** Sends one service call with n8n's authentication, retrying what is safe to retry. */
export async function callService<T = unknown>(this: RequestContext, call: ServiceCall): Promise<ServiceResponse<T>> {
	// Whatever an operation declares, no request but a read leaves an AI-agent tool unless
	// "Allow Actions as AI Tool" is on (the routers refuse the operations they know of earlier, by name).
	if (call.method !== 'GET' && call.method !== 'HEAD') assertToolActionAllowed(this, `A ${call.method} request (it changes something at the service)`);
	const policy: RetryPolicy = { ...DEFAULT_RETRY, ...(call.retry ?? {}) };
	// Stop ends a pause between attempts at once (sleep rejects with the signal's reason).
	const stop = cancelSignalOf(this);
	const started = Date.now();
	let waited = 0;
	for (let attempt = 1; ; attempt++) {
		let res: FullResponse;
		try {
			res = await sendAttempt(this, call);
		} catch (error) {
			call.onAttempt?.({ answered: false, mayHaveArrived: mayHaveArrived(error) });
			const canRetry = policy.retryNetworkErrors && isNetworkError(error) && attempt < policy.maxAttempts;
			const delay = nextDelayMs(policy, attempt);
			if (canRetry && waited + delay <= policy.maxElapsedMs) {
				waited += delay;
				await sleep(delay, stop);
				continue;
			}
			if (isNetworkError(error)) return await throwNetworkError(this, call, error, attempt);
			return await throwRequestError(this, call, error);
		}
		call.onAttempt?.({ answered: true, statusCode: res.statusCode });
		res.body = parseBody(res.body);
		if (res.statusCode >= 200 && res.statusCode < 300) {
			return { statusCode: res.statusCode, headers: res.headers ?? {}, body: res.body as T, attempts: attempt };
		}
		// Not followed (requestOptions): an error naming where it pointed, never retried.
		if (res.statusCode >= 300 && res.statusCode < 400) return await throwRedirectError(this, call, res, attempt);
		// A paced call waits out a 429 by the pacer (Retry-After, up to the item's maximum), the same key on every try.
		if (res.statusCode === 429 && call.pacing) {
			const denial = call.pacing.denied();
			if (denial.retry) continue;
			return await throwServiceError(this, call, res, attempt, denial.reason);
		}
		const { code } = errorOf(res.body);
		let beyondBudget: string | undefined;
		if (isRetryableStatus(res.statusCode, code) && attempt < policy.maxAttempts) {
			const retryAfter = parseRetryAfter(res.headers?.['retry-after']);
			const delay = nextDelayMs(policy, attempt, retryAfter);
			// A Retry-After beyond the budget is honoured by giving up now, not by retrying before it.
			const honoured = retryAfter === undefined || retryAfter <= delay;
			if (honoured && waited + delay <= policy.maxElapsedMs && Date.now() - started + delay <= policy.maxElapsedMs * 2) {
				waited += delay;
				await sleep(delay, stop);
				continue;
			}
			if (!honoured) beyondBudget = `The service asks to wait ${Math.round((retryAfter as number) / 1000)} s (Retry-After), more than this call's retry budget of ${Math.round(policy.maxElapsedMs / 1000)} s: it was not retried.`;
		}
		return await throwServiceError(this, call, res, attempt, beyondBudget);
	}
}
