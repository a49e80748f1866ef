/**
 * Issue 14 point 6: checks that see outside input are linear and capped before any pattern runs.
 * Each worst case (100 KB and 1 MB, as a parameter and as a service response field) must finish in
 * well under 50 ms; the former quadratic patterns took 9 to 36 s on 100 KB.
 */
import { amountInputText, assertAmountText, decimalToSmallestUnit, isValidAssetInput, normalizeStatusResponse, OfframpRequestSchema, OnrampRequestSchema, smallestUnitToDecimal } from '../../../nodes/shared/orchestration';
import { withFormattedAmounts } from '../../../nodes/shared/orchestration/amounts';

const BOUND_MS = 50;
const SIZES = [100_000, 1_000_000];

/** Worst-case shapes for the old patterns: long runs that fail at the very end. */
function adversarial(n: number): Record<string, string> {
	return {
		digitsThenX: `${'1'.repeat(n)}x`,
		zerosThenOne: `${'0'.repeat(n)}1`,
		digitsThenE: `${'1'.repeat(n)}e`,
		dotted: `1.${'0'.repeat(n)}1`,
	};
}

/** Milliseconds one call of `fn` takes (its exceptions are expected and ignored). */
function once(fn: () => unknown): number {
	const started = performance.now();
	try {
		fn();
	} catch {
		// refusing is the expected outcome; only the time matters here
	}
	return performance.now() - started;
}

/**
 * The fastest of 3 calls: a garbage collection or a busy CI machine can stretch any one call, but
 * not a scan's own cost, which every call pays (the old patterns took seconds each time).
 */
function timed(fn: () => unknown): number {
	return Math.min(once(fn), once(fn), once(fn));
}

describe.each(SIZES)('%i-character inputs', (n) => {
	const cases = Object.entries(adversarial(n));

	it.each(cases)('as a parameter (%s): amount checks in both formats', (_shape, value) => {
		for (const format of ['smallestUnit', 'decimal'] as const) {
			expect(timed(() => assertAmountText(amountInputText(value, format), format))).toBeLessThan(BOUND_MS);
			expect(timed(() => assertAmountText(value, format))).toBeLessThan(BOUND_MS);
		}
		expect(timed(() => decimalToSmallestUnit(value, 18))).toBeLessThan(BOUND_MS);
	});

	it.each(cases)('as a response field (%s): status view and formatted amounts (the sandbox\'s answer schemas: test/sandbox/responses.test.ts)', (_shape, value) => {
		expect(timed(() => normalizeStatusResponse({ order: { id: 'o', status: value, amountIn: value }, stages: [] }))).toBeLessThan(BOUND_MS);
		expect(timed(() => smallestUnitToDecimal(value, 6))).toBeLessThan(BOUND_MS);
		expect(timed(() => withFormattedAmounts({ amountIn: value }, { amountIn: 6 }))).toBeLessThan(BOUND_MS);
	});

	it('other request fields: offramp recipient, onramp USD, asset routing keys', () => {
		const long = 'a'.repeat(n);
		const offramp = { sourceChain: 'base', sourceAsset: 'USDC', amount: '1' };
		expect(timed(() => OfframpRequestSchema.safeParse({ ...offramp, recipientAddress: `$${long}!` }))).toBeLessThan(BOUND_MS);
		expect(timed(() => OfframpRequestSchema.safeParse({ ...offramp, recipientAddress: `${long}@${'a.'.repeat(n / 2)}!` }))).toBeLessThan(BOUND_MS);
		const onramp = { destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: 'x' };
		expect(timed(() => OnrampRequestSchema.safeParse({ ...onramp, amountFiatUsd: `${'1'.repeat(n)}.001` }))).toBeLessThan(BOUND_MS);
		expect(timed(() => isValidAssetInput(`base:${long} `))).toBeLessThan(BOUND_MS);
	});
});

it('long amounts are refused by their length, not by a scan', () => {
	expect(() => assertAmountText('1'.repeat(101), 'smallestUnit')).toThrow('is 101 characters long; at most 100 are allowed');
	expect(withFormattedAmounts({ amountIn: '1'.repeat(101) }, { amountIn: 6 })).toEqual({ amountIn: '1'.repeat(101) });
});
