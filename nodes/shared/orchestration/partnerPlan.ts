/**
 * The plans of the partner's standing deposit addresses and affiliate management (public-notes
 * "Standing deposit addresses", "Affiliate management and claims"; spec §5: server key only).
 * Every rule the client can check before a request leaves: bounds, the fee total, identifiers,
 * the reference as one path segment. Pure.
 */
import { describeValue, inField, ProtocolError } from '../errors';
import { pathSegment } from '../inputs';
import { isChainName, isValidAssetInput } from './enums';
import { AFFILIATE_ID_RULE, AFFILIATE_IDS_MAX, normalizedAffiliateId } from './schemas';
import { refuseUncheckedAddresses } from './additionalFields';

/** A standing instruction's reference: 1 to 128 characters (public-notes). */
export const REFERENCE_MAX_LENGTH = 128;
/** Slippage of a standing instruction: 0..10000 bps, default 50 (public-notes). */
export const STANDING_SLIPPAGE_BPS_MAX = 10_000;
/** Fees are below 100 %: each fee and all of them together stay under 10,000 bps (public-notes). */
export const FEE_TOTAL_LIMIT_BPS = 10_000;
/** Page sizes (public-notes): affiliates up to 1000 a page, claims up to 200. */
export const AFFILIATES_PAGE_MAX = 1000;
export const CLAIMS_PAGE_MAX = 200;

function fail(field: string, message: string, reason: string): never {
	throw new ProtocolError(message, { field, reason });
}

/**
 * An affiliate identifier by the docs' rule (public-notes): trimmed and lowercased, then
 * AFFILIATE_ID_PATTERN. Returns it as the service reads it, the form every request sends.
 */
export function affiliateIdOf(value: string, field = 'affiliateId'): string {
	if (value.trim() === '') fail(field, 'is required', 'blank');
	const id = normalizedAffiliateId(value);
	if (id === undefined) {
		const shown =
			value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}...` : JSON.stringify(value);
		fail(field, `${shown} is not an affiliate ID: ${AFFILIATE_ID_RULE}`, 'invalid_affiliate_id');
	}
	return id;
}

/**
 * A chain and an asset by syntax only (never the spec's list: the service adds chains); whether the
 * routes listing offers them is the operation's check once it has the listing (enums.ts checkOffered).
 */
function checkChainAndAsset(
	chainField: string,
	chain: string,
	assetField: string,
	asset: string,
): void {
	if (!isChainName(chain))
		fail(
			chainField,
			`${JSON.stringify(chain.slice(0, 40))} is not a chain name: lowercase letters, digits, "-" or "_" (e.g. base)`,
			'invalid_chain',
		);
	if (!isValidAssetInput(asset))
		fail(
			assetField,
			'must be an asset symbol (e.g. USDC) or a routing key <chain>:<asset>',
			'invalid_asset',
		);
}

/** A basis-point integer in [min, max]. */
function bps(value: number | undefined, field: string, max: number, min = 0): number | undefined {
	if (value === undefined) return undefined;
	if (!Number.isSafeInteger(value) || value < min || value > max)
		fail(
			field,
			`${value} is out of range; it must be a whole number from ${min} to ${max}`,
			'range',
		);
	return value;
}

/** The reference as one percent-encoded path segment (1..128 characters before encoding). */
export function referenceSegment(reference: string): string {
	if (reference.length > REFERENCE_MAX_LENGTH) {
		fail(
			'reference',
			`is ${reference.length} characters long; at most ${REFERENCE_MAX_LENGTH} are allowed`,
			'too_long',
		);
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
	if (entries.length > AFFILIATE_IDS_MAX)
		fail(
			'affiliateIds',
			`has ${entries.length} entries; at most ${AFFILIATE_IDS_MAX} are allowed`,
			'too_many',
		);
	const seen = new Set<string>();
	return entries.map((entry, n) => {
		const id = affiliateIdOf(entry.affiliateId, `affiliateIds[${n}].affiliateId`);
		if (seen.has(id))
			fail(`affiliateIds[${n}].affiliateId`, `"${id}" is listed twice`, 'duplicate');
		seen.add(id);
		// public-notes (fourth harvest): standing-address overrides are 1..9999 bps
		const feeBps = bps(entry.feeBps, `affiliateIds[${n}].feeBps`, FEE_TOTAL_LIMIT_BPS - 1, 1);
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
	if (asset === '') fail('destinationAsset', 'is required', 'blank');
	checkChainAndAsset('destinationChain', chain, 'destinationAsset', asset);
	if (address === '') fail('destinationAddress', 'is required', 'blank');
	const slippageBps = bps(input.slippageBps, 'slippageBps', STANDING_SLIPPAGE_BPS_MAX);
	const feeBps = bps(input.feeBps, 'feeBps', FEE_TOTAL_LIMIT_BPS - 1);
	const affiliateIds = affiliateList(input.affiliates);
	const total = (feeBps ?? 0) + input.affiliates.reduce((sum, a) => sum + (a.feeBps ?? 0), 0);
	if (total >= FEE_TOTAL_LIMIT_BPS) {
		fail(
			'feeBps',
			`the fee and the affiliate fee overrides add up to ${total} bps; together they must stay under ${FEE_TOTAL_LIMIT_BPS}`,
			'fee_total',
		);
	}
	const body: Record<string, unknown> = { destination: { chain, asset, address } };
	if (slippageBps !== undefined) body.slippageBps = slippageBps;
	if (feeBps !== undefined) body.feeBps = feeBps;
	if (affiliateIds !== undefined) body.affiliateIds = affiliateIds;
	if (input.refundAddresses !== undefined && Object.keys(input.refundAddresses).length > 0)
		body.refundAddresses = input.refundAddresses;
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
	// public-notes "Affiliate management and claims": feeBps 1..9999, required (an affiliate without a fee is refused)
	const feeBps = bps(input.feeBps, 'feeBps', FEE_TOTAL_LIMIT_BPS - 1, 1) as number;
	const { payoutChain, payoutAsset, payoutAddress } = input;
	if (payoutChain === '') fail('payoutChain', 'is required', 'blank');
	if (payoutChain === 'lightning')
		fail(
			'payoutChain',
			'Lightning cannot receive affiliate payouts; choose another chain',
			'invalid_payout_destination',
		);
	if (payoutAsset === '') fail('payoutAsset', 'is required', 'blank');
	checkChainAndAsset('payoutChain', payoutChain, 'payoutAsset', payoutAsset);
	if (payoutAddress === '') fail('payoutAddress', 'is required', 'blank');
	return {
		path: `/v1/affiliates/${encodeURIComponent(id)}`,
		body: { feeBps, payoutChain, payoutAsset, payoutAddress },
	};
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
export function nextPage(
	wanted: number | undefined,
	pageMax: number,
	received: number,
	lastPageShort = false,
): PageRequest | undefined {
	if (lastPageShort) return undefined;
	if (wanted !== undefined && received >= wanted) return undefined;
	const limit = wanted === undefined ? pageMax : Math.min(pageMax, wanted - received);
	return { limit, offset: received };
}

// ---------------------------------------------------------------- listings that answer nextOffset

/** At most this many items in one listing read (Return All included): a service that never ends its pages cannot fill the memory. */
export const LISTING_MAX_ITEMS = 100_000;

/** Where a listing stands after one page: what was asked, how many items came in all, and what the page said. */
export interface PageProgress {
	/** Items wanted in all; undefined for every item (Return All). */
	wanted: number | undefined;
	pageMax: number;
	/** The page just read. */
	page: PageRequest;
	/** Items received so far, this page included. */
	received: number;
	/** Items on the page just read. */
	pageLength: number;
	/** The page's `nextOffset` as received: a whole number, null on the last page, undefined when the answer has none (older answers). */
	nextOffset: unknown;
}

/** `nextOffset` as a whole number, null (the last page) or undefined (not in the answer); anything else is a broken answer. */
function offsetOf(value: unknown): number | null | undefined {
	if (value === undefined || value === null) return value;
	const n = typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : value;
	if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return n;
	return fail(
		'nextOffset',
		`is ${typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value}, not a whole number or null`,
		'invalid_next_offset',
	);
}

/**
 * The next page of a listing (public-notes: every list pages with `limit` + `offset` and answers
 * `nextOffset`, null on the last page), or undefined when done. Without `nextOffset` a short page
 * ends the list. A `nextOffset` that does not move forward is refused (it would read the same page
 * forever), an empty page ends the list, and LISTING_MAX_ITEMS bounds what one read collects.
 */
export function nextPageAfter(p: PageProgress): PageRequest | undefined {
	if (p.wanted !== undefined && p.received >= p.wanted) return undefined;
	const next = offsetOf(p.nextOffset);
	if (next === null || p.pageLength === 0) return undefined;
	if (next === undefined && p.pageLength < p.page.limit) return undefined;
	if (next !== undefined && next <= p.page.offset) {
		fail(
			'nextOffset',
			`is ${next} after the page at offset ${p.page.offset}; it must move forward`,
			'invalid_next_offset',
		);
	}
	if (p.received >= LISTING_MAX_ITEMS) {
		fail(
			'returnAll',
			`the listing has more than ${LISTING_MAX_ITEMS.toLocaleString('en-US')} items; turn off "Return All" and set a "Limit"`,
			'too_many',
		);
	}
	const limit = p.wanted === undefined ? p.pageMax : Math.min(p.pageMax, p.wanted - p.received);
	return { limit, offset: next ?? p.page.offset + p.pageLength };
}

// ---------------------------------------------------------------- standing addresses: deposits, pause and resume

/**
 * Deposits of a reference, newest first: `GET /v1/standing-deposit-addresses/{ref}/deposits` with
 * `limit`/`offset` (public-notes: the path is from public client code, the fields from the docs).
 * The largest page the service allows is not shown: 100 is the package's guess ("Page Size" changes it).
 */
export const DEPOSITS_PAGE_MAX = 100;

/** The path of one reference's instruction, or of its deposits. */
export function standingPath(reference: string, tail: '' | '/deposits' = ''): string {
	return `${STANDING_PATH}/${referenceSegment(reference)}${tail}`;
}

/** The deposits path as a template (public client code; `{ref}` is the encoded reference): a user can read another path. */
export const STANDING_DEPOSITS_PATH = `${STANDING_PATH}/{ref}/deposits`;

/** The deposits path of a reference on the given template (STANDING_DEPOSITS_PATH by default). */
export function standingDepositsPath(
	reference: string,
	pathTemplate: string = STANDING_DEPOSITS_PATH,
): string {
	return requestPathOf(pathTemplate, referenceSegment(reference));
}

/**
 * Pause or resume conversion: `PATCH` with `{enabled}` (public-notes). The path is the one public
 * client code uses, unconfirmed by the docs: `{ref}` stands for the encoded reference, and a user
 * can send another path with the same body.
 */
export const STANDING_ENABLED_PATH = `${STANDING_PATH}/{ref}/enabled`;
const REQUEST_PATH_MAX_LENGTH = 512;
/** What a path template may hold: URL path characters and the `{ref}` placeholder; no query, fragment, space or backslash. */
const REQUEST_PATH_PATTERN = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/{}]*$/;

/** A request path given by the user, `{ref}` replaced by the reference's segment; refused when it could leave the API's paths. */
export function requestPathOf(template: string, segment: string, field = 'requestPath'): string {
	if (template === '') fail(field, 'is required', 'blank');
	if (template.length > REQUEST_PATH_MAX_LENGTH)
		fail(
			field,
			`is ${template.length} characters long; at most ${REQUEST_PATH_MAX_LENGTH} are allowed`,
			'too_long',
		);
	if (!REQUEST_PATH_PATTERN.test(template) || template.startsWith('//')) {
		fail(
			field,
			'must be a path that starts with "/" (e.g. /v1/standing-deposit-addresses/{ref}/enabled), without a query, a fragment, spaces or backslashes',
			'invalid_path',
		);
	}
	if (!template.includes('{ref}'))
		fail(field, 'must contain {ref}, where the reference goes', 'invalid_path');
	if (/%(?![0-9A-Fa-f]{2})/.test(template))
		fail(field, 'has a "%" that does not start a %XX escape', 'invalid_path');
	const segments = template.split('/');
	if (
		segments.some(
			(s) => s === '.' || s === '..' || /^%2e(%2e)?$/i.test(s) || /^\.%2e$|^%2e\.$/i.test(s),
		)
	)
		fail(field, 'must not contain "." or ".." segments', 'dot_segment');
	const braces = template.replaceAll('{ref}', '');
	if (/[{}]/.test(braces)) fail(field, 'has a "{" or "}" outside {ref}', 'invalid_path');
	return template.replaceAll('{ref}', segment);
}

/**
 * The refund of held deposits (public-notes: `{batchId, refundAddress}` -> `{batchId, status:
 * "refund_requested"}`); the path is not shown: the package's guess, which a user can change.
 */
export const STANDING_REFUND_PATH = `${STANDING_PATH}/{ref}/refund`;

/** POST {batchId, refundAddress} for one reference's held batch, on the given path template. */
export function planHeldRefund(
	reference: string,
	input: { batchId: string; refundAddress: string },
	pathTemplate: string = STANDING_REFUND_PATH,
): PlannedRequest {
	const segment = referenceSegment(reference);
	if (input.batchId === '')
		fail(
			'batchId',
			'is required: the batch of the held deposits (Get Deposits shows it as batchId)',
			'blank',
		);
	if (input.refundAddress === '')
		fail(
			'refundAddress',
			'is required: where the held deposits are sent back, on their chain',
			'blank',
		);
	return {
		path: requestPathOf(pathTemplate, segment),
		body: { batchId: input.batchId, refundAddress: input.refundAddress },
	};
}

/** PATCH {enabled} for one reference, on the given path template (STANDING_ENABLED_PATH by default). */
export function planStandingEnabled(
	reference: string,
	enabled: boolean,
	pathTemplate: string = STANDING_ENABLED_PATH,
): PlannedRequest {
	const segment = referenceSegment(reference);
	return { path: requestPathOf(pathTemplate, segment), body: { enabled } };
}

// ---------------------------------------------------------------- affiliate claims and payout destinations

/**
 * Claims of one affiliate: `{claims[], nextOffset}` with `limit` (at most 200) and `offset`, and the
 * newer filters `settlementChain` and `settlementAsset` (public-notes); one claim under `/claims/{claimId}`.
 */
export function claimPath(affiliateId: string, claimId: string): string {
	if (claimId.length > REFERENCE_MAX_LENGTH)
		fail(
			'claimId',
			`is ${claimId.length} characters long; at most ${REFERENCE_MAX_LENGTH} are allowed`,
			'too_long',
		);
	let segment: string;
	try {
		segment = pathSegment(claimId);
	} catch (error) {
		const e = error as ProtocolError;
		return fail('claimId', e.message, e.reason ?? 'invalid_claim_id');
	}
	return `${affiliatePath(affiliateId, '/claims')}/${segment}`;
}

/** The named members of a claim's optional body (public-notes, newer docs). */
export const CLAIM_BODY_FIELDS = [
	'settlementChain',
	'settlementAsset',
	'payoutChain',
	'payoutAsset',
	'payoutAddress',
] as const;
export type ClaimBodyField = (typeof CLAIM_BODY_FIELDS)[number];

export interface ClaimInput {
	affiliateId: string;
	/** The named members as given ('' or undefined when unset). */
	fields: Partial<Record<ClaimBodyField, string>>;
	/** Members the node does not name, sent as given ("Additional Body Fields"). */
	additionalFields?: Record<string, unknown>;
}

/**
 * POST /v1/affiliates/{affiliateId}/claim: without a body it claims the whole available balance,
 * settled where the fees accrued; the optional body picks which accrued balance (settlement chain
 * and asset, together) and where it is paid (payout chain and asset together, with an address on
 * that chain; Lightning excluded as for profiles). No body is sent when nothing is set, so a plain
 * claim stays the request older services know.
 */
export function planClaim(input: ClaimInput): {
	path: string;
	body: Record<string, unknown> | undefined;
	fields: Partial<Record<ClaimBodyField, string>>;
} {
	const path = affiliatePath(input.affiliateId, '/claim');
	const f = withNamedExtras(input.fields, input.additionalFields ?? {});
	const set = (name: ClaimBodyField) => (f[name] ?? '') !== '';
	const pair = (a: ClaimBodyField, b: ClaimBodyField) => {
		if (set(a) && !set(b)) fail(b, `is required with "${a}"`, 'blank');
		if (set(b) && !set(a)) fail(a, `is required with "${b}"`, 'blank');
	};
	pair('settlementChain', 'settlementAsset');
	pair('payoutChain', 'payoutAsset');
	if (set('payoutChain') && !set('payoutAddress')) {
		fail(
			'payoutAddress',
			'is required with "payoutChain": the affiliate\'s current address belongs to its current payout chain',
			'blank',
		);
	}
	if (f.payoutChain === 'lightning')
		fail(
			'payoutChain',
			'Lightning cannot receive affiliate payouts; choose another chain',
			'invalid_payout_destination',
		);
	if (set('settlementChain'))
		checkChainAndAsset(
			'settlementChain',
			f.settlementChain as string,
			'settlementAsset',
			f.settlementAsset as string,
		);
	if (set('payoutChain'))
		checkChainAndAsset(
			'payoutChain',
			f.payoutChain as string,
			'payoutAsset',
			f.payoutAsset as string,
		);
	const body: Record<string, unknown> = {};
	const fields: Partial<Record<ClaimBodyField, string>> = {};
	for (const name of CLAIM_BODY_FIELDS) {
		if (set(name)) body[name] = fields[name] = f[name];
	}
	for (const [name, value] of Object.entries(input.additionalFields ?? {})) {
		if (!(CLAIM_BODY_FIELDS as readonly string[]).includes(name)) body[name] = value;
	}
	return { path, body: Object.keys(body).length > 0 ? body : undefined, fields };
}

/**
 * The claim's named members with those given as "Additional Body Fields" checked as if typed into
 * the options (a member set in both is refused); an address-like member the claim does not name is refused.
 */
function withNamedExtras(
	fields: ClaimInput['fields'],
	extra: Record<string, unknown>,
): Partial<Record<ClaimBodyField, string>> {
	const merged = { ...fields };
	for (const name of CLAIM_BODY_FIELDS) {
		if (!(name in extra)) continue;
		if ((fields[name] ?? '') !== '')
			fail(
				'additionalFields',
				`sets "${name}", which the node already sends from its own option; set it there only`,
				'collision',
			);
		const value = extra[name];
		if (typeof value !== 'string')
			fail(
				'additionalFields',
				`sets "${name}" to ${describeValue(value)}; it must be text`,
				'type',
			);
		merged[name] = value.trim();
	}
	inField('additionalFields', () => refuseUncheckedAddresses(extra, CLAIM_BODY_FIELDS));
	return merged;
}

/** Where an affiliate's claims are paid (spec §2.7). */
export interface PayoutDestination {
	payoutChain: string;
	payoutAsset: string;
	payoutAddress: string;
}

/** The payout destination of a profile as the service answers it, when it has all three members as text. */
export function payoutDestinationOf(record: unknown): PayoutDestination | undefined {
	if (typeof record !== 'object' || record === null) return undefined;
	const { payoutChain, payoutAsset, payoutAddress } = record as Record<string, unknown>;
	if (
		typeof payoutChain !== 'string' ||
		typeof payoutAsset !== 'string' ||
		typeof payoutAddress !== 'string'
	)
		return undefined;
	return { payoutChain, payoutAsset, payoutAddress };
}

const EVM_HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The same destination: chain, asset and address equal (an EVM hex address in any letter case). */
export function samePayoutDestination(a: PayoutDestination, b: PayoutDestination): boolean {
	if (
		a.payoutChain.toLowerCase() !== b.payoutChain.toLowerCase() ||
		a.payoutAsset !== b.payoutAsset
	)
		return false;
	if (a.payoutAddress === b.payoutAddress) return true;
	return (
		EVM_HEX_ADDRESS.test(a.payoutAddress) &&
		EVM_HEX_ADDRESS.test(b.payoutAddress) &&
		a.payoutAddress.toLowerCase() === b.payoutAddress.toLowerCase()
	);
}

/** "USDC on base to 0x2222...", for messages that name a destination. */
export function describePayout(d: PayoutDestination): string {
	return `${d.payoutAsset} on ${d.payoutChain} to ${d.payoutAddress}`;
}

/**
 * What an upsert changes of an existing affiliate's payout destination: the affiliate's record among
 * `affiliates` (by the ID as the plan sends it) and its destination, when it differs from the
 * planned one (`from` undefined: the record shows none to compare with, so the change cannot be
 * ruled out); undefined for a new affiliate or the same destination.
 */
export function payoutChangeOf(
	affiliates: unknown[],
	affiliateId: string,
	planned: PayoutDestination,
): { from: PayoutDestination | undefined; to: PayoutDestination } | undefined {
	const id = affiliateIdOf(affiliateId);
	const existing = affiliates.find(
		(a) =>
			typeof a === 'object' && a !== null && (a as { affiliateId?: unknown }).affiliateId === id,
	);
	if (existing === undefined) return undefined;
	const from = payoutDestinationOf(existing);
	return from !== undefined && samePayoutDestination(from, planned)
		? undefined
		: { from, to: planned };
}

/** The payout chains and assets live now (public-notes "Affiliate management and claims"; server key). */
export const PAYOUT_DESTINATIONS_PATH = '/v1/affiliate-dashboard/payout-destinations';

/**
 * The list of an answer whose shape the docs do not show: the answer itself when it is a list, else
 * the first of `names` that holds one; and the answer's object members (for `nextOffset`).
 */
function lenientList(
	body: unknown,
	names: string[],
): { list: unknown[]; members?: Record<string, unknown> } | undefined {
	if (Array.isArray(body)) return { list: body };
	if (typeof body !== 'object' || body === null) return undefined;
	const members = body as Record<string, unknown>;
	const list = names.map((name) => members[name]).find(Array.isArray);
	return list === undefined ? undefined : { list, members };
}

/**
 * The entries of a payout-destinations answer (under `destinations` or `payoutDestinations`, or a
 * bare list). An object entry is kept as sent; a `<chain>:<asset>` text entry becomes `{chain, asset}`.
 */
export function payoutDestinationsOf(body: unknown): Array<Record<string, unknown>> | undefined {
	const list = lenientList(body, ['destinations', 'payoutDestinations'])?.list;
	if (list === undefined) return undefined;
	return list.flatMap((entry: unknown) => {
		if (typeof entry === 'object' && entry !== null && !Array.isArray(entry))
			return [entry as Record<string, unknown>];
		const pair = typeof entry === 'string' ? /^([^:\s]+):(\S+)$/.exec(entry) : null;
		return pair ? [{ chain: pair[1], asset: pair[2] }] : [];
	});
}

// ---------------------------------------------------------------- fee invoices

/** Fee invoices of a partner billed by invoice (public-notes: server key; the answer's shape is not shown). */
export const FEE_INVOICES_PATH = '/v1/partner/dashboard/fee-invoices';
/** The largest page asked for: not shown; 100 is the package's guess (the other listings allow more). */
export const FEE_INVOICES_PAGE_MAX = 100;

/** One page of fee invoices (under `invoices`, `feeInvoices`, `data` or `items`, or a bare list) and its `nextOffset`. */
export function feeInvoicePageOf(
	body: unknown,
): { invoices: Array<Record<string, unknown>>; nextOffset: unknown } | undefined {
	const read = lenientList(body, ['invoices', 'feeInvoices', 'data', 'items']);
	if (read === undefined) return undefined;
	const invoices = read.list.filter(
		(entry): entry is Record<string, unknown> =>
			typeof entry === 'object' && entry !== null && !Array.isArray(entry),
	);
	return { invoices, nextOffset: read.members?.nextOffset };
}
