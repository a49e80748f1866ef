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
