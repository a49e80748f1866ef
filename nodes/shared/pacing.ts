/**
 * Pacing by what the service says (public-notes, "Errors, idempotency, rate limits"): a denial is
 * 429 `rate_limited` with `Retry-After` (seconds); IP limiters report `X-RateLimit-Limit`,
 * `-Remaining` and `-Reset` (Unix milliseconds). One RatePacer per credential and endpoint decides
 * when the next request may start so that a batch stays under the limit instead of bouncing off it.
 * The service's headers are untrusted: a zero wait after a denial still backs off, and no header
 * holds the endpoint back longer than the pacer's horizon (the service's windows are a minute).
 * Pure: the caller passes the time and does the waiting.
 */

/** What one answer says about the limit. */
export interface LimitReport {
	/** The answer was a 429 denial. */
	denied: boolean;
	limit?: number;
	remaining?: number;
	/** Unix ms at which the current window ends. */
	resetAt?: number;
	/** Retry-After of a denial, in ms. */
	retryAfterMs?: number;
}

function header(headers: Record<string, unknown> | undefined, name: string): string | undefined {
	const raw = headers?.[name] ?? headers?.[name.toLowerCase()];
	const v = Array.isArray(raw) ? raw[0] : raw;
	return typeof v === 'string' || typeof v === 'number' ? String(v).trim() : undefined;
}

function count(text: string | undefined): number | undefined {
	return text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

/** Retry-After in seconds (decimals allowed) or as an HTTP date -> ms; undefined when absent or unreadable. */
export function retryAfterMs(value: unknown, nowMs: number): number | undefined {
	const v = Array.isArray(value) ? value[0] : value;
	if (typeof v !== 'string' && typeof v !== 'number') return undefined;
	const text = String(v).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** The limit headers of one answer (names lower-case, as Node gives them). */
export function readLimitHeaders(
	status: number,
	headers: Record<string, unknown> | undefined,
	nowMs: number,
): LimitReport {
	const denied = status === 429;
	return {
		denied,
		limit: count(header(headers, 'x-ratelimit-limit')),
		remaining: count(header(headers, 'x-ratelimit-remaining')),
		resetAt: count(header(headers, 'x-ratelimit-reset')),
		retryAfterMs: denied ? retryAfterMs(header(headers, 'retry-after'), nowMs) : undefined,
	};
}

export type WaitReason = 'retry-after' | 'window' | 'in-flight';

export type Admission = { go: true } | { go: false; waitMs: number; reason: WaitReason };

export interface PacerTuning {
	/** Extra wait after a window's reset, for clock skew between client and service. */
	resetMarginMs: number;
	/** How often a request blocked only by answers still in flight looks again. */
	inFlightPollMs: number;
	/**
	 * Least wait after a denial, doubled per denial in a row up to maxDenialWaitMs: a denial whose
	 * Retry-After is 0 or missing still backs off. A longer Retry-After is honoured.
	 */
	denialWaitMs: number;
	maxDenialWaitMs: number;
	/**
	 * The furthest ahead any header may hold the endpoint back: a longer Retry-After or a later
	 * X-RateLimit-Reset is not believed (as if the answer had none), so it never holds back later
	 * executions. The item that received such a header decides for itself (ExecutionPacing: it
	 * waits within its Max Rate Limit Wait, or fails naming the wait).
	 */
	horizonMs: number;
}

export const DEFAULT_PACER_TUNING: PacerTuning = {
	resetMarginMs: 20,
	inFlightPollMs: 25,
	denialWaitMs: 1000,
	maxDenialWaitMs: 30_000,
	horizonMs: 60_000,
};

/** The least wait after the `denialsInRow`-th denial in a row (1, 2, 4 ... s up to the maximum). */
export function denialBackoffMs(
	tuning: Pick<PacerTuning, 'denialWaitMs' | 'maxDenialWaitMs'>,
	denialsInRow: number,
): number {
	return Math.min(
		tuning.maxDenialWaitMs,
		tuning.denialWaitMs * 2 ** Math.max(0, Math.min(denialsInRow - 1, 30)),
	);
}

/** What a denial asks to wait, in ms: Retry-After, else the window's reset (IP limiters send no Retry-After); undefined when neither. */
export function askedWaitMs(report: LimitReport, now: number): number | undefined {
	if (report.retryAfterMs !== undefined) return report.retryAfterMs;
	return report.resetAt !== undefined ? Math.max(0, report.resetAt - now) : undefined;
}

/**
 * The requests one credential may still start at one endpoint. `budget` counts starts left in the
 * current window: it is lowered on every start and capped by each answer's `-Remaining`, so while
 * little remains fewer requests run at once; when the window resets it is the full limit again.
 * Until the endpoint has answered once, one request runs alone: its answer says whether there is a
 * limit and what remains, so a batch's first burst never overruns a limit not known yet.
 */
export class RatePacer {
	private limit?: number;
	private budget = Number.POSITIVE_INFINITY;
	private resetAt?: number;
	private blockedUntil = 0;
	private inFlight = 0;
	private deniedInRow = 0;
	/** Whether the endpoint has answered (any answer; a failed connection says nothing). */
	private heard = false;

	private readonly tuning: PacerTuning;

	constructor(tuning: Partial<PacerTuning> = {}) {
		this.tuning = { ...DEFAULT_PACER_TUNING, ...tuning };
	}

	/** May a request start now? A start is counted at once (call `finish` with its answer). */
	admit(now: number): Admission {
		if (now < this.blockedUntil)
			return { go: false, waitMs: this.blockedUntil - now, reason: 'retry-after' };
		// Nothing heard yet: the request in flight finds out what the limit is before others follow.
		if (!this.heard && this.inFlight > 0)
			return { go: false, waitMs: this.tuning.inFlightPollMs, reason: 'in-flight' };
		if (this.resetAt !== undefined && now >= this.resetAt + this.tuning.resetMarginMs)
			this.assumeNewWindow();
		if (this.budget < 1) {
			if (this.resetAt !== undefined)
				return {
					go: false,
					waitMs: this.resetAt + this.tuning.resetMarginMs - now,
					reason: 'window',
				};
			// Nothing says when more is allowed: the answers in flight will; with none left, try one.
			if (this.inFlight > 0)
				return { go: false, waitMs: this.tuning.inFlightPollMs, reason: 'in-flight' };
			this.budget = 1;
		}
		this.budget--;
		this.inFlight++;
		return { go: true };
	}

	/** The answer of a started request (undefined when none came: the connection failed). */
	finish(now: number, report?: LimitReport): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		if (report === undefined) return;
		this.heard = true;
		if (report.limit !== undefined) this.limit = report.limit;
		// A reset beyond the horizon is not believed: the answer counts as one without a reset.
		const resetAt =
			report.resetAt !== undefined && report.resetAt <= now + this.tuning.horizonMs
				? report.resetAt
				: undefined;
		if (report.remaining !== undefined) this.takeRemaining(report.remaining, resetAt);
		if (!report.denied) {
			this.deniedInRow = 0;
			return;
		}
		// Denials of requests that were in flight when an earlier denial blocked the endpoint are the
		// same overflow (a burst sent before the limit was known), not refusals after a wait: they
		// keep the block but do not double the back-off again.
		if (now >= this.blockedUntil) this.deniedInRow++;
		this.budget = 0;
		// A Retry-After beyond the horizon is not believed either: the denial backs off as one without it.
		const retryAfter =
			report.retryAfterMs !== undefined && report.retryAfterMs <= this.tuning.horizonMs
				? report.retryAfterMs
				: 0;
		const wait = Math.max(retryAfter, denialBackoffMs(this.tuning, this.deniedInRow));
		this.blockedUntil = Math.max(this.blockedUntil, now + Math.min(wait, this.tuning.horizonMs));
	}

	/** How long a request arriving now would wait at least (0: it may start). */
	waitFor(now: number): number {
		if (now < this.blockedUntil) return this.blockedUntil - now;
		if (
			this.budget >= 1 ||
			this.resetAt === undefined ||
			now >= this.resetAt + this.tuning.resetMarginMs
		)
			return 0;
		return this.resetAt + this.tuning.resetMarginMs - now;
	}

	/** What the pacer believes now (for progress lines and tests). */
	snapshot(): {
		limit?: number;
		budget: number;
		resetAt?: number;
		blockedUntil: number;
		inFlight: number;
	} {
		return {
			limit: this.limit,
			budget: this.budget,
			resetAt: this.resetAt,
			blockedUntil: this.blockedUntil,
			inFlight: this.inFlight,
		};
	}

	private takeRemaining(remaining: number, resetAt: number | undefined): void {
		// An answer of an earlier window, arriving late, says nothing about this one.
		if (resetAt !== undefined && this.resetAt !== undefined && resetAt < this.resetAt) return;
		if (resetAt !== undefined && resetAt !== this.resetAt) {
			// A window not seen before: the other requests in flight may still count against it.
			this.resetAt = resetAt;
			this.budget = remaining - this.inFlight;
			return;
		}
		this.budget = Math.min(this.budget, remaining);
	}

	private assumeNewWindow(): void {
		this.resetAt = undefined;
		this.budget = this.limit === undefined ? Number.POSITIVE_INFINITY : this.limit - this.inFlight;
	}
}
