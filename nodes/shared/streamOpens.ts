/**
 * The pace of event-stream openings (public-notes.md, "Errors, idempotency, rate limits": 30
 * event-stream connection attempts a minute per IP, an IP limiter that reports itself in
 * `X-RateLimit-*` and answers 429 past it). One pacer per service: a batch of waits opens at most
 * the limit in any minute and polls beyond it instead of being refused. Every attempt counts, refused
 * ones too. What the service reports (none left, a 429) stops openings until its reset, one window at
 * most, so another process on the same IP is respected too. Pure: the caller passes the time.
 */

/** public-notes.md: event-stream connection attempts per minute per IP. */
export const STREAM_OPENS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;

/** Why no stream may open now: this process's pace is used up, or the service said its limit is reached. */
export type StreamOpenDenial = 'pace' | 'serviceLimit';

/** What one answer said of the limit (nodes/shared/pacing.ts reads it from the headers). */
export interface StreamLimitReport {
	denied: boolean;
	remaining?: number;
	/** Unix ms at which the limiter's window ends. */
	resetAt?: number;
	retryAfterMs?: number;
}

export class StreamOpenPacer {
	/** Times of the attempts of the last window, oldest first. */
	private readonly attempts: number[] = [];
	private blockedUntil = 0;

	constructor(
		readonly limit: number = STREAM_OPENS_PER_MINUTE,
		private readonly windowMs: number = WINDOW_MS,
	) {}

	/** Counts an attempt at `now`, or says why none may start (the wait polls instead). */
	take(now: number): StreamOpenDenial | undefined {
		this.forget(now);
		if (now < this.blockedUntil) return 'serviceLimit';
		if (this.attempts.length >= this.limit) return 'pace';
		this.attempts.push(now);
		return undefined;
	}

	/** What an answer to an opening said: none left (or a 429) blocks openings until the reset, one window at most. */
	note(report: StreamLimitReport, now: number): void {
		if (!report.denied && report.remaining !== 0) return;
		const told = report.retryAfterMs !== undefined ? now + report.retryAfterMs : report.resetAt;
		const until =
			told !== undefined && told > now ? Math.min(told, now + this.windowMs) : now + this.windowMs;
		this.blockedUntil = Math.max(this.blockedUntil, until);
	}

	/** Nothing to remember: no attempt in the window and no block (the pacer may be dropped). */
	idle(now: number): boolean {
		this.forget(now);
		return this.attempts.length === 0 && now >= this.blockedUntil;
	}

	private forget(now: number): void {
		while (this.attempts.length > 0 && this.attempts[0] <= now - this.windowMs)
			this.attempts.shift();
	}
}

/** One pacer per service origin, in a map that never holds more than `max` (idle pacers go first, then the oldest). */
export class StreamOpenPacers {
	private readonly pacers = new Map<string, StreamOpenPacer>();

	constructor(private readonly max = 32) {}

	for(origin: string, now: number): StreamOpenPacer {
		let pacer = this.pacers.get(origin);
		if (pacer) return pacer;
		if (this.pacers.size >= this.max) {
			for (const [key, p] of this.pacers) if (p.idle(now)) this.pacers.delete(key);
			if (this.pacers.size >= this.max)
				this.pacers.delete(this.pacers.keys().next().value as string);
		}
		pacer = new StreamOpenPacer();
		this.pacers.set(origin, pacer);
		return pacer;
	}

	clear(): void {
		this.pacers.clear();
	}

	get size(): number {
		return this.pacers.size;
	}
}
