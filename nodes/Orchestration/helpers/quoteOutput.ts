/** Output of quote-like answers: the service's fields untouched plus readable additions. */
import type { IDataObject } from 'n8n-workflow';
import type { RouteAsset } from '../../shared/orchestration/schemas';
import { withFormattedAmounts } from './amounts';
import type { RoutesCatalogue } from './routes';

/** Fee parts of §2.2 and public-notes, all in `feeAsset`. */
const FEE_FIELDS = [
	'feeAmount',
	'roundingFeeAmount',
	'totalFeeAmount',
	'appFeeAmount',
	'appFeePlatformCutAmount',
	'sweepFeeAmount',
] as const;

export interface QuoteSides {
	catalogue?: RoutesCatalogue;
	source?: RouteAsset;
	destination?: RouteAsset;
}

function decimalsOf(symbol: unknown, sides: QuoteSides): number | undefined {
	if (typeof symbol !== 'string' || symbol === '') return undefined;
	for (const side of [sides.source, sides.destination]) {
		if (side && (side.asset === symbol || side.id === symbol || side.assetDisplaySymbol === symbol)) return side.decimals;
	}
	return sides.catalogue?.decimalsOfSymbol(symbol, [sides.source?.chain, sides.destination?.chain]);
}

/** `...Formatted` next to amountIn (source), estimatedOut and lockedMinAmountOut (destination) and each fee. */
export function formatQuoteAmounts(body: IDataObject, sides: QuoteSides): IDataObject {
	const feeDecimals = decimalsOf(body.feeAsset, sides);
	const decimals: Record<string, number | undefined> = {
		amountIn: sides.source?.decimals,
		estimatedOut: sides.destination?.decimals,
		lockedMinAmountOut: sides.destination?.decimals,
		networkCostAmount: decimalsOf(body.networkCostAsset, sides),
	};
	for (const f of FEE_FIELDS) decimals[f] = feeDecimals;
	return withFormattedAmounts(body, decimals);
}

/** Whole seconds until `expiresAt` (never negative), or undefined when it is not a timestamp. */
export function secondsUntil(expiresAt: unknown, nowMs = Date.now()): number | undefined {
	if (typeof expiresAt !== 'string') return undefined;
	const t = Date.parse(expiresAt);
	if (Number.isNaN(t)) return undefined;
	return Math.max(0, Math.floor((t - nowMs) / 1000));
}

/**
 * A quote for the next node: formatted amounts, `secondsUntilExpiry` (a quote is firm for 2 min,
 * §1) and `depositMemoRequired` (a memo or tag must go with the deposit when present, §2.2).
 */
export function quoteOutput(body: IDataObject, sides: QuoteSides, nowMs = Date.now()): IDataObject {
	const out = formatQuoteAmounts(body, sides);
	const seconds = secondsUntil(body.expiresAt, nowMs);
	if (seconds !== undefined) out.secondsUntilExpiry = seconds;
	if ('depositAddress' in body) {
		out.depositMemoRequired = typeof body.depositMemo === 'string' && body.depositMemo.trim() !== '';
	}
	return out;
}
