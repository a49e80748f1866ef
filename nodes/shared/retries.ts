/**
 * When a service call is tried again (orchestration-service.md §4: the same idempotency key on
 * every attempt): which answers and failures are retryable and how long to wait. Pure.
 */
import { retryAfterMs } from './pacing';

export interface RetryPolicy {
	/** Attempts in all, the first included. */
	maxAttempts: number;
	/** Upper bound on the time spent waiting between attempts, in ms. */
	maxElapsedMs: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** Retry when the connection failed (safe only with an idempotency key or a read). */
	retryNetworkErrors: boolean;
}

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
	return (
		status === 429 || status >= 500 || (status === 409 && errorCode === 'idempotency_in_progress')
	);
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
	// The transport's own deadline of one attempt (nodes/n8n/transport.ts).
	'ERR_DEADLINE',
]);

/** Failures before the request could be written: the connection was never made (no DNS answer, refused, no route). */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

/**
 * Whether a failed exchange may have reached the service: anything but a connection that was never
 * made (a reset, a timeout or a deadline after the request went out may hide an answer that was lost).
 */
export function mayHaveArrived(error: unknown): boolean {
	const e = error as { code?: string; cause?: { code?: string } };
	const code = e?.code ?? e?.cause?.code;
	return !(code !== undefined && NOT_SENT_CODES.has(code));
}

export function isNetworkError(error: unknown): boolean {
	const e = error as {
		code?: string;
		cause?: { code?: string };
		message?: string;
		response?: unknown;
	};
	if (e?.response) return false;
	const code = e?.code ?? e?.cause?.code;
	if (code && NETWORK_CODES.has(code)) return true;
	return /socket hang up|network|ECONNRESET|ECONNREFUSED/i.test(String(e?.message ?? ''));
}

/**
 * Delay before attempt `attempt + 1` (attempt counts from 1): exponential with a cap, or a longer
 * Retry-After (a Retry-After of 0 still waits the exponential delay), at most the retry budget.
 */
export function nextDelayMs(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
	const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
	if (retryAfterMs !== undefined)
		return Math.min(Math.max(retryAfterMs, backoff), policy.maxElapsedMs);
	return backoff;
}
