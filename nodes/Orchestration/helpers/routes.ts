/**
 * The routes listing (orchestration-service.md §2.3, §4.3) indexed for lookups: assets by routing
 * key and chain, decimals for amount conversion, and which destinations a source reaches in each
 * mode. Pure: no n8n, no I/O; built once per cached listing.
 */
import {
	isTokenizedEquity,
	normalizeAssetInput,
	parseRoutingKey,
} from '../../shared/orchestration/enums';
import { RouteAssetSchema, routeTargetId, type RouteAsset, type RouteTarget } from '../../shared/orchestration/schemas';

/** An onramp is paid over Lightning; an offramp delivers over Lightning (orchestration-service.md §1). */
export const ONRAMP_SOURCE = 'lightning:BTC';
export const OFFRAMP_DESTINATION = 'lightning:BTC';

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
	private readonly targetSets = new Map<string, Set<string> | 'all'>();
	private chainList?: ChainSummary[];

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
		return this.byChain.get(chain)?.find((a) => a.asset === asset || a.assetDisplaySymbol === asset);
	}

	/** Decimals of a symbol seen from a chain: that chain's entry, else one value shared by every entry. */
	decimalsOfSymbol(symbol: string | undefined, preferredChains: Array<string | undefined>): number | undefined {
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

	/** Chains that have at least one asset, sorted by display name. */
	chains(): ChainSummary[] {
		if (!this.chainList) {
			this.chainList = [...this.byChain.entries()]
				.map(([chain, list]) => ({ chain, displayName: list[0].chainDisplayName ?? chain }))
				.sort((a, b) => a.displayName.localeCompare(b.displayName));
		}
		return this.chainList;
	}

	/** Destinations of `source` in a list: `all`, or the set of routing keys (element shape per §2.3 unknown). */
	targets(source: RouteAsset, list: RouteList): Set<string> | 'all' {
		const cacheKey = `${list}|${source.id}`;
		let set = this.targetSets.get(cacheKey);
		if (set === undefined) {
			const raw = source.route[list] as 'all' | RouteTarget[] | undefined;
			if (raw === 'all') set = 'all';
			else {
				set = new Set<string>();
				for (const t of raw ?? []) {
					const id = routeTargetId(t);
					if (id !== undefined) set.add(id);
				}
			}
			this.targetSets.set(cacheKey, set);
		}
		return set;
	}

	reaches(source: RouteAsset, destinationId: string, list: RouteList = 'to'): boolean {
		const set = this.targets(source, list);
		return set === 'all' ? destinationId !== source.id && this.byId.has(destinationId) : set.has(destinationId);
	}

	/** Entries `source` reaches in `list`, in listing order. */
	reachable(source: RouteAsset, list: RouteList): RouteAsset[] {
		const set = this.targets(source, list);
		if (set === 'all') return this.assets.filter((a) => a.id !== source.id);
		const out: RouteAsset[] = [];
		for (const id of set) {
			const hit = this.byId.get(id);
			if (hit) out.push(hit);
		}
		return out;
	}
}

/** The dropdown value of an asset: its canonical symbol, or the routing key when the symbol is not canonical (§2.1). */
export function assetOptionValue(asset: RouteAsset, isCanonical: (symbol: string) => boolean): string {
	return isCanonical(asset.asset) ? asset.asset : asset.id;
}

export function assetLabel(asset: RouteAsset): string {
	const symbol = asset.assetDisplaySymbol ?? asset.asset;
	const name = asset.assetDisplayName ?? symbol;
	return name === symbol ? symbol : `${name} (${symbol})`;
}

export interface RouteFilter {
	chain?: string;
	/** A symbol or routing key; matched case-insensitively against asset, display symbol and id. */
	asset?: string;
	/** Routing key the asset must reach (in the plain `route.to` list). */
	reachableDestination?: string;
	supportsExactOut?: boolean;
	supportsFixed?: boolean;
	includeTokenizedEquities?: boolean;
}

/** Filters the listing; tokenized equities only when asked for (§1, §9: admission only). */
export function filterRoutes(catalogue: RoutesCatalogue, filter: RouteFilter): RouteAsset[] {
	const asset = filter.asset?.trim().toLowerCase();
	const destination = filter.reachableDestination?.trim();
	const source = filter.chain ? catalogue.entriesOnChain(filter.chain) : catalogue.assets;
	return source.filter((a) => {
		if (!filter.includeTokenizedEquities && isTokenizedEquity(a.asset)) return false;
		if (asset && a.asset.toLowerCase() !== asset && a.id.toLowerCase() !== asset && a.assetDisplaySymbol?.toLowerCase() !== asset) {
			return false;
		}
		if (filter.supportsExactOut && nonEmpty(a.route.exactOutTo) === false) return false;
		if (filter.supportsFixed && nonEmpty(a.route.fixedTo) === false) return false;
		if (destination && !catalogue.reaches(a, destination, 'to')) return false;
		return true;
	});
}

function nonEmpty(list: unknown): boolean {
	return list === 'all' || (Array.isArray(list) && list.length > 0);
}
