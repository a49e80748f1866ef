/**
 * Issue 14 point 6: checks that see outside input are linear and capped before any pattern runs.
 * For each worst case (100 KB and 1 MB, as a parameter and as a service response field) no regular
 * expression scans more than the 100 characters an amount may have; the former quadratic patterns
 * scanned the whole text (9 to 36 s on 100 KB). The time these checks take is reported by
 * `npm run bench -- bounds`, not asserted here.
 */
import { amountInputText, assertAmountText, decimalToSmallestUnit, isValidAssetInput, normalizeStatusResponse, OfframpRequestSchema, OnrampRequestSchema, smallestUnitToDecimal } from '../../../nodes/shared/orchestration';
import { withFormattedAmounts } from '../../../nodes/shared/orchestration/amounts';
import { longestPatternInput } from '../../harness/patternInputs';

/** The longest text a pattern may scan: an amount's cap. */
const CAP = 100;
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

it('sees every pattern run (precondition: a long scan shows)', () => {
	expect(longestPatternInput(() => /^[0-9]+$/.test('1'.repeat(5000)))).toBe(5000);
	expect(longestPatternInput(() => '1'.repeat(300).replace(/1/g, '2'))).toBe(300);
});

describe.each(SIZES)('%i-character inputs', (n) => {
	const cases = Object.entries(adversarial(n));

	it.each(cases)('as a parameter (%s): amount checks in both formats', (_shape, value) => {
		for (const format of ['smallestUnit', 'decimal'] as const) {
			expect(longestPatternInput(() => assertAmountText(amountInputText(value, format), format))).toBeLessThanOrEqual(CAP);
			expect(longestPatternInput(() => assertAmountText(value, format))).toBeLessThanOrEqual(CAP);
		}
		expect(longestPatternInput(() => decimalToSmallestUnit(value, 18))).toBeLessThanOrEqual(CAP);
	});

	it.each(cases)('as a response field (%s): status view and formatted amounts (the sandbox\'s answer schemas: test/sandbox/responses.test.ts)', (_shape, value) => {
		expect(longestPatternInput(() => normalizeStatusResponse({ order: { id: 'o', status: value, amountIn: value }, stages: [] }))).toBeLessThanOrEqual(CAP);
		expect(longestPatternInput(() => smallestUnitToDecimal(value, 6))).toBeLessThanOrEqual(CAP);
		expect(longestPatternInput(() => withFormattedAmounts({ amountIn: value }, { amountIn: 6 }))).toBeLessThanOrEqual(CAP);
	});

	it('other request fields: offramp recipient, onramp USD, asset routing keys', () => {
		const long = 'a'.repeat(n);
		const offramp = { sourceChain: 'base', sourceAsset: 'USDC', amount: '1' };
		expect(longestPatternInput(() => OfframpRequestSchema.safeParse({ ...offramp, recipientAddress: `$${long}!` }))).toBeLessThanOrEqual(CAP);
		expect(longestPatternInput(() => OfframpRequestSchema.safeParse({ ...offramp, recipientAddress: `${long}@${'a.'.repeat(n / 2)}!` }))).toBeLessThanOrEqual(CAP);
		const onramp = { destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: 'x' };
		expect(longestPatternInput(() => OnrampRequestSchema.safeParse({ ...onramp, amountFiatUsd: `${'1'.repeat(n)}.001` }))).toBeLessThanOrEqual(CAP);
		expect(longestPatternInput(() => isValidAssetInput(`base:${long} `))).toBeLessThanOrEqual(CAP);
	});
});

it('long amounts are refused by their length, not by a scan', () => {
	expect(() => assertAmountText('1'.repeat(101), 'smallestUnit')).toThrow('is 101 characters long; at most 100 are allowed');
	expect(withFormattedAmounts({ amountIn: '1'.repeat(101) }, { amountIn: 6 })).toEqual({ amountIn: '1'.repeat(101) });
});
