/**
 * JSON with object keys sorted at every depth, so two bodies that differ only in key order compare
 * equal (public-notes: "same key and same body replays"; a standing instruction "returns the
 * identical one"). The sandbox's own comparison: undefined members are dropped as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortKeys);
	if (value === null || typeof value !== 'object') return value;
	const out: Record<string, unknown> = {};
	for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
	return out;
}
