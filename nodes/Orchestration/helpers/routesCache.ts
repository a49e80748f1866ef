/**
 * One routes fetch shared by the dropdowns, amount conversion and route.getAll: cached per base URL
 * (and key, since the listing is partner-aware, §4.3) for 60 s in the one ExpiringCache.
 */
import { NodeOperationError } from 'n8n-workflow';
import { ExpiringCache } from '../../transport/request';
import type { RequestContext } from '../../transport/request';
import type { ServiceAccess } from './access';
import { orchestrationRequest } from './request';
import { RoutesCatalogue } from './routes';

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
