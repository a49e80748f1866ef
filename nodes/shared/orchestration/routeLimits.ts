/**
 * A route's amount bounds from `GET /v1/orchestration/limits` (public-notes: `{generatedAt, routes[]}`;
 * per route the third-party client's `limits.exactIn|exactOut.requestAmount {minAmountSmallest,
 * maxAmountSmallest}`, older answers a flat `minAmount`/`maxAmount` of the source): read leniently,
 * so an amount the service would refuse (amount_too_small / amount_too_large) is named first. Pure.
 */
import { smallestUnitToDecimal } from './amounts';
import { normalizeAssetInput } from './enums';

export interface RouteBounds {
	min?: string;
	max?: string;
	/** The side the amount counts in, as `chain:asset`, and its decimals when the answer gives them. */
	asset: string;
	decimals?: number;
}

export interface RouteRequest {
	sourceChain: string;
	sourceAsset: string;
	destinationChain: string;
	destinationAsset: string;
	amountMode?: string;
}

const DIGITS = /^[0-9]{1,78}$/;
const amountText = (v: unknown) =>
	typeof v === 'string' && DIGITS.test(v)
		? v
		: typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
			? String(v)
			: undefined;
const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);
const sameAsset = (a: unknown, b: string) =>
	typeof a === 'string' && normalizeAssetInput(a) === normalizeAssetInput(b);

/** The bounds of one route in one amount mode, or undefined when the answer does not show them. */
export function routeBoundsOf(body: unknown, route: RouteRequest): RouteBounds | undefined {
	const routes =
		isObject(body) && Array.isArray(body.routes) ? body.routes : Array.isArray(body) ? body : [];
	const entry = routes.find(
		(r): r is Record<string, unknown> =>
			isObject(r) &&
			r.sourceChain === route.sourceChain &&
			sameAsset(r.sourceAsset, route.sourceAsset) &&
			r.destinationChain === route.destinationChain &&
			sameAsset(r.destinationAsset, route.destinationAsset),
	);
	if (entry === undefined) return undefined;
	const exactOut = route.amountMode === 'exact_out';
	const side = exactOut
		? { chain: route.destinationChain, asset: route.destinationAsset }
		: { chain: route.sourceChain, asset: route.sourceAsset };
	const mode = isObject(entry.limits) ? entry.limits[exactOut ? 'exactOut' : 'exactIn'] : undefined;
	const request = isObject(mode) && isObject(mode.requestAmount) ? mode.requestAmount : undefined;
	if (request !== undefined) {
		const decimals =
			typeof request.decimals === 'number'
				? request.decimals
				: isObject(entry[exactOut ? 'destination' : 'source'])
					? (entry[exactOut ? 'destination' : 'source'] as Record<string, unknown>).decimals
					: undefined;
		return {
			min: amountText(request.minAmountSmallest),
			max: amountText(request.maxAmountSmallest),
			asset: `${side.chain}:${side.asset}`,
			decimals: typeof decimals === 'number' ? decimals : undefined,
		};
	}
	if (exactOut) return undefined;
	return {
		min: amountText(entry.minAmount),
		max: amountText(entry.maxAmount),
		asset: `${side.chain}:${side.asset}`,
		decimals: typeof entry.decimals === 'number' ? entry.decimals : undefined,
	};
}

function shown(amount: string, bounds: RouteBounds): string {
	return bounds.decimals === undefined
		? `${amount} (smallest units of ${bounds.asset})`
		: `${smallestUnitToDecimal(amount, bounds.decimals)} ${bounds.asset}`;
}

/** The route's bounds in words: "from 1 to 100000 base:USDC (Route > Get Limits)". */
export function describeBounds(bounds: RouteBounds): string {
	const min = bounds.min === undefined ? undefined : shown(bounds.min, bounds);
	const max = bounds.max === undefined ? undefined : shown(bounds.max, bounds);
	const range =
		min && max
			? `from ${min} to ${max}`
			: min
				? `at least ${min}`
				: max
					? `at most ${max}`
					: 'no bounds shown';
	return `This route takes ${range} (Route > Get Limits).`;
}

/** Why an amount (smallest units) is outside the bounds, with the service's code for it; undefined inside. */
export function outsideBounds(
	amount: string,
	bounds: RouteBounds,
): { code: 'amount_too_small' | 'amount_too_large'; message: string } | undefined {
	if (!DIGITS.test(amount)) return undefined;
	if (bounds.min !== undefined && BigInt(amount) < BigInt(bounds.min))
		return {
			code: 'amount_too_small',
			message: `${shown(amount, bounds)} is below the route's minimum of ${shown(bounds.min, bounds)}`,
		};
	if (bounds.max !== undefined && BigInt(amount) > BigInt(bounds.max))
		return {
			code: 'amount_too_large',
			message: `${shown(amount, bounds)} is above the route's maximum of ${shown(bounds.max, bounds)}`,
		};
	return undefined;
}
