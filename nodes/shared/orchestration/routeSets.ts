// Reachable sets of the routes listing (spec 2.3; public-notes "Routes listing (v2)"): `"all"`, an
// array of targets, or `{except: [targets]}`; and the ids they name.
import { z } from 'zod';

/** The element shape of route arrays is not shown (spec 2.3): an id string or an object. */
export const RouteTargetSchema = z.union([z.string(), z.object({}).passthrough()]);
export type RouteTarget = z.infer<typeof RouteTargetSchema>;

/** Best-effort `<chain>:<asset>` of a route target: the string, or an object's id / chain+asset. */
export function routeTargetId(target: RouteTarget): string | undefined {
	if (typeof target === 'string') return target;
	const { id, chain, asset } = target as { id?: unknown; chain?: unknown; asset?: unknown };
	if (typeof id === 'string') return id;
	return typeof chain === 'string' && typeof asset === 'string' ? `${chain}:${asset}` : undefined;
}

/**
 * A reachable set (spec 2.3; public-notes "Routes listing (v2)"): `"all"`, an array of targets, or
 * `{except: [targets]}` (everything but those). Any other form fails the entry.
 */
export const RouteSetSchema = z.union([
	z.literal('all'),
	z.array(RouteTargetSchema),
	z.object({ except: z.array(RouteTargetSchema) }).passthrough(),
]);
export type RouteSet = z.infer<typeof RouteSetSchema>;

/** A route set as ids: everything (but `except`), or only `only`. */
export type ReachableIds =
	| { all: true; except: ReadonlySet<string> }
	| { all: false; only: ReadonlySet<string> };

function idsOf(targets: RouteTarget[]): Set<string> {
	const ids = new Set<string>();
	for (const t of targets) {
		const id = routeTargetId(t);
		if (id !== undefined) ids.add(id);
	}
	return ids;
}

/** The ids of a route set; a missing set reaches nothing. */
export function reachableIdsOf(set: RouteSet | undefined): ReachableIds {
	if (set === 'all') return { all: true, except: new Set() };
	if (set === undefined) return { all: false, only: new Set() };
	if (Array.isArray(set)) return { all: false, only: idsOf(set) };
	return { all: true, except: idsOf(set.except) };
}

/** Whether a set of ids holds `id` (an "all" set never holds the source itself: the caller checks). */
export function reachableHas(ids: ReachableIds, id: string): boolean {
	return ids.all ? !ids.except.has(id) : ids.only.has(id);
}
