// Value sets of the orchestration service (orchestration-service.md) and their guards: the closed
// ones (statuses, modes, scopes) and the open ones, chains and assets, whose authority is the routes
// listing the service serves (public-notes "Chains"): the spec's lists document them, a request is
// checked by syntax and then against the listing when it could be read. No n8n imports, no I/O.
import { ProtocolError } from '../errors';

/** A type guard for membership of a closed list (one Set, built once). */
function memberTest<T extends string>(values: readonly T[]): (x: unknown) => x is T {
	const set: ReadonlySet<string> = new Set(values);
	return (x: unknown): x is T => typeof x === 'string' && set.has(x);
}

/**
 * Chains of spec 2.1, in the spec's order: documentation and examples. The service keeps adding
 * chains, so a request is never refused for a chain outside this list (isChainName, checkOffered).
 */
export const CHAINS = [
	'arbitrum',
	'arc',
	'avalanche',
	'base',
	'bitcoin',
	'bsc',
	'ethereum',
	'hedera',
	'hypercore',
	'hyperevm',
	'lightning',
	'litecoin',
	'monad',
	'monero',
	'optimism',
	'plasma',
	'polygon',
	'robinhood',
	'sei',
	'solana',
	'spark',
	'tempo',
	'ton',
	'tron',
	'xrp',
	'zcash',
] as const;
export type Chain = (typeof CHAINS)[number];

/** Whether a chain is one of spec 2.1's list (not whether the service offers it: see checkOffered). */
export const isChain = memberTest<Chain>(CHAINS);

/** Longest chain name accepted (the spec's longest has 9 characters). */
export const CHAIN_NAME_MAX_LENGTH = 32;
const CHAIN_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * A chain name as the service spells them (spec 2.1, routes listing `chain`): a lowercase slug of
 * letters, digits, `-` and `_`, at most CHAIN_NAME_MAX_LENGTH characters. Syntax only.
 */
export function isChainName(x: unknown): boolean {
	return typeof x === 'string' && x.length <= CHAIN_NAME_MAX_LENGTH && CHAIN_NAME.test(x);
}

/** Longest asset symbol accepted outside a routing key. */
export const ASSET_SYMBOL_MAX_LENGTH = 64;

/** An asset symbol as the listing may spell it (`USDC.e`, `USD₮0`): no whitespace, no colon, bounded. Syntax only. */
export function isAssetSymbolText(x: unknown): boolean {
	return (
		typeof x === 'string' &&
		x.length > 0 &&
		x.length <= ASSET_SYMBOL_MAX_LENGTH &&
		/^[^\s:]+$/u.test(x)
	);
}

/** Canonical public asset symbols of spec 2.1, exactly as spelled there (case matters). */
export const ASSET_SYMBOLS = [
	'AAPL',
	'AI',
	'AMD',
	'AMZN',
	'BNB',
	'BONER',
	'BTC',
	'CASHCAT',
	'COIN',
	'COST',
	'DAI',
	'DELTA',
	'DJT',
	'ETH',
	'GLD',
	'GME',
	'GOOGL',
	'GRAM',
	'HIMS',
	'HSUSD',
	'HYPE',
	'IF',
	'LTC',
	'META',
	'MON',
	'MSFT',
	'MSTR',
	'MU',
	'NVDA',
	'PIPEDOG',
	'PLTR',
	'POL',
	'PONS',
	'PYUSD',
	'PathUSD',
	'QQQ',
	'RDDT',
	'SHX',
	'SKHY',
	'SLV',
	'SNDK',
	'SOL',
	'SPCX',
	'SPY',
	'STONKBROKER',
	'TENDIES',
	'TRX',
	'TSLA',
	'TSM',
	'UP',
	'USDB',
	'USDC',
	'USDC.e',
	'USDG',
	'USDT',
	'USDe',
	'USD₮0',
	'USO',
	'WBNB',
	'WBTC',
	'WEN',
	'XMR',
	'XPL',
	'XRP',
	'ZEC',
	'cbBTC',
	'tBTC',
] as const;
export type AssetSymbol = (typeof ASSET_SYMBOLS)[number];

export const isAssetSymbol = memberTest<AssetSymbol>(ASSET_SYMBOLS);

/** Dollar stablecoins: their exact_out amounts must be whole cents (spec 4.1). */
export const STABLECOIN_SYMBOLS = [
	'DAI',
	'HSUSD',
	'PYUSD',
	'PathUSD',
	'USDB',
	'USDC',
	'USDC.e',
	'USDG',
	'USDT',
	'USDe',
	'USD₮0',
] as const satisfies readonly AssetSymbol[];
export type StablecoinSymbol = (typeof STABLECOIN_SYMBOLS)[number];

const STABLECOIN_SET: ReadonlySet<string> = new Set(STABLECOIN_SYMBOLS);

/** Reviewed tokenized equities: visible only through v2 routes, with explicit admission (spec 1, 9). */
export const TOKENIZED_EQUITY_SYMBOLS = [
	'AAPL',
	'AMD',
	'AMZN',
	'COIN',
	'COST',
	'GLD',
	'GOOGL',
	'HIMS',
	'META',
	'MSFT',
	'MSTR',
	'MU',
	'NVDA',
	'PLTR',
	'QQQ',
	'RDDT',
	'SLV',
	'SNDK',
	'SPY',
	'TSLA',
	'TSM',
	'USO',
	'SPCX',
	'SKHY',
	'DJT',
	'GME',
] as const satisfies readonly AssetSymbol[];
export type TokenizedEquitySymbol = (typeof TOKENIZED_EQUITY_SYMBOLS)[number];

const EQUITY_SET: ReadonlySet<string> = new Set(TOKENIZED_EQUITY_SYMBOLS);

/** The symbol part of an asset input: the symbol itself, or the asset of a routing key. */
function symbolOf(asset: string): string {
	const key = parseRoutingKey(asset);
	return key ? key.asset : asset;
}

/** True for a stablecoin symbol or a routing key whose asset is one (`ethereum:USDC`). */
export function isStablecoin(asset: unknown): boolean {
	return typeof asset === 'string' && STABLECOIN_SET.has(symbolOf(asset));
}

/** True for a tokenized-equity symbol or a routing key whose asset is one (`solana:AAPL`). */
export function isTokenizedEquity(asset: unknown): boolean {
	return typeof asset === 'string' && EQUITY_SET.has(symbolOf(asset));
}

export interface RoutingKey {
	chain: string;
	asset: string;
}

/**
 * Longest routing key accepted (the spec sets none; a chain name, a colon and a token address or
 * registry id fit in a fifth of it). Checked before any scan, so a huge input costs nothing.
 */
export const ROUTING_KEY_MAX_LENGTH = 256;

/**
 * Parses a registry routing key `<chain>:<asset>` (spec 2.1). The chain must be a chain name
 * (isChainName: any the listing may add); the asset part is registry-defined, so any non-empty text
 * without whitespace or a further colon is accepted, up to ROUTING_KEY_MAX_LENGTH characters in all.
 */
export function parseRoutingKey(s: unknown): RoutingKey | null {
	if (typeof s !== 'string' || s.length > ROUTING_KEY_MAX_LENGTH) return null;
	const colon = s.indexOf(':');
	if (colon <= 0 || colon === s.length - 1) return null;
	const chain = s.slice(0, colon);
	const asset = s.slice(colon + 1);
	if (!isChainName(chain) || !/^[^\s:]+$/u.test(asset)) return null;
	return { chain, asset };
}

/** The legacy input alias `TON` and what it stands for (spec 2.1: responses use GRAM). */
export const TON_ALIAS = 'TON';
export const TON_ALIAS_TARGET = 'ton:GRAM';

/** Maps the legacy alias `TON` to `ton:GRAM`; every other value is returned unchanged (spec 2.1). */
export function normalizeAssetInput(asset: string): string {
	return asset === TON_ALIAS ? TON_ALIAS_TARGET : asset;
}

/** An asset symbol (spec 2.1's or one the listing adds), a routing key, or the legacy `TON` alias: syntax only. */
export function isValidAssetInput(asset: unknown): asset is string {
	if (typeof asset !== 'string') return false;
	const normalized = normalizeAssetInput(asset);
	return isAssetSymbolText(normalized) || parseRoutingKey(normalized) !== null;
}

// ---------------------------------------------------------------- what the routes listing offers

/** Where the service lists what exists (spec 4.3; public-notes "Chains": the authority), named in each refusal. */
export const ROUTES_LISTING = 'GET /v2/orchestration/routes';

/** The routes listing as a request's checks read it (the node's RoutesCatalogue implements it). */
export interface OfferedRoutes {
	/** The chains the listing has, in a stable order. */
	chainNames(): readonly string[];
	/** The entry of an asset input (symbol, routing key, TON alias) on a chain, or undefined. */
	find(chain: string, asset: string): { id: string } | undefined;
	/** The ids (`<chain>:<asset>`) the listing has on a chain. */
	idsOnChain(chain: string): readonly string[];
}

/** One side of a request: its chain and, when it has one, its asset, with the fields that hold them. */
export interface OfferedSide {
	chainField: string;
	chain: unknown;
	assetField?: string;
	asset?: unknown;
}

/** At most this many chains, and this many assets of a chain, are named in a refusal. */
const CHAINS_NAMED_MAX = 50;
const ASSETS_NAMED_MAX = 20;

function listed(values: readonly string[], max: number): string {
	const shown = values.slice(0, max).join(', ');
	return values.length > max ? `${shown} and ${values.length - max} more` : shown;
}

/**
 * Checks a request's chains and assets against the routes listing: a value it does not offer is
 * refused, naming the value and what the listing has. Without a listing (it could not be read, or
 * it holds nothing) nothing is refused here: the values were syntax-checked and the service decides.
 */
export function checkOffered(listing: OfferedRoutes | undefined, sides: OfferedSide[]): void {
	const chains = listing?.chainNames() ?? [];
	if (listing === undefined || chains.length === 0) return;
	for (const side of sides) checkOfferedSide(listing, chains, side);
}

function checkOfferedSide(
	listing: OfferedRoutes,
	chains: readonly string[],
	side: OfferedSide,
): void {
	const { chainField, chain, assetField, asset } = side;
	if (typeof chain !== 'string' || chain === '') return;
	if (!chains.includes(chain)) {
		throw new ProtocolError(
			`${JSON.stringify(chain)} is not a chain the routes listing offers (${ROUTES_LISTING} lists ${chains.length}: ${listed(chains, CHAINS_NAMED_MAX)})`,
			{
				field: chainField,
				reason: 'unsupported_route',
			},
		);
	}
	if (
		assetField === undefined ||
		typeof asset !== 'string' ||
		asset === '' ||
		listing.find(chain, asset) !== undefined
	)
		return;
	const key = parseRoutingKey(normalizeAssetInput(asset));
	const problem =
		key && !chains.includes(key.chain)
			? `names the chain ${JSON.stringify(key.chain)}, which the routes listing does not offer (${ROUTES_LISTING} lists ${chains.length}: ${listed(chains, CHAINS_NAMED_MAX)})`
			: `is not an asset the routes listing offers on ${chain} (${ROUTES_LISTING} lists there: ${listed(listing.idsOnChain(chain), ASSETS_NAMED_MAX) || 'nothing'})`;
	throw new ProtocolError(`${JSON.stringify(asset)} ${problem}`, {
		field: assetField,
		reason: 'unsupported_route',
	});
}

/** Public order statuses of spec 3. The internal `paused` state is shown as `processing`. */
export const PUBLIC_STATUSES = [
	'processing',
	'confirming',
	'bridging',
	'swapping',
	'awaiting_approval',
	'refunding',
	'delivering',
	'completed',
	'failed',
	'unfulfilled',
	'refunded',
] as const;
export type PublicStatus = (typeof PUBLIC_STATUSES)[number];

export const isPublicStatus = memberTest<PublicStatus>(PUBLIC_STATUSES);

/**
 * Statuses after which an order does not change any more (spec 3, 6; public-notes: completed,
 * failed and refunded are terminal). `unfulfilled` is not among them: an unconfirmed or replaced
 * deposit can still resume after a late deposit, and a replaced one names its successor order in
 * `supersededByOperationId`.
 */
export const FINAL_STATUSES = [
	'completed',
	'failed',
	'refunded',
] as const satisfies readonly PublicStatus[];
export type FinalStatus = (typeof FINAL_STATUSES)[number];

export const isFinalStatus = memberTest<FinalStatus>(FINAL_STATUSES);

/**
 * Order statuses that end a wait (read case-insensitively): the finals plus `expired`, which the
 * live service reports for an order that expired without a deposit (public-notes). Never
 * `unfulfilled`.
 */
export const FINAL_ORDER_STATUSES = [...FINAL_STATUSES, 'expired'] as const;
const FINAL_ORDER_SET: ReadonlySet<string> = new Set(FINAL_ORDER_STATUSES);
const KNOWN_ORDER_SET: ReadonlySet<string> = new Set([...PUBLIC_STATUSES, 'expired']);

/**
 * A status as the node outputs it: the spec's spelling (lower case) for a known status in any
 * case (`COMPLETED` -> `completed`); an unknown status exactly as received (never an error).
 */
export function canonicalOrderStatus(status: string): string {
	const lower = status.toLowerCase();
	return KNOWN_ORDER_SET.has(lower) ? lower : status;
}

/** Whether a status, in any case, is final (spec 3 plus `expired`); unknown statuses are not. */
export function isFinalOrderStatus(status: unknown): boolean {
	return typeof status === 'string' && FINAL_ORDER_SET.has(status.toLowerCase());
}

/** Stage markers of the status view, spec 3, in the spec's order. */
export const STAGES = [
	'deposit_confirmed',
	'amount_reconciled',
	'swept',
	'bridged',
	'swapped',
	'delivered',
	'refund_requested',
	'refunded',
	'zeroconf_offer_pending',
	'zeroconf_offer_accepted',
	'zeroconf_offer_declined',
	'zeroconf_accepted',
	'deposit_claimed',
] as const;
export type Stage = (typeof STAGES)[number];

export const isStage = memberTest<Stage>(STAGES);

/** Webhook event kinds, one per public status (spec 6); there is no `order.paused`. */
export const ORDER_EVENTS = [
	'order.processing',
	'order.confirming',
	'order.bridging',
	'order.swapping',
	'order.awaiting_approval',
	'order.refunding',
	'order.delivering',
	'order.completed',
	'order.failed',
	'order.unfulfilled',
	'order.refunded',
] as const satisfies readonly `order.${PublicStatus}`[];
export type OrderEvent = (typeof ORDER_EVENTS)[number];

export const isOrderEvent = memberTest<OrderEvent>(ORDER_EVENTS);

/** The event kind emitted when an order enters `status` (spec 6). */
export function orderEventFor(status: PublicStatus): OrderEvent {
	return `order.${status}`;
}

/** spec 1, 4.1; public-notes: `amountMode`, default exact_in. */
export const AMOUNT_MODES = ['exact_in', 'exact_out'] as const;
export type AmountMode = (typeof AMOUNT_MODES)[number];

/** spec 1, 4.1; public-notes: `deliveryMode`, default variable; fixed only with exact_in. */
export const DELIVERY_MODES = ['variable', 'fixed'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/** Action required when a locked price can no longer be honored (spec 2.2; public-notes `priceLockMode`). */
export const PRICE_LOCK_MODES = ['strict_requote', 'approval_required'] as const;
export type PriceLockMode = (typeof PRICE_LOCK_MODES)[number];

/** `feePayouts.entries[*].role` (spec 2.10). */
export const FEE_PAYOUT_ROLES = [
	'app_fee',
	'recipient_payout',
	'platform_fee',
	'fee_custody',
] as const;
export type FeePayoutRole = (typeof FEE_PAYOUT_ROLES)[number];

/** `feePayouts.entries[*].leg` (spec 2.10); `instant` appears on historical records only. */
export const FEE_PAYOUT_LEGS = ['full', 'holdback', 'instant'] as const;
export type FeePayoutLeg = (typeof FEE_PAYOUT_LEGS)[number];

/** Scopes of client keys (spec 5). */
export const CLIENT_KEY_SCOPES = [
	'orders:quote',
	'orders:submit',
	'orders:onramp',
	'orders:read',
	'orders:sse',
	'accumulation:create',
	'liquidation:create',
	'affiliates:read',
] as const;
export type ClientKeyScope = (typeof CLIENT_KEY_SCOPES)[number];

/** Origin modes of a client key (spec 5). */
export const ORIGIN_MODES = ['server', 'browser', 'both'] as const;
export type OriginMode = (typeof ORIGIN_MODES)[number];

/** Error codes of spec 7 (all HTTP 403 except calldata_unsupported_source, whose status is not stated). */
export const SPEC_ERROR_CODES = [
	'scope_required',
	'forbidden',
	'origin_required',
	'origin_not_allowed',
	'read_token_required',
	'invalid_read_token',
	'client_key_fee_fields_forbidden',
	'turnstile_required',
	'turnstile_failed',
	'calldata_unsupported_source',
] as const;
export type SpecErrorCode = (typeof SPEC_ERROR_CODES)[number];
