import { PLATFORM_CUT_PERCENT } from './spec';
import { DEFAULT_USD_PRICE, USD_PRICES } from './catalogue-data';
import type { CatalogueAsset } from './catalogue';

/**
 * Deterministic fake economics. Every amount is a BigInt in the asset's smallest units (spec 2);
 * prices are exact fixed-point USD (nano-dollars), so nothing passes through a JS number.
 */
const PRICE_SCALE = 9;
const BPS = 10_000n;
/** The sandbox's own fee in basis points, before app and affiliate fees. */
export const PLATFORM_FEE_BPS = 30;
/** Route limits in whole USD, derived for every route from the same price table. */
export const MIN_USD = 1n;
export const MAX_USD = 1_000_000n;
export const LIGHTNING_MAX_USD = 10_000n;

/** Nano-USD per whole unit of the asset. */
export function priceNanoUsd(symbol: string): bigint {
	const text = USD_PRICES[symbol] ?? DEFAULT_USD_PRICE;
	const [whole, fraction = ''] = text.split('.');
	return BigInt(whole + fraction.padEnd(PRICE_SCALE, '0'));
}

const pow10 = (n: number) => 10n ** BigInt(n);
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** Converts smallest units of `from` into smallest units of `to` at the fake prices (floored). */
export function convert(amount: bigint, from: Pick<CatalogueAsset, 'asset' | 'decimals'>, to: Pick<CatalogueAsset, 'asset' | 'decimals'>): bigint {
	return (amount * priceNanoUsd(from.asset) * pow10(to.decimals)) / (priceNanoUsd(to.asset) * pow10(from.decimals));
}

/** Smallest units of `asset` worth `usd` whole dollars (rounded up). */
export function usdToUnits(usd: bigint, asset: CatalogueAsset): bigint {
	return ceilDiv(usd * pow10(PRICE_SCALE) * pow10(asset.decimals), priceNanoUsd(asset.asset));
}

/** The whole US cents `amount` smallest units of `asset` are worth (floored). */
export function usdCentsOf(amount: bigint, asset: Pick<CatalogueAsset, 'asset' | 'decimals'>): bigint {
	return (amount * priceNanoUsd(asset.asset) * 100n) / (pow10(asset.decimals) * pow10(PRICE_SCALE));
}

/** Smallest units of `asset` a USD decimal string buys (floored). */
export function usdDecimalToUnits(usd: string, asset: Pick<CatalogueAsset, 'asset' | 'decimals'>): bigint {
	const [whole, fraction = ''] = usd.split('.');
	const nano = BigInt(whole + fraction.padEnd(PRICE_SCALE, '0'));
	return (nano * pow10(asset.decimals)) / priceNanoUsd(asset.asset);
}

export interface RouteLimits {
	/** Source smallest units: `exactIn.requestAmount.minAmountSmallest` / `maxAmountSmallest` of /limits. */
	minAmount: bigint;
	maxAmount: bigint;
	/** The order notional in US cents: `orderNotionalUsd.minCents` / `maxCents` of /limits. */
	minCents: bigint;
	maxCents: bigint;
}

/** Min and max amounts of a route (public-notes `GET /limits`, enforced on quotes as amount_too_small / amount_too_large). */
export function routeLimits(source: CatalogueAsset, destination: CatalogueAsset): RouteLimits {
	const maxUsd = source.chain === 'lightning' || destination.chain === 'lightning' ? LIGHTNING_MAX_USD : MAX_USD;
	return { minAmount: usdToUnits(MIN_USD, source), maxAmount: usdToUnits(maxUsd, source), minCents: MIN_USD * 100n, maxCents: maxUsd * 100n };
}

export interface Economics {
	amountIn: bigint;
	estimatedOut: bigint;
	feeAmount: bigint;
	roundingFeeAmount: bigint;
	feeBps: number;
}

/** exact_in: the fee is taken from the source amount, the rest converts at the fake price. */
export function priceExactIn(amountIn: bigint, source: CatalogueAsset, destination: CatalogueAsset, feeBps: number): Economics {
	const feeAmount = (amountIn * BigInt(feeBps)) / BPS;
	const net = amountIn - feeAmount;
	const exact = net * priceNanoUsd(source.asset) * pow10(destination.decimals);
	const divisor = priceNanoUsd(destination.asset) * pow10(source.decimals);
	const estimatedOut = exact / divisor;
	// What the floor of the conversion loses, in source units (spec 2.2 roundingFeeAmount).
	const roundingFeeAmount = (exact % divisor) * pow10(source.decimals) / (priceNanoUsd(source.asset) * pow10(destination.decimals));
	return { amountIn, estimatedOut, feeAmount, roundingFeeAmount, feeBps };
}

/** exact_out: the destination amount is pinned and the source amount is computed (rounded up). */
export function priceExactOut(amountOut: bigint, source: CatalogueAsset, destination: CatalogueAsset, feeBps: number): Economics {
	const net = ceilDiv(amountOut * priceNanoUsd(destination.asset) * pow10(source.decimals), priceNanoUsd(source.asset) * pow10(destination.decimals));
	const amountIn = ceilDiv(net * BPS, BPS - BigInt(feeBps));
	const feeAmount = amountIn - net;
	return { amountIn, estimatedOut: amountOut, feeAmount, roundingFeeAmount: 0n, feeBps };
}

/** A fee's 20/80 split between the platform and the fee recipient (spec 2.10, §8). */
export function splitFee(gross: bigint): { platformCutAmount: bigint; recipientAmount: bigint } {
	const platformCutAmount = (gross * BigInt(PLATFORM_CUT_PERCENT)) / 100n;
	return { platformCutAmount, recipientAmount: gross - platformCutAmount };
}
