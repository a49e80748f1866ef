/**
 * The routes listing (orchestration-service.md §2.3, §4.3; public-notes "Routes listing (v2)")
 * indexed for lookups: entries by routing key and by chain, the chains, a symbol's decimals, and the
 * destinations a source reaches in each of the listing's route lists. Entries that do not match §2.3
 * are skipped and counted.
 */
import { normalizeAssetInput, parseRoutingKey } from './enums';
import { RouteAssetSchema, type RouteAsset } from './responseSchemas';
import { reachableHas, reachableIdsOf, type ReachableIds, type RouteSet } from './routeSets';

/** Which route list applies: plain, exact_out (`route.exactOutTo`) or fixed delivery (`route.fixedTo`). */
export type RouteList = 'to' | 'exactOutTo' | 'fixedTo';

/** The list a quote's modes use (public-notes: fixed only with exact_in). */
export function routeListFor(amountMode?: unknown, deliveryMode?: unknown): RouteList {
	if (amountMode === 'exact_out') return 'exactOutTo';
	if (deliveryMode === 'fixed') return 'fixedTo';
	return 'to';
}

export interface ChainSummary {
	chain: string;
	displayName: string;
}

export class RoutesCatalogue {
	/** Valid entries, in the service's order, as received (unknown fields kept). */
	readonly assets: RouteAsset[];
	/** Entries the listing had that do not match §2.3 (skipped, counted for diagnostics). */
	readonly skipped: number;
	private readonly byId = new Map<string, RouteAsset>();
	private readonly byChain = new Map<string, RouteAsset[]>();
	private readonly targetSets = new Map<string, ReachableIds>();
	private chainList?: ChainSummary[];
	private names?: string[];

	constructor(rawAssets: unknown[]) {
		const assets: RouteAsset[] = [];
		let skipped = 0;
		for (const raw of rawAssets) {
			// Validated, but the received object is kept so outputs carry the service's fields untouched.
			if (RouteAssetSchema.safeParse(raw).success) assets.push(raw as RouteAsset);
			else skipped++;
		}
		this.assets = assets;
		this.skipped = skipped;
		for (const a of assets) {
			if (!this.byId.has(a.id)) this.byId.set(a.id, a);
			const list = this.byChain.get(a.chain);
			if (list) list.push(a);
			else this.byChain.set(a.chain, [a]);
		}
	}

	get size(): number {
		return this.assets.length;
	}

	byRoutingKey(id: string): RouteAsset | undefined {
		return this.byId.get(id);
	}

	/**
	 * The entry for an asset input on a chain: a routing key `<chain>:<asset>` as is, a symbol with
	 * the chain, the legacy TON alias as ton:GRAM (§2.1).
	 */
	find(chain: string | undefined, assetInput: string | undefined): RouteAsset | undefined {
		if (!assetInput) return undefined;
		const asset = normalizeAssetInput(assetInput);
		if (parseRoutingKey(asset)) return this.byId.get(asset);
		if (!chain) return undefined;
		const direct = this.byId.get(`${chain}:${asset}`);
		if (direct) return direct;
		return this.byChain
			.get(chain)
			?.find((a) => a.asset === asset || a.assetDisplaySymbol === asset);
	}

	/** Decimals of a symbol seen from a chain: that chain's entry, else one value shared by every entry. */
	decimalsOfSymbol(
		symbol: string | undefined,
		preferredChains: Array<string | undefined>,
	): number | undefined {
		if (!symbol) return undefined;
		const key = parseRoutingKey(symbol);
		if (key) return this.byId.get(symbol)?.decimals;
		for (const chain of preferredChains) {
			const hit = chain ? this.byId.get(`${chain}:${symbol}`) : undefined;
			if (hit) return hit.decimals;
		}
		let found: number | undefined;
		for (const a of this.assets) {
			if (a.asset !== symbol) continue;
			if (found !== undefined && found !== a.decimals) return undefined;
			found = a.decimals;
		}
		return found;
	}

	entriesOnChain(chain: string): RouteAsset[] {
		return this.byChain.get(chain) ?? [];
	}

	/** The chains of the listing, sorted: what a request's chain is checked against (checkOffered). */
	chainNames(): readonly string[] {
		this.names ??= [...this.byChain.keys()].sort();
		return this.names;
	}

	/** The ids of the listing's entries on a chain, in listing order. */
	idsOnChain(chain: string): readonly string[] {
		return this.entriesOnChain(chain).map((a) => a.id);
	}

	/** Chains that have at least one asset, sorted by display name. */
	chains(): ChainSummary[] {
		if (!this.chainList) {
			this.chainList = [...this.byChain.entries()]
				.map(([chain, list]) => ({ chain, displayName: list[0].chainDisplayName ?? chain }))
				.sort((a, b) => a.displayName.localeCompare(b.displayName));
		}
		return this.chainList;
	}

	/** Destinations of `source` in a list: `all` (but `except`), or the listed ids (public-notes "Routes listing (v2)"). */
	targets(source: RouteAsset, list: RouteList): ReachableIds {
		const cacheKey = `${list}|${source.id}`;
		let set = this.targetSets.get(cacheKey);
		if (set === undefined) {
			set = reachableIdsOf(source.route[list] as RouteSet | undefined);
			this.targetSets.set(cacheKey, set);
		}
		return set;
	}

	reaches(source: RouteAsset, destinationId: string, list: RouteList = 'to'): boolean {
		const set = this.targets(source, list);
		// an "all" set reaches listed assets only, never the source itself
		if (set.all)
			return (
				destinationId !== source.id &&
				this.byId.has(destinationId) &&
				reachableHas(set, destinationId)
			);
		return reachableHas(set, destinationId);
	}

	/** Entries `source` reaches in `list`, in listing order. */
	reachable(source: RouteAsset, list: RouteList): RouteAsset[] {
		const set = this.targets(source, list);
		if (set.all) return this.assets.filter((a) => a.id !== source.id && reachableHas(set, a.id));
		const out: RouteAsset[] = [];
		for (const id of set.only) {
			const hit = this.byId.get(id);
			if (hit) out.push(hit);
		}
		return out;
	}
}
