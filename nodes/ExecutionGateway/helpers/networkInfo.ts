/**
 * Network info (execution-gateway.md §2.3a) with the client cache §4 allows: 60 seconds per
 * gateway URL, kept in a module-level map (no timers: entries age out when read). Concurrent
 * items share one in-flight request.
 */
import { NodeApiError, type IExecuteFunctions } from 'n8n-workflow';

import { NetworkInfoSchema, type NetworkInfo } from '../../shared/gateway/schemas';
import { joinUrl } from '../../transport/request';
import { publicGet } from './transport';

/** §4 / §8: network info client cache, 60 seconds. */
export const NETWORK_INFO_TTL_MS = 60_000;

interface CacheEntry {
	fetchedAt: number;
	info: Promise<NetworkInfo>;
}

const cache = new Map<string, CacheEntry>();

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
	cache.delete(joinUrl(gatewayUrl, ''));
}

/** Network info of `gatewayUrl`: cached for 60 s unless `forceRefresh`, which also refreshes the cache. */
export async function getNetworkInfo(
	ctx: IExecuteFunctions,
	gatewayUrl: string,
	opts: { forceRefresh?: boolean; itemIndex: number },
): Promise<NetworkInfo> {
	const key = joinUrl(gatewayUrl, '');
	const now = Date.now();
	const hit = cache.get(key);
	if (!opts.forceRefresh && hit && now - hit.fetchedAt < NETWORK_INFO_TTL_MS) return await hit.info;
	const entry: CacheEntry = { fetchedAt: now, info: fetchNetworkInfo(ctx, key, opts.forceRefresh === true, opts.itemIndex) };
	cache.set(key, entry);
	// A failed fetch is never cached: the next item asks again. The error itself reaches the caller.
	entry.info.catch(() => {
		if (cache.get(key) === entry) cache.delete(key);
	});
	return await entry.info;
}
