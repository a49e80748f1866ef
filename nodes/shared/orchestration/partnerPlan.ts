/**
 * The plans of the partner's standing deposit addresses and affiliate management (public-notes
 * "Standing deposit addresses", "Affiliate management and claims"; spec §5: server key only).
 * Every rule the client can check before a request leaves: bounds, the fee total, identifiers,
 * the reference as one path segment. Pure.
 */
import { ProtocolError } from '../errors';
import { pathSegment } from '../inputs';
import { isChain } from './enums';
import { AFFILIATE_IDS_MAX } from './schemas';

/** A standing instruction's reference: 1 to 128 characters (public-notes). */
export const REFERENCE_MAX_LENGTH = 128;
/** Slippage of a standing instruction: 0..10000 bps, default 50 (public-notes). */
export const STANDING_SLIPPAGE_BPS_MAX = 10_000;
/** Fees are below 100 %: each fee and all of them together stay under 10,000 bps (public-notes). */
export const FEE_TOTAL_LIMIT_BPS = 10_000;
/**
 * Affiliate identifiers as this package accepts them: letters, digits, `_`, `-`, `.`, 1..128,
 * starting with a letter or digit. The service's own pattern is not shown (unconfirmed); this one
 * refuses what cannot be an identifier (spaces, slashes, control characters) before a request.
 */
export const AFFILIATE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
/** Page sizes (public-notes): affiliates up to 1000 a page, claims up to 200. */
export const AFFILIATES_PAGE_MAX = 1000;
export const CLAIMS_PAGE_MAX = 200;

function fail(field: string, message: string, reason: string): never {
	throw new ProtocolError(message, { field, reason });
}

/** An affiliate identifier, checked against AFFILIATE_ID_PATTERN; returned as a path segment when asked. */
export function affiliateIdOf(value: string, field = 'affiliateId'): string {
	if (value === '') fail(field, 'is required', 'blank');
	if (!AFFILIATE_ID_PATTERN.test(value)) {
		const shown = value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}...` : JSON.stringify(value);
		fail(field, `${shown} is not an affiliate ID: 1 to 128 letters, digits, "_", "-" or ".", starting with a letter or digit`, 'invalid_affiliate_id');
	}
	return value;
}

/** A basis-point integer in [0, max]. */
function bps(value: number | undefined, field: string, max: number): number | undefined {
	if (value === undefined) return undefined;
	if (!Number.isSafeInteger(value) || value < 0 || value > max) fail(field, `${value} is out of range; it must be a whole number from 0 to ${max}`, 'range');
	return value;
}

/** The reference as one percent-encoded path segment (1..128 characters before encoding). */
export function referenceSegment(reference: string): string {
	if (reference.length > REFERENCE_MAX_LENGTH) {
		fail('reference', `is ${reference.length} characters long; at most ${REFERENCE_MAX_LENGTH} are allowed`, 'too_long');
	}
	try {
		return pathSegment(reference);
	} catch (error) {
		const e = error as ProtocolError;
		return fail('reference', e.message, e.reason ?? 'invalid_reference');
	}
}

/** One affiliate of an instruction: a registered id, or `{affiliateId, feeBps}` (an override). */
export interface AffiliateEntry {
	affiliateId: string;
	feeBps?: number;
}

export interface StandingInput {
	reference: string;
	destination: { chain: string; asset: string; address: string };
	slippageBps?: number;
	feeBps?: number;
	affiliates: AffiliateEntry[];
	/** The refund addresses object as given (its members are not shown: passed as is). */
	refundAddresses?: Record<string, unknown>;
}

export interface PlannedRequest {
	path: string;
	body: Record<string, unknown>;
}

export const STANDING_PATH = '/v1/standing-deposit-addresses';

function affiliateList(entries: AffiliateEntry[]): Array<string | AffiliateEntry> | undefined {
	if (entries.length === 0) return undefined;
	if (entries.length > AFFILIATE_IDS_MAX) fail('affiliateIds', `has ${entries.length} entries; at most ${AFFILIATE_IDS_MAX} are allowed`, 'too_many');
	const seen = new Set<string>();
	return entries.map((entry, n) => {
		const id = affiliateIdOf(entry.affiliateId, `affiliateIds[${n}].affiliateId`);
		if (seen.has(id)) fail(`affiliateIds[${n}].affiliateId`, `"${id}" is listed twice`, 'duplicate');
		seen.add(id);
		const feeBps = bps(entry.feeBps, `affiliateIds[${n}].feeBps`, FEE_TOTAL_LIMIT_BPS - 1);
		return feeBps === undefined ? id : { affiliateId: id, feeBps };
	});
}

/**
 * PUT /v1/standing-deposit-addresses/{ref}: the body with only what was set (the service refuses
 * unknown fields and compares bodies: a changed body is 409 instruction_conflict).
 */
export function planStandingInstruction(input: StandingInput): PlannedRequest {
	const segment = referenceSegment(input.reference);
	const { chain, asset, address } = input.destination;
	if (chain === '') fail('destinationChain', 'is required', 'blank');
	if (!isChain(chain)) fail('destinationChain', `"${chain}" is not a chain of the service`, 'invalid_chain');
	if (asset === '') fail('destinationAsset', 'is required', 'blank');
	if (address === '') fail('destinationAddress', 'is required', 'blank');
	const slippageBps = bps(input.slippageBps, 'slippageBps', STANDING_SLIPPAGE_BPS_MAX);
	const feeBps = bps(input.feeBps, 'feeBps', FEE_TOTAL_LIMIT_BPS - 1);
	const affiliateIds = affiliateList(input.affiliates);
	const total = (feeBps ?? 0) + input.affiliates.reduce((sum, a) => sum + (a.feeBps ?? 0), 0);
	if (total >= FEE_TOTAL_LIMIT_BPS) {
		fail('feeBps', `the fee and the affiliate fee overrides add up to ${total} bps; together they must stay under ${FEE_TOTAL_LIMIT_BPS}`, 'fee_total');
	}
	const body: Record<string, unknown> = { destination: { chain, asset, address } };
	if (slippageBps !== undefined) body.slippageBps = slippageBps;
	if (feeBps !== undefined) body.feeBps = feeBps;
	if (affiliateIds !== undefined) body.affiliateIds = affiliateIds;
	if (input.refundAddresses !== undefined && Object.keys(input.refundAddresses).length > 0) body.refundAddresses = input.refundAddresses;
	return { path: `${STANDING_PATH}/${segment}`, body };
}

export interface AffiliateProfileInput {
	affiliateId: string;
	feeBps: number | undefined;
	payoutChain: string;
	payoutAsset: string;
	payoutAddress: string;
}

/** PUT /v1/affiliates/{affiliateId} {feeBps, payoutChain, payoutAsset, payoutAddress}; Lightning is excluded. */
export function planAffiliateProfile(input: AffiliateProfileInput): PlannedRequest {
	const id = affiliateIdOf(input.affiliateId);
	if (input.feeBps === undefined) fail('feeBps', 'is required', 'blank');
	const feeBps = bps(input.feeBps, 'feeBps', FEE_TOTAL_LIMIT_BPS - 1) as number;
	const { payoutChain, payoutAsset, payoutAddress } = input;
	if (payoutChain === '') fail('payoutChain', 'is required', 'blank');
	if (!isChain(payoutChain)) fail('payoutChain', `"${payoutChain}" is not a chain of the service`, 'invalid_chain');
	if (payoutChain === 'lightning') fail('payoutChain', 'Lightning cannot receive affiliate payouts; choose another chain', 'invalid_payout_destination');
	if (payoutAsset === '') fail('payoutAsset', 'is required', 'blank');
	if (payoutAddress === '') fail('payoutAddress', 'is required', 'blank');
	return { path: `/v1/affiliates/${encodeURIComponent(id)}`, body: { feeBps, payoutChain, payoutAsset, payoutAddress } };
}

/** The paths of one affiliate: its record, its claim, its claims. */
export function affiliatePath(affiliateId: string, tail: '' | '/claim' | '/claims' = ''): string {
	return `/v1/affiliates/${encodeURIComponent(affiliateIdOf(affiliateId))}${tail}`;
}

/** The pages a listing reads: `limit` items at most (all with undefined), pages of up to `pageMax`. */
export interface PageRequest {
	limit: number;
	offset: number;
}

/** The next page to read after `received` items, or undefined when done (a short page ends the list). */
export function nextPage(wanted: number | undefined, pageMax: number, received: number, lastPageShort = false): PageRequest | undefined {
	if (lastPageShort) return undefined;
	if (wanted !== undefined && received >= wanted) return undefined;
	const limit = wanted === undefined ? pageMax : Math.min(pageMax, wanted - received);
	return { limit, offset: received };
}
