/** What a benchmark reports of its rounds: the median, and the spread (lowest and highest round), never the best alone. */
export function median(xs: number[]): number {
	const sorted = [...xs].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `12.3 (11.0 to 13.9 over 5 rounds)`: the median of the rounds and their range. */
export function medianAndSpread(xs: number[], digits = 1): string {
	if (xs.length === 0) return 'no rounds';
	return `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)} to ${Math.max(...xs).toFixed(digits)} over ${xs.length} rounds)`;
}
