/**
 * One routes fetch shared by the dropdowns, amount conversion and route.getAll: cached per base URL
 * (and key, since the listing is partner-aware, §4.3) for 60 s in a module-level Map. No timers:
 * entries expire by timestamp and are pruned on access. Concurrent callers share one request.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { RequestContext } from '../../transport/request';
import type { ServiceAccess } from './access';
import { orchestrationRequest } from './request';
import { RoutesCatalogue } from './routes';

export const ROUTES_PATH = '/v2/orchestration/routes';
export const ROUTES_TTL_MS = 60_000;

interface CacheEntry {
	expiresAt: number;
	catalogue: Promise<RoutesCatalogue>;
}

const cache = new Map<string, CacheEntry>();

function cacheKey(access: ServiceAccess): string {
	return `${access.baseUrl}|${access.credentialType}|${access.keyFingerprint}`;
}

function prune(now: number): void {
	for (const [key, entry] of cache) if (entry.expiresAt <= now) cache.delete(key);
}

/** The routes catalogue for this credential, from the cache when fresh. */
export async function getRoutesCatalogue(
	ctx: RequestContext,
	access: ServiceAccess,
	itemIndex?: number,
): Promise<RoutesCatalogue> {
	const now = Date.now();
	prune(now);
	const key = cacheKey(access);
	const hit = cache.get(key);
	if (hit) return await hit.catalogue;
	const catalogue = fetchCatalogue(ctx, access, itemIndex);
	cache.set(key, { expiresAt: now + ROUTES_TTL_MS, catalogue });
	// A failed fetch is not cached: the next caller tries again.
	catalogue.catch(() => {
		if (cache.get(key)?.catalogue === catalogue) cache.delete(key);
	});
	return await catalogue;
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
