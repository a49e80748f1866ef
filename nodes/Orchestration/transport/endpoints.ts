/**
 * Every endpoint of the orchestration service the package calls, one row each: which keys reach it
 * and with which client-key scope (orchestration-service.md §5), whether it needs an
 * X-Idempotency-Key (§4), and whether it changes something at the service (an AI-agent tool runs
 * it only when allowed). orchestrationApiRequest reads a request's row; the rate limits pace per
 * row (public-notes: limits per key and endpoint). The sandbox keeps its own reading of the spec;
 * test/integration/orchestration/endpoints.test.ts holds the two against each other.
 */
import type { IHttpRequestMethods } from 'n8n-workflow';

export interface Endpoint {
	method: IHttpRequestMethods;
	/** The path, `{name}` for each identifier segment. */
	path: string;
	/** Which keys may call it (client keys only with `scope`). */
	keys: 'server' | 'both' | 'public';
	/** The client-key scope it needs (§5). */
	scope?: string;
	/** It changes state: every attempt sends X-Idempotency-Key, and an AI agent runs it only when allowed. */
	action?: true;
}

const row = (
	method: IHttpRequestMethods,
	path: string,
	keys: Endpoint['keys'],
	extra: Omit<Endpoint, 'method' | 'path' | 'keys'> = {},
): Endpoint => ({ method, path, keys, ...extra });

export const ENDPOINTS: readonly Endpoint[] = [
	// quotes and orders (§4, public-notes "Other partner operations")
	row('POST', '/v1/orchestration/quote', 'both', { scope: 'orders:quote', action: true }),
	row('GET', '/v1/orchestration/estimate', 'both'),
	row('POST', '/v1/orchestration/offramp', 'both', { scope: 'orders:quote', action: true }),
	row('POST', '/v1/orchestration/submit', 'both', { scope: 'orders:submit', action: true }),
	row('POST', '/v1/orchestration/onramp', 'both', { scope: 'orders:onramp', action: true }),
	row('GET', '/v1/orchestration/status', 'both', { scope: 'orders:read' }),
	row('GET', '/v1/orchestration/order', 'both', { scope: 'orders:read' }),
	row('POST', '/v1/orchestration/zeroconf/accept', 'server', { action: true }),
	row('POST', '/v1/orchestration/zeroconf/decline', 'server', { action: true }),
	row('POST', '/v1/orchestration/reprice/approve', 'server', { action: true }),
	row('POST', '/v1/orchestration/reprice/reject', 'server', { action: true }),
	row('POST', '/v1/orchestration/reprice/refund', 'server', { action: true }),
	// routes (§4.3)
	row('GET', '/v2/orchestration/routes', 'both'),
	row('GET', '/v1/orchestration/limits', 'public'),
	// affiliates (public-notes "Affiliate management and claims")
	row('GET', '/v1/affiliates', 'both', { scope: 'affiliates:read' }),
	row('PUT', '/v1/affiliates/{affiliateId}', 'server', { action: true }),
	row('DELETE', '/v1/affiliates/{affiliateId}', 'server', { action: true }),
	row('POST', '/v1/affiliates/{affiliateId}/claim', 'server', { action: true }),
	row('GET', '/v1/affiliates/{affiliateId}/claims', 'server'),
	row('GET', '/v1/affiliates/{affiliateId}/claims/{claimId}', 'server'),
	row('GET', '/v1/affiliate-dashboard/payout-destinations', 'server'),
	// webhooks (§6, public-notes "Webhooks")
	row('POST', '/v1/webhooks', 'server', { action: true }),
	row('DELETE', '/v1/webhooks/{webhookId}', 'server', { action: true }),
	row('POST', '/v1/webhooks/recovery', 'server', { action: true }),
	row('DELETE', '/v1/webhooks/recovery/{webhookId}', 'server', { action: true }),
	// standing deposit addresses (public-notes; the deposits and enabled paths are unconfirmed)
	row('GET', '/v1/standing-deposit-addresses/destinations', 'server'),
	row('PUT', '/v1/standing-deposit-addresses/{ref}', 'server', { action: true }),
	row('GET', '/v1/standing-deposit-addresses/{ref}', 'server'),
	row('GET', '/v1/standing-deposit-addresses/{ref}/deposits', 'server'),
	row('PATCH', '/v1/standing-deposit-addresses/{ref}/enabled', 'server', { action: true }),
	row('POST', '/v1/standing-deposit-addresses/{ref}/refund', 'server', { action: true }),
	// the partner account (public-notes, fourth harvest)
	row('GET', '/v1/partner/dashboard/fee-invoices', 'server'),
	// pay links (public-notes, fourth harvest)
	row('POST', '/v1/pay-links', 'server', { action: true }),
	// deprecated address models (§2.5, §2.6)
	row('GET', '/v1/accumulation-addresses/{id}', 'both'),
	row('POST', '/v1/accumulation-addresses/sync', 'both', { action: true }),
	row('POST', '/v1/accumulation-addresses/{id}/reindex', 'both', {
		scope: 'accumulation:create',
		action: true,
	}),
	row('GET', '/v1/liquidation-addresses', 'both'),
	row('GET', '/v1/liquidation-addresses/{id}', 'both'),
];

/** "POST /v1/orchestration/quote": how a row is named (the pacers' endpoint key too). */
export function endpointKey(endpoint: Pick<Endpoint, 'method' | 'path'>): string {
	return `${endpoint.method} ${endpoint.path}`;
}

function matches(template: string, path: string): boolean {
	const want = template.split('/');
	const got = path.split('?')[0].split('/');
	return (
		want.length === got.length &&
		want.every((segment, n) => (segment.startsWith('{') ? got[n] !== '' : segment === got[n]))
	);
}

/** The row of a request; the concrete path is matched segment by segment against the templates. */
export function endpointOf(method: IHttpRequestMethods, path: string): Endpoint | undefined {
	return ENDPOINTS.find((e) => e.method === method && matches(e.path, path));
}
