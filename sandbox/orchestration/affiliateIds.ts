/**
 * Affiliate IDs as the live service reads them (public-notes "Standing deposit addresses" and
 * "Affiliate management and claims"): trimmed, lowercased, then `^[a-z0-9][a-z0-9_-]{0,63}$`. The
 * sandbox's own rule, applied wherever a request names an affiliate (quotes, onramps, address
 * creation, standing instructions, the affiliate paths).
 */
import { badRequest } from './errors';

const AFFILIATE_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The ID in the form the service stores it; 400 invalid_request naming `field` when it breaks the rule. */
export function affiliateIdOf(raw: string, field = 'affiliateId'): string {
	const id = raw.trim().toLowerCase();
	if (AFFILIATE_ID.test(id)) return id;
	const shown = raw.length > 70 ? `${JSON.stringify(raw.slice(0, 70))}...` : JSON.stringify(raw);
	throw badRequest(`${field}: ${shown} is not an affiliate ID (trimmed and lowercased, it must match ^[a-z0-9][a-z0-9_-]{0,63}$)`);
}

/** An affiliate list (ids or `{affiliateId, feeBps}` overrides) with every ID in the stored form. */
export function affiliateRefsOf<R extends { affiliateId: string }>(refs: Array<string | R>, field = 'affiliateIds'): Array<string | R> {
	return refs.map((ref, n) =>
		typeof ref === 'string' ? affiliateIdOf(ref, `${field}[${n}]`) : { ...ref, affiliateId: affiliateIdOf(ref.affiliateId, `${field}[${n}].affiliateId`) },
	);
}
