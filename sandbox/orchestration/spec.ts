/**
 * The orchestration service's closed lists, times and shares as the sandbox reads them from
 * orchestration-service.md (the section is named per line) and public-notes.md. The sandbox is a
 * test oracle: it keeps its own reading of the documents and shares no code with nodes/, so a
 * belief both got wrong cannot hide behind a shared constant.
 */

/**
 * Spec 2.1, in the spec's order. The sandbox's seeds use it; requests are not held to it: the live
 * service keeps adding chains and its routes listing is the authority (public-notes "Chains").
 */
export const CHAINS = [
	'arbitrum', 'arc', 'avalanche', 'base', 'bitcoin', 'bsc', 'ethereum', 'hedera', 'hypercore',
	'hyperevm', 'lightning', 'litecoin', 'monad', 'monero', 'optimism', 'plasma', 'polygon',
	'robinhood', 'sei', 'solana', 'spark', 'tempo', 'ton', 'tron', 'xrp', 'zcash',
] as const;

/**
 * A chain name as the service spells them (spec 2.1, the listing's `chain`): a lowercase slug of
 * letters, digits, `-` and `_`, at most 32 characters (the sandbox's own bound). Syntax only: whether
 * the chain exists is the sandbox's listing's to say.
 */
export function isChainName(value: unknown): value is string {
	return typeof value === 'string' && value.length <= 32 && /^[a-z0-9][a-z0-9_-]*$/.test(value);
}

/** An asset symbol as a listing may spell it (`USDC.e`, `USD₮0`, `XLM`): no whitespace, no colon, at most 64 characters. */
function isSymbolText(value: string): boolean {
	return value.length > 0 && value.length <= 64 && /^[^\s:]+$/u.test(value);
}

/** Spec 2.1: the canonical public asset symbols, spelled as there (case matters); the listing may add more. */
export const ASSET_SYMBOLS: readonly string[] = [
	'AAPL', 'AI', 'AMD', 'AMZN', 'BNB', 'BONER', 'BTC', 'CASHCAT', 'COIN', 'COST', 'DAI', 'DELTA',
	'DJT', 'ETH', 'GLD', 'GME', 'GOOGL', 'GRAM', 'HIMS', 'HSUSD', 'HYPE', 'IF', 'LTC', 'META', 'MON',
	'MSFT', 'MSTR', 'MU', 'NVDA', 'PIPEDOG', 'PLTR', 'POL', 'PONS', 'PYUSD', 'PathUSD', 'QQQ', 'RDDT',
	'SHX', 'SKHY', 'SLV', 'SNDK', 'SOL', 'SPCX', 'SPY', 'STONKBROKER', 'TENDIES', 'TRX', 'TSLA', 'TSM',
	'UP', 'USDB', 'USDC', 'USDC.e', 'USDG', 'USDT', 'USDe', 'USD₮0', 'USO', 'WBNB', 'WBTC', 'WEN',
	'XMR', 'XPL', 'XRP', 'ZEC', 'cbBTC', 'tBTC',
];

/**
 * Spec 4.1 says "stablecoin exact_out amounts must be whole cents" without listing the stablecoins:
 * the sandbox counts the dollar stablecoins among the symbols of 2.1.
 */
const STABLECOINS: ReadonlySet<string> = new Set(['DAI', 'HSUSD', 'PYUSD', 'PathUSD', 'USDB', 'USDC', 'USDC.e', 'USDG', 'USDT', 'USDe', 'USD₮0']);

/** Whether a bare asset symbol is a dollar stablecoin (the sandbox's reading of spec 4.1). */
export function isStablecoin(symbol: string): boolean {
	return STABLECOINS.has(symbol);
}

/**
 * Reviewed tokenized equities (spec 1, 9: v2 only, with admission). The spec does not list them;
 * these are the symbols of 2.1 the sandbox lists on the robinhood chain, in the order their
 * made-up contract addresses are numbered.
 */
export const TOKENIZED_EQUITIES: readonly string[] = [
	'AAPL', 'AMD', 'AMZN', 'COIN', 'COST', 'GLD', 'GOOGL', 'HIMS', 'META', 'MSFT', 'MSTR', 'MU', 'NVDA',
	'PLTR', 'QQQ', 'RDDT', 'SLV', 'SNDK', 'SPY', 'TSLA', 'TSM', 'USO', 'SPCX', 'SKHY', 'DJT', 'GME',
];

/** Longest routing key read (the spec sets none; the sandbox's own bound, checked before any scan). */
const ROUTING_KEY_MAX_LENGTH = 256;

/**
 * Spec 2.1 "a registry asset routing key of the form `<chain>:<asset>`": a chain name, a colon, and a
 * non-empty asset part without whitespace or another colon. Null otherwise.
 */
export function parseRoutingKey(value: unknown): { chain: string; asset: string } | null {
	if (typeof value !== 'string' || value.length > ROUTING_KEY_MAX_LENGTH) return null;
	const colon = value.indexOf(':');
	if (colon <= 0) return null;
	const chain = value.slice(0, colon);
	const asset = value.slice(colon + 1);
	if (!isChainName(chain) || !/^[^\s:]+$/u.test(asset)) return null;
	return { chain, asset };
}

/** Spec 2.1: "TON is accepted on input as a legacy alias for `ton:GRAM` only". */
export function withoutTonAlias(asset: string): string {
	return asset === 'TON' ? 'ton:GRAM' : asset;
}

/** Spec 2.1: a symbol, a routing key, or the TON alias; by syntax (the listing says which exist). */
export function isAssetInput(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	const asset = withoutTonAlias(value);
	return isSymbolText(asset) || parseRoutingKey(asset) !== null;
}

/** Spec 3, public order statuses (the internal `paused` is shown as `processing`). */
export const PUBLIC_STATUSES = [
	'processing', 'confirming', 'bridging', 'swapping', 'awaiting_approval', 'refunding', 'delivering',
	'completed', 'failed', 'unfulfilled', 'refunded',
] as const;
export type PublicStatus = (typeof PUBLIC_STATUSES)[number];

/** Spec 3, stage markers of the status view. */
export const STAGES = [
	'deposit_confirmed', 'amount_reconciled', 'swept', 'bridged', 'swapped', 'delivered',
	'refund_requested', 'refunded', 'zeroconf_offer_pending', 'zeroconf_offer_accepted',
	'zeroconf_offer_declined', 'zeroconf_accepted', 'deposit_claimed',
] as const;
export type Stage = (typeof STAGES)[number];

/** Spec 5, scopes of client keys. */
export const CLIENT_KEY_SCOPES = [
	'orders:quote', 'orders:submit', 'orders:onramp', 'orders:read', 'orders:sse',
	'accumulation:create', 'liquidation:create', 'affiliates:read',
] as const;
export type ClientKeyScope = (typeof CLIENT_KEY_SCOPES)[number];

/** Spec 5, origin modes of a client key. */
export const ORIGIN_MODES = ['server', 'browser', 'both'] as const;

/** Spec 1, 3, 8: a quote is firm for 2 minutes. */
export const QUOTE_TTL_MS = 2 * 60_000;
/** Spec 5, 8: read tokens last 24 hours. */
export const READ_TOKEN_TTL_MS = 24 * 60 * 60_000;
/** Spec 2.10, 8: the platform keeps 20 % of a gross affiliate or app fee; the recipient gets 80 %. */
export const PLATFORM_CUT_PERCENT = 20;
/** Spec 6, delivery rule 4: the retry delays, in order. */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
	10_000, 30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 2 * 60 * 60_000, 6 * 60 * 60_000, 24 * 60 * 60_000,
];
