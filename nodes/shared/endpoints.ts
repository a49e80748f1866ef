/**
 * An endpoint as the rate limits see it (public-notes: limits per key and endpoint): the method and
 * the path with its identifiers replaced. Pure; the Orchestration client keys its pacers by it.
 */

/**
 * Segments of the services' paths that are fixed words; any other segment is an identifier. An
 * endpoint is its method and its path with the identifiers replaced, so the orders, affiliates or
 * references a batch touches share one pacer instead of one each.
 */
const FIXED_SEGMENTS = new Set([
	'api',
	'v1',
	'v2',
	'orchestration',
	'quote',
	'estimate',
	'offramp',
	'onramp',
	'submit',
	'order',
	'status',
	'history',
	'limits',
	'routes',
	'zeroconf',
	'accept',
	'decline',
	'affiliates',
	'affiliate-dashboard',
	'payout-destinations',
	'claim',
	'claims',
	'standing-deposit-addresses',
	'destinations',
	'deposits',
	'enabled',
	'resolve',
	'liquidation-addresses',
	'accumulation-addresses',
	'sync',
	'reindex',
	'webhooks',
	'recovery',
	'sse',
	'operations',
	'execute',
	'intents',
	'network',
	'info',
	'health',
	'auth',
	'challenge',
	'verify',
]);

/** `GET /v1/affiliates/alpha/claims` -> `GET /v1/affiliates/{id}/claims` (query dropped). */
export function endpointOf(method: string, path: string): string {
	const template = path
		.split('?')[0]
		.split('/')
		.map((segment) => (segment === '' || FIXED_SEGMENTS.has(segment) ? segment : '{id}'))
		.join('/');
	return `${method.toUpperCase()} ${template}`;
}
