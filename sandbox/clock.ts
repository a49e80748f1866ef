/**
 * The sandbox's time factor. Durations the spec states (quote validity, read-token lifetime,
 * webhook retry delays, order progress, gateway token lifetime) run `timeScale` times faster;
 * wall-clock timestamps stay real, so clients comparing `expiresAt` with their own clock agree.
 */
export class SandboxClock {
	private readonly timers = new Set<NodeJS.Timeout>();

	constructor(readonly timeScale = 1) {
		if (!(timeScale > 0) || !Number.isFinite(timeScale)) {
			throw new Error(`timeScale must be a positive number, got ${timeScale}`);
		}
	}

	/** Real wall-clock milliseconds. */
	now(): number {
		return Date.now();
	}

	/** Real milliseconds that a duration of `specMs` (as the spec states it) takes in the sandbox. */
	duration(specMs: number): number {
		return specMs / this.timeScale;
	}

	/** Wall-clock time at which a spec duration starting now ends. */
	after(specMs: number): number {
		return this.now() + this.duration(specMs);
	}

	/** Runs `fn` after a spec duration (scaled). Timers never keep the process alive. */
	schedule(specMs: number, fn: () => void): NodeJS.Timeout {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			fn();
		}, Math.max(0, this.duration(specMs)));
		timer.unref();
		this.timers.add(timer);
		return timer;
	}

	cancel(timer: NodeJS.Timeout | undefined): void {
		if (!timer) return;
		clearTimeout(timer);
		this.timers.delete(timer);
	}

	/** Cancels every pending timer (on sandbox close). */
	cancelAll(): void {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
	}
}
