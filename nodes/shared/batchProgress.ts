/**
 * Where a long batch is: items done, the time spent waiting for the service's rate limit, and the
 * expected end at the pace so far. Pure: the caller passes the time and writes the lines.
 */

export interface ProgressFigures {
	total: number;
	done: number;
	elapsedMs: number;
	/** Wall time during which at least one item waited for the limit. */
	waitedMs: number;
	/** Items waiting for the limit right now. */
	waiting: number;
	/** Expected remaining time at the pace so far; undefined until an item is done. */
	remainingMs?: number;
}

export interface ProgressTuning {
	/** No line before the batch has run this long, and then at most one per interval. */
	intervalMs: number;
}

export const DEFAULT_PROGRESS_TUNING: ProgressTuning = { intervalMs: 15_000 };

export class BatchProgress {
	private done = 0;
	private waiting = 0;
	private waitStartedAt = 0;
	private waitedMs = 0;
	private lastLineAt: number;

	constructor(
		readonly total: number,
		private readonly startedAt: number,
		private readonly tuning: ProgressTuning = DEFAULT_PROGRESS_TUNING,
	) {
		this.lastLineAt = startedAt;
	}

	itemDone(): void {
		this.done++;
	}

	waitStarted(now: number): void {
		if (this.waiting++ === 0) this.waitStartedAt = now;
	}

	waitEnded(now: number): void {
		if (this.waiting === 0) return;
		if (--this.waiting === 0) this.waitedMs += now - this.waitStartedAt;
	}

	figures(now: number): ProgressFigures {
		const elapsedMs = now - this.startedAt;
		const waitedMs = this.waitedMs + (this.waiting > 0 ? now - this.waitStartedAt : 0);
		const remainingMs =
			this.done > 0 ? Math.round((elapsedMs / this.done) * (this.total - this.done)) : undefined;
		return {
			total: this.total,
			done: this.done,
			elapsedMs,
			waitedMs,
			waiting: this.waiting,
			remainingMs,
		};
	}

	/** A line when one is due (at most one per interval), else undefined. */
	lineIfDue(now: number): string | undefined {
		if (now - this.lastLineAt < this.tuning.intervalMs || this.done >= this.total) return undefined;
		this.lastLineAt = now;
		return progressLine(this.figures(now), now);
	}
}

function seconds(ms: number): string {
	return `${Math.round(ms / 1000)} s`;
}

/** "412/1000 items done in 95 s, 41 s waiting for the rate limit (3 waiting now), expected end 14:02:10 UTC (in 2 min)" */
export function progressLine(f: ProgressFigures, now: number): string {
	const parts = [`${f.done}/${f.total} items done in ${seconds(f.elapsedMs)}`];
	if (f.waitedMs > 0 || f.waiting > 0) {
		parts.push(
			`${seconds(f.waitedMs)} waiting for the rate limit${f.waiting > 0 ? ` (${f.waiting} waiting now)` : ''}`,
		);
	}
	if (f.remainingMs !== undefined) {
		const end = new Date(now + f.remainingMs).toISOString().slice(11, 19);
		const inText =
			f.remainingMs >= 120_000
				? `${Math.round(f.remainingMs / 60_000)} min`
				: seconds(f.remainingMs);
		parts.push(`expected end ${end} UTC (in ${inText})`);
	}
	return parts.join(', ');
}

/** The closing line of a batch: how long it took and how much of that it waited for the limit. */
export function summaryLine(f: ProgressFigures): string {
	return `${f.done}/${f.total} items in ${seconds(f.elapsedMs)}; ${seconds(f.waitedMs)} of it waiting for the service's rate limit (paced by its Retry-After and X-RateLimit headers)`;
}
