/**
 * The single door to HTTP for every node of this package: authentication through n8n's credential
 * system, bounded retries with the same idempotency key (their pauses end on Stop), the one cache
 * of answers, and where keys may go (https, or plain http to this machine only). The wait until
 * final is nodes/n8n/wait.ts.
 * Service error bodies become a ServiceError in nodeErrors.ts.
 */
import {
	NodeApiError,
	sleep,
	type IHttpRequestOptions,
} from 'n8n-workflow';
import { retryAfterMs } from '../shared/pacing';
import { errorOf, redact, secretsOf, throwNetworkError, throwServiceError } from './nodeErrors';
import type { FullResponse, RequestContext, RetryPolicy, ServiceCall } from './serviceCall';
import { assertToolActionAllowed } from './toolMode';

export type { FullResponse, RequestContext, RetryPolicy, ServiceCall } from './serviceCall';

export interface ServiceResponse<T = unknown> {
	statusCode: number;
	headers: Record<string, unknown>;
	body: T;
	attempts: number;
}

/** Base URL of a credential without trailing slashes, joined with a path. */
export function joinUrl(baseUrl: unknown, path: string): string {
	const base = String(baseUrl ?? '').trim().replace(/\/+$/, '');
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


// ---------------------------------------------------------------- retries (pure)

export const DEFAULT_RETRY: RetryPolicy = {
	maxAttempts: 4,
	maxElapsedMs: 30_000,
	baseDelayMs: 500,
	maxDelayMs: 8_000,
	retryNetworkErrors: true,
};

/** Retry-After in seconds or as an HTTP date -> ms (public-notes.md: denials carry Retry-After). */
export function parseRetryAfter(value: unknown, nowMs = Date.now()): number | undefined {
	return retryAfterMs(value, nowMs);
}

/** 429, 5xx and 409 idempotency_in_progress are retried with the same key; other 4xx never. */
export function isRetryableStatus(status: number, errorCode?: string): boolean {
	return status === 429 || status >= 500 || (status === 409 && errorCode === 'idempotency_in_progress');
}

const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ENOTFOUND',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
]);

export function isNetworkError(error: unknown): boolean {
	const e = error as { code?: string; cause?: { code?: string }; message?: string; response?: unknown };
	if (e?.response) return false;
	const code = e?.code ?? e?.cause?.code;
	if (code && NETWORK_CODES.has(code)) return true;
	return /socket hang up|network|ECONNRESET|ECONNREFUSED/i.test(String(e?.message ?? ''));
}

/** Delay before attempt `attempt + 1` (attempt counts from 1): exponential with a cap, or Retry-After. */
export function nextDelayMs(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
	if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxElapsedMs);
	return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
}

// ---------------------------------------------------------------- the one cache

/**
 * Answers kept per key for a fixed time in module memory (routes listing, network info). No
 * timers (entries age out when read); concurrent callers share one request; a failure is never kept.
 */
interface Entry<V> {
	expiresAt: number;
	value: Promise<V>;
}

export class ExpiringCache<V> {
	private readonly entries = new Map<string, Entry<V>>();

	constructor(
		private readonly ttlMs: number,
		private readonly now: () => number = () => Date.now(),
	) {}

	/** The kept answer of `key` while fresh, else `load()`'s (kept from now on); `refresh` always loads. */
	async get(key: string, load: () => Promise<V>, refresh = false): Promise<V> {
		const now = this.now();
		this.prune(now);
		const hit = this.entries.get(key);
		if (hit && !refresh) return await hit.value;
		const entry: Entry<V> = { expiresAt: now + this.ttlMs, value: load() };
		this.entries.set(key, entry);
		// A failed load is not kept: the next caller tries again; the error itself reaches the caller.
		entry.value.catch(() => {
			if (this.entries.get(key) === entry) this.entries.delete(key);
		});
		return await entry.value;
	}

	/** Drops one key (its answer was contradicted by the service). */
	forget(key: string): void {
		this.entries.delete(key);
	}

	clear(): void {
		this.entries.clear();
	}

	private prune(now: number): void {
		for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
	}
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
	const read = call.credentials ? { credentialsDecrypted: call.credentials } : undefined;
	return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, call.credentialType, options, read)) as FullResponse;
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
	// Issue 20: whatever an operation declares, no request but a read leaves an AI-agent tool unless
	// "Allow Actions as AI Tool" is on (the routers refuse the operations they know of earlier, by name).
	if (call.method !== 'GET' && call.method !== 'HEAD') assertToolActionAllowed(this, `A ${call.method} request (it changes something at the service)`);
	const policy: RetryPolicy = { ...DEFAULT_RETRY, ...(call.retry ?? {}) };
	// Stop ends a pause between attempts at once (sleep rejects with the signal's reason).
	const stop = 'getExecutionCancelSignal' in this ? this.getExecutionCancelSignal() : undefined;
	const started = Date.now();
	let waited = 0;
	for (let attempt = 1; ; attempt++) {
		let res: FullResponse;
		try {
			res = call.pacing ? await call.pacing.send(async () => await send(this, call, false)) : await send(this, call, false);
			if (res.statusCode === 401 && call.reauthenticateOn401 && call.credentialType !== undefined) {
				// Let n8n see the 401: it renews the expirable token (preAuthentication) and repeats once.
				res = await sendAfterRenewal(this, call);
			}
		} catch (error) {
			const canRetry = policy.retryNetworkErrors && isNetworkError(error) && attempt < policy.maxAttempts;
			const delay = nextDelayMs(policy, attempt);
			if (canRetry && waited + delay <= policy.maxElapsedMs) {
				waited += delay;
				await sleep(delay, stop);
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
		// A paced call waits out a 429 by the pacer (Retry-After, up to the item's maximum), the same key on every try.
		if (res.statusCode === 429 && call.pacing) {
			if (call.pacing.mayRetryDenial()) continue;
			return await throwServiceError(this, call, res, attempt);
		}
		const { code } = errorOf(res.body);
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
		}
		return await throwServiceError(this, call, res, attempt);
	}
}

// Where keys and tokens may be sent: https only, plain http only to this machine (loopback: the
// sandbox). No n8n here either: the credentials use these before they add a key.

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase();
	if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
	const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	return octets !== null && octets[1] === '127' && octets.slice(2).every((o) => Number(o) <= 255);
}

/** Why `url` may not carry a secret, or undefined when it may. */
export function insecureUrlReason(url: unknown): string | undefined {
	const text = typeof url === 'string' ? url.trim() : '';
	if (text === '') return 'it is empty';
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		return 'it is not a valid URL (for example https://api.example.com)';
	}
	if (parsed.protocol === 'https:') return undefined;
	if (parsed.protocol === 'http:') {
		return isLoopbackHost(parsed.hostname)
			? undefined
			: 'it must start with https:// (plain http:// is allowed only for loopback addresses: localhost, 127.0.0.0/8, ::1), so keys and tokens never travel unencrypted';
	}
	return `its scheme ${parsed.protocol} is not https://`;
}

/** Throws `<credential>: "<field>" <reason>` when `url` may not carry a secret. */
export function assertSecureUrl(url: unknown, credential: string, field: string): void {
	const reason = insecureUrlReason(url);
	if (reason !== undefined) throw new Error(`${credential}: "${field}" is refused: ${reason}`);
}

/** A base URL as credentials store it: trimmed, without trailing slashes. */
export function baseUrlOf(url: unknown): string {
	return String(url ?? '').trim().replace(/\/+$/, '');
}

/**
 * Whether `requestUrl` is `base` itself or lies under it: the same scheme, host and port, and a path
 * under the base's path, segment by segment, compared after URL parsing (so no look-alike host,
 * default port, upper case or `..` segment gets through). Not a URL: false.
 */
export function isUnderBase(requestUrl: string, base: string): boolean {
	if (base === '') return false;
	let request: URL;
	let root: URL;
	try {
		request = new URL(requestUrl);
		root = new URL(base);
	} catch {
		return false;
	}
	if (request.protocol !== root.protocol || request.hostname !== root.hostname || request.port !== root.port) return false;
	const prefix = root.pathname.replace(/\/+$/, '');
	return prefix === '' || request.pathname === prefix || request.pathname.startsWith(`${prefix}/`);
}

/**
 * The full URL a request goes to, resolved the way n8n's axios does: `url` (or the legacy `uri`),
 * joined to `baseURL` unless it is absolute (`scheme://` or protocol-relative `//`). Not a string: ''.
 */
export function requestUrlOf(options: { url?: unknown; uri?: unknown; baseURL?: unknown }): string {
	const target = options.url ?? options.uri;
	const url = typeof target === 'string' ? target.trim() : target instanceof URL ? target.href : '';
	const base = typeof options.baseURL === 'string' ? options.baseURL.trim() : '';
	if (base === '' || /^([a-z][a-z\d+\-.]*:)?\/\//i.test(url)) return url;
	return url === '' ? base : `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}
