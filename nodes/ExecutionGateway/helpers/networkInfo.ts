/**
 * Network info (execution-gateway.md §2.3a) with the client cache §4 allows: 60 seconds per
 * gateway URL, in the one ExpiringCache (shared in-flight requests, failures not kept).
 */
import { NodeApiError, type IExecuteFunctions } from 'n8n-workflow';

import { NetworkInfoSchema, type NetworkInfo } from '../../shared/gateway/schemas';
import { ExpiringCache, joinUrl } from '../../transport/request';
import { publicGet } from './transport';

/** §4 / §8: network info client cache, 60 seconds. */
export const NETWORK_INFO_TTL_MS = 60_000;

const cache = new ExpiringCache<NetworkInfo>(NETWORK_INFO_TTL_MS);

/** Forgets every cached network info (tests, or after a suspected re-key). */
export function clearNetworkInfoCache(): void {
	cache.clear();
}

async function fetchNetworkInfo(ctx: IExecuteFunctions, gatewayUrl: string, forceRefresh: boolean, itemIndex: number): Promise<NetworkInfo> {
	// §4: `forceRefresh=1` asks the gateway to bypass its own cache too.
	const body = await publicGet<unknown>(ctx, joinUrl(gatewayUrl, '/api/v1/network/info'), forceRefresh ? { forceRefresh: '1' } : undefined, itemIndex);
	const result = NetworkInfoSchema.safeParse(body);
	if (!result.success) {
		const issue = result.error.issues[0];
		const message = `The gateway's network info is not the §2.3a shape (${issue.path.join('.') || 'body'}: ${issue.message})`;
		throw new NodeApiError(ctx.getNode(), { message }, { message, itemIndex });
	}
	return result.data;
}

/** Drops the cached info of one gateway, after the gateway contradicted it (chain, pause, minimum). */
export function forgetNetworkInfo(gatewayUrl: string): void {
	cache.forget(joinUrl(gatewayUrl, ''));
}

/** Network info of `gatewayUrl`: cached for 60 s unless `forceRefresh`, which also refreshes the cache. */
export async function getNetworkInfo(
	ctx: IExecuteFunctions,
	gatewayUrl: string,
	opts: { forceRefresh?: boolean; itemIndex: number },
): Promise<NetworkInfo> {
	const key = joinUrl(gatewayUrl, '');
	const refresh = opts.forceRefresh === true;
	return await cache.get(key, async () => await fetchNetworkInfo(ctx, key, refresh, opts.itemIndex), refresh);
}
