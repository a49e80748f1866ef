/** A route's bounds read leniently from the limits listing (public-notes), and an amount outside them. */
import { describeBounds, outsideBounds, routeBoundsOf } from '../../../nodes/shared/orchestration/routeLimits';

const route = { sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'bitcoin', destinationAsset: 'BTC' };
const third = {
	...route,
	source: { decimals: 6 },
	limits: {
		exactIn: { requestAmount: { minAmountSmallest: '1000000', maxAmountSmallest: '1000000000000' } },
		exactOut: { requestAmount: { minAmountSmallest: '1000', maxAmountSmallest: '1000000000', decimals: 8 } },
	},
};

describe('routeBoundsOf', () => {
	it('reads the third-party client\'s limits block by amount mode', () => {
		expect(routeBoundsOf({ routes: [third] }, route)).toEqual({ min: '1000000', max: '1000000000000', asset: 'base:USDC', decimals: 6 });
		expect(routeBoundsOf({ routes: [third] }, { ...route, amountMode: 'exact_out' })).toEqual({ min: '1000', max: '1000000000', asset: 'bitcoin:BTC', decimals: 8 });
	});

	it('falls back to the flat source bounds of older answers; nothing for another route or an unknown shape', () => {
		expect(routeBoundsOf({ routes: [{ ...route, minAmount: '5', maxAmount: 99, decimals: 2 }] }, route)).toEqual({ min: '5', max: '99', asset: 'base:USDC', decimals: 2 });
		expect(routeBoundsOf({ routes: [third] }, { ...route, destinationAsset: 'ETH' })).toBeUndefined();
		expect(routeBoundsOf('nonsense', route)).toBeUndefined();
		expect(routeBoundsOf({ routes: [{ ...route, minAmount: '5' }] }, { ...route, amountMode: 'exact_out' })).toBeUndefined();
	});

	it('names an amount outside the bounds with the service\'s code', () => {
		const bounds = { min: '1000000', max: '2000000', asset: 'base:USDC', decimals: 6 };
		expect(outsideBounds('999999', bounds)).toEqual({ code: 'amount_too_small', message: "0.999999 base:USDC is below the route's minimum of 1 base:USDC" });
		expect(outsideBounds('2000001', bounds)?.code).toBe('amount_too_large');
		expect(outsideBounds('1500000', bounds)).toBeUndefined();
		expect(describeBounds({ min: '7', asset: 'x:Y' })).toBe('This route takes at least 7 (smallest units of x:Y) (Route > Get Limits).');
	});
});
