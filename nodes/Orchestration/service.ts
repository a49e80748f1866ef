/**
 * The Orchestration service as the node reaches it: the credential checked before any request, the
 * node's requests through the one transport (with their idempotency keys), and the routes catalogue
 * (orchestration-service.md §2.3, §4.3) fetched once per credential, cached and indexed for lookups.
 */
import { createHash } from 'node:crypto';
import {
	NodeOperationError,
	type ICredentialsDecrypted,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestMethods,
	type ILoadOptionsFunctions,
} from 'n8n-workflow';
import { CLIENT_KEY_PREFIX, normalizeAssetInput, parseRoutingKey, SERVER_KEY_PREFIX } from '../shared/orchestration/enums';
import { deriveIdempotencyKey } from '../shared/orchestration/idempotency';
import { reachableHas, reachableIdsOf, type ReachableIds, type RouteSet } from '../shared/orchestration/routeSets';
import { RouteAssetSchema, type RouteAsset } from '../shared/orchestration/schemas';
import type { ExecutionPacing } from '../n8n/pacing';
import { callService, ExpiringCache, joinUrl, type RequestContext, type ServiceResponse } from '../n8n/transport';
import type { OrchestrationReader } from './itemReader';

// ---------------------------------------------------------------- the credential

export type Authentication = 'serverKey' | 'clientKey';

export const SERVER_CREDENTIAL = 'orchestrationServerApi';
export const CLIENT_CREDENTIAL = 'orchestrationClientApi';

/** Key prefixes of orchestration-service.md §5. */
const PREFIXES: Record<Authentication, string> = { serverKey: SERVER_KEY_PREFIX, clientKey: CLIENT_KEY_PREFIX };
const CREDENTIAL_NAMES: Record<Authentication, string> = {
	serverKey: 'Orchestration Server Key',
	clientKey: 'Orchestration Client Key',
};

export interface ServiceAccess {
	authentication: Authentication;
	credentialType: string;
	/** Base URL without trailing slashes. */
	baseUrl: string;
	isClientKey: boolean;
	/** A non-secret handle of the key (hash prefix): partner-aware caches key on it. */
	keyFingerprint: string;
	/** The node run's pacing by the service's rate limits (set by the router). */
	pacing?: ExecutionPacing;
	/** The credential read once for the node run, handed to n8n with every request (no database read per item). */
	credentials?: ICredentialsDecrypted;
}

export function credentialTypeFor(authentication: Authentication): string {
	return authentication === 'clientKey' ? CLIENT_CREDENTIAL : SERVER_CREDENTIAL;
}

export function asAuthentication(value: unknown): Authentication {
	return value === 'clientKey' ? 'clientKey' : 'serverKey';
}

/**
 * Reads the credential and checks it before any request: a base URL, and a key of the kind the
 * credential is for (fn_ server, fnp_ client). The key itself never appears in a message.
 */
export async function serviceAccess(
	ctx: IExecuteFunctions | ILoadOptionsFunctions,
	authentication: Authentication,
): Promise<ServiceAccess> {
	const credentialType = credentialTypeFor(authentication);
	const creds = await ctx.getCredentials(credentialType);
	const name = CREDENTIAL_NAMES[authentication];
	const baseUrl = String(creds.baseUrl ?? '').trim().replace(/\/+$/, '');
	if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) {
		throw new NodeOperationError(ctx.getNode(), `The "Base URL" of the ${name} credential must be an http(s) address`, {
			description: 'For example https://api.example.com (without a path).',
		});
	}
	const apiKey = String(creds.apiKey ?? '').trim();
	const prefix = PREFIXES[authentication];
	if (!apiKey.startsWith(prefix)) {
		const other = authentication === 'serverKey' ? apiKey.startsWith('fnp_') : apiKey.startsWith('fn_');
		throw new NodeOperationError(ctx.getNode(), `The "API Key" of the ${name} credential must start with "${prefix}"`, {
			description: other
				? `This looks like a ${authentication === 'serverKey' ? 'client' : 'server'} key. Switch "Authentication" or use the other credential.`
				: `${authentication === 'serverKey' ? 'Server' : 'Client'} keys start with ${prefix}. Nothing was sent to the service.`,
		});
	}
	return {
		authentication,
		credentialType,
		baseUrl,
		isClientKey: authentication === 'clientKey',
		keyFingerprint: createHash('sha256').update(apiKey).digest('hex').slice(0, 16),
		credentials: { id: ctx.getNode().credentials?.[credentialType]?.id ?? '', name: ctx.getNode().credentials?.[credentialType]?.name ?? name, type: credentialType, data: creds },
	};
}

// ---------------------------------------------------------------- requests

export interface OrchestrationCall {
	method: IHttpRequestMethods;
	/** Path under the base URL, e.g. /v1/orchestration/quote. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	headers?: Record<string, string>;
	/** Mutating calls send it on every attempt (orchestration-service.md §4). */
	idempotencyKey?: string;
	itemIndex?: number;
	/** The client-key scope the operation needs (§5), named in the scope_required hint. */
	requiredScope?: string;
	/** Further secrets to keep out of errors (read tokens). */
	secrets?: Array<string | undefined>;
	/** Hints for codes of this call only (e.g. instruction_conflict); they take precedence over ERROR_HINTS. */
	hints?: Record<string, string>;
}

/** The node's one way to the service: the shared transport with this credential, its base URL and its key kind. */
export async function orchestrationRequest<T = unknown>(
	ctx: RequestContext,
	access: ServiceAccess,
	call: OrchestrationCall,
): Promise<ServiceResponse<T>> {
	return (await callService.call(ctx, {
		credentialType: access.credentialType,
		method: call.method,
		url: joinUrl(access.baseUrl, call.path),
		qs: call.qs,
		body: call.body,
		headers: call.headers,
		idempotencyKey: call.idempotencyKey,
		itemIndex: call.itemIndex,
		requiredScope: access.isClientKey ? call.requiredScope : undefined,
		secrets: call.secrets,
		hints: call.hints,
		credentials: access.credentials,
		// One pacer per credential and endpoint (public-notes: limits per key, per key+IP, per endpoint).
		pacing: access.pacing?.forCall(`${access.baseUrl}|${access.credentialType}|${access.keyFingerprint}|${call.method} ${call.path}`, call.itemIndex),
	})) as ServiceResponse<T>;
}

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
