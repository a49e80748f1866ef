// Closed value sets of the orchestration service (orchestration-service.md) and their guards.
// Pure data: no n8n imports, no I/O.

/** A type guard for membership of a closed list (one Set, built once). */
function memberTest<T extends string>(values: readonly T[]): (x: unknown) => x is T {
	const set: ReadonlySet<string> = new Set(values);
	return (x: unknown): x is T => typeof x === 'string' && set.has(x);
}

/** Chains of spec 2.1, in the spec's order. */
export const CHAINS = [
	'arbitrum', 'arc', 'avalanche', 'base', 'bitcoin', 'bsc', 'ethereum', 'hedera', 'hypercore',
	'hyperevm', 'lightning', 'litecoin', 'monad', 'monero', 'optimism', 'plasma', 'polygon',
	'robinhood', 'sei', 'solana', 'spark', 'tempo', 'ton', 'tron', 'xrp', 'zcash',
] as const;
export type Chain = (typeof CHAINS)[number];

export const isChain = memberTest<Chain>(CHAINS);

/** Canonical public asset symbols of spec 2.1, exactly as spelled there (case matters). */
export const ASSET_SYMBOLS = [
	'AAPL', 'AI', 'AMD', 'AMZN', 'BNB', 'BONER', 'BTC', 'CASHCAT', 'COIN', 'COST', 'DAI', 'DELTA',
	'DJT', 'ETH', 'GLD', 'GME', 'GOOGL', 'GRAM', 'HIMS', 'HSUSD', 'HYPE', 'IF', 'LTC', 'META', 'MON',
	'MSFT', 'MSTR', 'MU', 'NVDA', 'PIPEDOG', 'PLTR', 'POL', 'PONS', 'PYUSD', 'PathUSD', 'QQQ', 'RDDT',
	'SHX', 'SKHY', 'SLV', 'SNDK', 'SOL', 'SPCX', 'SPY', 'STONKBROKER', 'TENDIES', 'TRX', 'TSLA', 'TSM',
	'UP', 'USDB', 'USDC', 'USDC.e', 'USDG', 'USDT', 'USDe', 'USD₮0', 'USO', 'WBNB', 'WBTC', 'WEN',
	'XMR', 'XPL', 'XRP', 'ZEC', 'cbBTC', 'tBTC',
] as const;
export type AssetSymbol = (typeof ASSET_SYMBOLS)[number];

export const isAssetSymbol = memberTest<AssetSymbol>(ASSET_SYMBOLS);

/** Dollar stablecoins: their exact_out amounts must be whole cents (spec 4.1). */
export const STABLECOIN_SYMBOLS = [
	'DAI', 'HSUSD', 'PYUSD', 'PathUSD', 'USDB', 'USDC', 'USDC.e', 'USDG', 'USDT', 'USDe', 'USD₮0',
] as const satisfies readonly AssetSymbol[];
export type StablecoinSymbol = (typeof STABLECOIN_SYMBOLS)[number];

const STABLECOIN_SET: ReadonlySet<string> = new Set(STABLECOIN_SYMBOLS);

/** Reviewed tokenized equities: visible only through v2 routes, with explicit admission (spec 1, 9). */
export const TOKENIZED_EQUITY_SYMBOLS = [
	'AAPL', 'AMD', 'AMZN', 'COIN', 'COST', 'GLD', 'GOOGL', 'HIMS', 'META', 'MSFT', 'MSTR', 'MU', 'NVDA',
	'PLTR', 'QQQ', 'RDDT', 'SLV', 'SNDK', 'SPY', 'TSLA', 'TSM', 'USO', 'SPCX', 'SKHY', 'DJT', 'GME',
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
	chain: Chain;
	asset: string;
}

/**
 * Longest routing key accepted (the spec sets none; a chain name, a colon and a token address or
 * registry id fit in a fifth of it). Checked before any scan, so a huge input costs nothing.
 */
export const ROUTING_KEY_MAX_LENGTH = 256;

/**
 * Parses a registry routing key `<chain>:<asset>` (spec 2.1). The chain must be known; the asset part
 * is registry-defined, so any non-empty text without whitespace or a further colon is accepted, up
 * to ROUTING_KEY_MAX_LENGTH characters in all.
 */
export function parseRoutingKey(s: unknown): RoutingKey | null {
	if (typeof s !== 'string' || s.length > ROUTING_KEY_MAX_LENGTH) return null;
	const colon = s.indexOf(':');
	if (colon <= 0 || colon === s.length - 1) return null;
	const chain = s.slice(0, colon);
	const asset = s.slice(colon + 1);
	if (!isChain(chain) || !/^[^\s:]+$/u.test(asset)) return null;
	return { chain, asset };
}

/** The legacy input alias `TON` and what it stands for (spec 2.1: responses use GRAM). */
export const TON_ALIAS = 'TON';
export const TON_ALIAS_TARGET = 'ton:GRAM';

/** Maps the legacy alias `TON` to `ton:GRAM`; every other value is returned unchanged (spec 2.1). */
export function normalizeAssetInput(asset: string): string {
	return asset === TON_ALIAS ? TON_ALIAS_TARGET : asset;
}

/** A symbol of spec 2.1, a routing key with a known chain, or the legacy `TON` alias. */
export function isValidAssetInput(asset: unknown): asset is string {
	if (typeof asset !== 'string') return false;
	const normalized = normalizeAssetInput(asset);
	return isAssetSymbol(normalized) || parseRoutingKey(normalized) !== null;
}

/** Public order statuses of spec 3. The internal `paused` state is shown as `processing`. */
export const PUBLIC_STATUSES = [
	'processing', 'confirming', 'bridging', 'swapping', 'awaiting_approval', 'refunding', 'delivering',
	'completed', 'failed', 'unfulfilled', 'refunded',
] as const;
export type PublicStatus = (typeof PUBLIC_STATUSES)[number];

export const isPublicStatus = memberTest<PublicStatus>(PUBLIC_STATUSES);

/**
 * Statuses after which an order does not change any more (spec 3, 6; public-notes: completed,
 * failed and refunded are terminal). `unfulfilled` is not among them: an unconfirmed or replaced
 * deposit can still resume after a late deposit, and a replaced one names its successor order in
 * `supersededByOperationId`.
 */
export const FINAL_STATUSES = ['completed', 'failed', 'refunded'] as const satisfies readonly PublicStatus[];
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
	'deposit_confirmed', 'amount_reconciled', 'swept', 'bridged', 'swapped', 'delivered',
	'refund_requested', 'refunded', 'zeroconf_offer_pending', 'zeroconf_offer_accepted',
	'zeroconf_offer_declined', 'zeroconf_accepted', 'deposit_claimed',
] as const;
export type Stage = (typeof STAGES)[number];

export const isStage = memberTest<Stage>(STAGES);

/** Webhook event kinds, one per public status (spec 6); there is no `order.paused`. */
export const ORDER_EVENTS = [
	'order.processing', 'order.confirming', 'order.bridging', 'order.swapping',
	'order.awaiting_approval', 'order.refunding', 'order.delivering', 'order.completed', 'order.failed',
	'order.unfulfilled', 'order.refunded',
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
export const FEE_PAYOUT_ROLES = ['app_fee', 'recipient_payout', 'platform_fee', 'fee_custody'] as const;
export type FeePayoutRole = (typeof FEE_PAYOUT_ROLES)[number];

/** `feePayouts.entries[*].leg` (spec 2.10); `instant` appears on historical records only. */
export const FEE_PAYOUT_LEGS = ['full', 'holdback', 'instant'] as const;
export type FeePayoutLeg = (typeof FEE_PAYOUT_LEGS)[number];

/** Scopes of client keys (spec 5). */
export const CLIENT_KEY_SCOPES = [
	'orders:quote', 'orders:submit', 'orders:onramp', 'orders:read', 'orders:sse',
	'accumulation:create', 'liquidation:create', 'affiliates:read',
] as const;
export type ClientKeyScope = (typeof CLIENT_KEY_SCOPES)[number];

/** Origin modes of a client key (spec 5). */
export const ORIGIN_MODES = ['server', 'browser', 'both'] as const;
export type OriginMode = (typeof ORIGIN_MODES)[number];

/** Error codes of spec 7 (all HTTP 403 except calldata_unsupported_source, whose status is not stated). */
export const SPEC_ERROR_CODES = [
	'scope_required', 'forbidden', 'origin_required', 'origin_not_allowed', 'read_token_required',
	'invalid_read_token', 'client_key_fee_fields_forbidden', 'turnstile_required', 'turnstile_failed',
	'calldata_unsupported_source',
] as const;
export type SpecErrorCode = (typeof SPEC_ERROR_CODES)[number];
