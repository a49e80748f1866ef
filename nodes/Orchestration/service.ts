/**
 * The Orchestration node's keys and catalogue: the idempotency key of each request and the routes
 * catalogue (orchestration-service.md §2.3, §4.3) fetched once per credential, cached and indexed
 * for lookups. The credential and the requests are the client's (client.ts, re-exported here).
 */
import { NodeOperationError } from 'n8n-workflow';
import { deriveIdempotencyKey } from '../shared/orchestration/idempotency';
import { normalizeAssetInput, parseRoutingKey } from '../shared/orchestration/enums';
import { reachableHas, reachableIdsOf, type ReachableIds, type RouteSet } from '../shared/orchestration/routeSets';
import { RouteAssetSchema, type RouteAsset } from '../shared/orchestration/responseSchemas';
import { ExpiringCache } from '../n8n/expiringCache';
import type { RequestContext } from '../n8n/transport';
import { orchestrationRequest, type ServiceAccess } from './client';
import type { OrchestrationReader } from './itemReader';

export * from './client';

/** The call a key is for: the operation, its body, and the key the user set (if any). */
export interface KeyedRequest {
	operation: string;
	body: unknown;
	explicitKey?: string;
}

/** The run index, node name and workflow id are the same for every item of one node run: read once (a data proxy per item costs ~0.2 ms, getNode copies the node). */
const runKeys = new WeakMap<object, { runIndex: number; nodeName: string; workflowId: string | undefined }>();

function runKeysOf(ctx: OrchestrationReader['ctx'], itemIndex: number): { runIndex: number; nodeName: string; workflowId: string | undefined } {
	let keys = runKeys.get(ctx);
	if (keys === undefined) {
		keys = { runIndex: Number(ctx.getWorkflowDataProxy(itemIndex).$runIndex ?? 0), nodeName: ctx.getNode().name, workflowId: ctx.getWorkflow().id };
		runKeys.set(ctx, keys);
	}
	return keys;
}

/**
 * The explicit key when the user set one (for example a payout id, to dedupe across executions),
 * otherwise a key derived from workflow id, execution id, node, run index, item index, operation and body.
 */
export function idempotencyKeyFor(read: OrchestrationReader, request: KeyedRequest): string {
	const { ctx, itemIndex } = read;
	const { operation, body, explicitKey } = request;
	// The explicit key was checked once, when the item was read (explicitIdempotencyKey).
	if (explicitKey !== undefined && explicitKey !== '') return explicitKey;
	// A later run of the node in the same execution (a loop) is other items; Retry On Fail keeps the run index.
	const { runIndex, nodeName, workflowId } = runKeysOf(ctx, itemIndex);
	return deriveIdempotencyKey({
		workflowId,
		executionId: ctx.getExecutionId(),
		nodeName,
		itemIndex,
		operation: runIndex > 0 ? `${operation}#run${runIndex}` : operation,
		body,
	});
}

// ---------------------------------------------------------------- the routes catalogue

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
		if (set.all) return destinationId !== source.id && this.byId.has(destinationId) && reachableHas(set, destinationId);
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

export const ROUTES_PATH = '/v2/orchestration/routes';
export const ROUTES_TTL_MS = 60_000;

const cache = new ExpiringCache<RoutesCatalogue>(ROUTES_TTL_MS);

/** The routes catalogue for this credential (partner-aware, §4.3), from the cache when fresh. */
export async function getRoutesCatalogue(
	ctx: RequestContext,
	access: ServiceAccess,
	itemIndex?: number,
): Promise<RoutesCatalogue> {
	const key = `${access.baseUrl}|${access.credentialType}|${access.keyFingerprint}`;
	return await cache.get(key, async () => await fetchCatalogue(ctx, access, itemIndex));
}

async function fetchCatalogue(ctx: RequestContext, access: ServiceAccess, itemIndex?: number): Promise<RoutesCatalogue> {
	const res = await orchestrationRequest<{ assets?: unknown }>(ctx, access, {
		method: 'GET',
		path: ROUTES_PATH,
		itemIndex,
	});
	const assets = res.body?.assets;
	if (!Array.isArray(assets)) {
		throw new NodeOperationError(ctx.getNode(), 'The routes listing has no "assets" array', {
			itemIndex,
			description: `GET ${ROUTES_PATH} answered without the { assets: [...] } body of the routes listing.`,
		});
	}
	return new RoutesCatalogue(assets);
}

/** Forgets every cached listing (tests and benchmarks; n8n itself relies on the 60 s expiry). */
export function clearRoutesCache(): void {
	cache.clear();
}

/**
 * The routes catalogue: required when a decimal amount must be converted, otherwise best effort
 * (it only adds the `...Formatted` output fields, and must never stop a valid request).
 */
export async function catalogueFor(read: OrchestrationReader, access: ServiceAccess, required: boolean): Promise<RoutesCatalogue | undefined> {
	if (required) return await getRoutesCatalogue(read.ctx, access, read.itemIndex);
	try {
		return await getRoutesCatalogue(read.ctx, access, read.itemIndex);
	} catch {
		return undefined;
	}
}
