/** The routes listing (§4.3) of a credential, fetched once and kept 60 s (it is partner-aware). */
import type { IExecuteFunctions } from 'n8n-workflow';
import { RoutesCatalogue } from '../../shared/orchestration/routesCatalogue';
import { ItemError } from '../../n8n/errors';
import { ExpiringCache } from '../../n8n/expiringCache';
import type { RequestContext } from '../../n8n/transport';
import { orchestrationApiRequest, serviceAccess } from '../transport';

export const ROUTES_PATH = '/v2/orchestration/routes';
export const ROUTES_TTL_MS = 60_000;

const cache = new ExpiringCache<RoutesCatalogue>(ROUTES_TTL_MS);

/** The routes catalogue for this run's credential, from the cache when fresh. */
export async function getRoutesCatalogue(
	ctx: RequestContext,
	itemIndex?: number,
): Promise<RoutesCatalogue> {
	const access = await serviceAccess(ctx);
	return await cache.get(
		`${access.baseUrl}|${access.credentialType}|${access.keyFingerprint}`,
		async () => {
			const res = await orchestrationApiRequest.call(ctx, 'GET', ROUTES_PATH, undefined, {
				itemIndex,
			});
			const assets = res.body?.assets;
			if (!Array.isArray(assets)) {
				throw new ItemError(ctx.getNode(), 'The routes listing has no "assets" array', {
					itemIndex,
					description: `GET ${ROUTES_PATH} answered without the { assets: [...] } body of the routes listing.`,
				});
			}
			return new RoutesCatalogue(assets);
		},
	);
}

/** Forgets every cached listing (tests and benchmarks; n8n itself relies on the 60 s expiry). */
export function clearRoutesCache(): void {
	cache.clear();
}

/**
 * The routes catalogue: required when a decimal amount must be converted, otherwise best effort
 * (it only adds the `...Formatted` output fields, and must never stop a valid request).
 */
export async function catalogueFor(
	ctx: IExecuteFunctions,
	itemIndex: number,
	required: true,
): Promise<RoutesCatalogue>;
export async function catalogueFor(
	ctx: IExecuteFunctions,
	itemIndex: number,
	required: boolean,
): Promise<RoutesCatalogue | undefined>;
export async function catalogueFor(
	ctx: IExecuteFunctions,
	itemIndex: number,
	required: boolean,
): Promise<RoutesCatalogue | undefined> {
	if (required) return await getRoutesCatalogue(ctx, itemIndex);
	try {
		return await getRoutesCatalogue(ctx, itemIndex);
	} catch {
		return undefined;
	}
}
