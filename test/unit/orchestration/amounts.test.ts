import fc from 'fast-check';
import {
	AmountError,
	assertWholeCents,
	decimalToSmallestUnit,
	isWholeCents,
	ProtocolError,
	smallestUnitToDecimal,
	type AmountErrorReason,
} from '../../../nodes/shared/orchestration';

function reasonOf(f: () => unknown): { reason: AmountErrorReason; message: string; field?: string } {
	try {
		f();
	} catch (err) {
		expect(err).toBeInstanceOf(AmountError);
		expect(err).toBeInstanceOf(ProtocolError);
		const e = err as AmountError;
		return { reason: e.reason, message: e.message, field: e.field };
	}
	throw new Error('expected an AmountError');
}

// Reference canonical form built independently: strip leading zeros of the whole part and
// trailing zeros of the fraction.
function canonical(whole: string, fraction: string): string {
	const w = whole.replace(/^0+(?=\d)/, '');
	const f = fraction.replace(/0+$/, '');
	return f === '' ? w : `${w}.${f}`;
}

describe('decimalToSmallestUnit', () => {
	test.each([
		['1', 6, '1000000'],
		['1.5', 6, '1500000'],
		['0.000001', 6, '1'],
		['0', 6, '0'],
		['0.0', 6, '0'],
		['007.50', 2, '750'],
		['1.5000000', 6, '1500000'], // zeros beyond the precision keep the value exact
		['21000000', 8, '2100000000000000'],
		['123456789012345678901234567890.123456789012345678', 18, '123456789012345678901234567890123456789012345678'],
		['5', 0, '5'],
		['5.0', 0, '5'],
		['1', 30, `1${'0'.repeat(30)}`],
	])('%s with %d decimals -> %s', (value, decimals, expected) => {
		expect(decimalToSmallestUnit(value, decimals)).toBe(expected);
	});

	test('values beyond 2^53 stay exact', () => {
		expect(decimalToSmallestUnit('9007199254740993', 0)).toBe('9007199254740993');
		expect(decimalToSmallestUnit('9007199254.740993', 6)).toBe('9007199254740993');
	});

	test('blank', () => {
		expect(reasonOf(() => decimalToSmallestUnit('', 6)).reason).toBe('blank');
		expect(reasonOf(() => decimalToSmallestUnit('   ', 6)).reason).toBe('blank');
	});

	test('whitespace around the number is refused, not trimmed', () => {
		for (const v of [' 1', '1 ', '\t1', '1\n', '\u00a01']) {
			expect(reasonOf(() => decimalToSmallestUnit(v, 6)).reason).toBe('whitespace');
		}
	});

	test('sign', () => {
		expect(reasonOf(() => decimalToSmallestUnit('-1', 6))).toMatchObject({ reason: 'sign', message: expect.stringMatching(/sign/) });
		expect(reasonOf(() => decimalToSmallestUnit('+1', 6)).reason).toBe('sign');
	});

	test('exponent', () => {
		for (const v of ['1e5', '1E5', '1.5e-3', '2e+2', 'e5', '1e']) {
			const r = reasonOf(() => decimalToSmallestUnit(v, 6));
			expect(r.reason).toBe('exponent');
			expect(r.message).toMatch(/exponent/);
		}
	});

	test('non-digits', () => {
		for (const v of ['1,000', '1_000', '0x10', 'abc', 'NaN', 'Infinity', '1 000', '１', '1.5$', '.']) {
			const r = reasonOf(() => decimalToSmallestUnit(v, 6));
			expect([v, r.reason]).toEqual([v, v === '.' ? 'incomplete' : 'non_digit']);
		}
	});

	test('more than one dot', () => {
		const r = reasonOf(() => decimalToSmallestUnit('1.2.3', 6));
		expect(r.reason).toBe('multiple_dots');
		expect(r.message).toMatch(/more than one decimal point/);
	});

	test('".5" and "1." are refused as incomplete (documented choice)', () => {
		expect(reasonOf(() => decimalToSmallestUnit('.5', 6)).reason).toBe('incomplete');
		expect(reasonOf(() => decimalToSmallestUnit('1.', 6)).reason).toBe('incomplete');
	});

	test('excess precision names the asset and both counts', () => {
		const r = reasonOf(() => decimalToSmallestUnit('1.1234567', 6, 'USDC'));
		expect(r.reason).toBe('precision');
		expect(r.message).toContain('has 7 decimal places but USDC allows 6');
		expect(reasonOf(() => decimalToSmallestUnit('1.5', 0)).message).toContain('has 1 decimal place but the asset allows 0');
	});

	test('decimals out of range or not an integer', () => {
		for (const d of [-1, 31, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
			const r = reasonOf(() => decimalToSmallestUnit('1', d));
			expect(r).toMatchObject({ reason: 'decimals', field: 'decimals' });
			expect(r.message).toMatch(/0 to 30/);
		}
	});

	test('non-string input', () => {
		expect(reasonOf(() => decimalToSmallestUnit(1.5 as unknown as string, 6)).reason).toBe('type');
	});

	test('messages quote the input and cut long input', () => {
		const long = `${'9'.repeat(100)}x`;
		const r = reasonOf(() => decimalToSmallestUnit(long, 6));
		expect(r.message.length).toBeLessThan(160);
		expect(r.field).toBe('amount');
	});
});

describe('smallestUnitToDecimal', () => {
	test.each([
		['1500000', 6, '1.5'],
		['1', 6, '0.000001'],
		['0', 6, '0'],
		['000', 6, '0'],
		['1000000', 6, '1'],
		['100', 0, '100'],
		['12345', 2, '123.45'],
		['12340', 2, '123.4'],
		['2100000000000000', 8, '21000000'],
		['1', 30, `0.${'0'.repeat(29)}1`],
	])('%s with %d decimals -> %s', (value, decimals, expected) => {
		expect(smallestUnitToDecimal(value, decimals)).toBe(expected);
	});

	test('non-integer input is refused with a reason', () => {
		expect(reasonOf(() => smallestUnitToDecimal('1.5', 6)).reason).toBe('not_integer');
		expect(reasonOf(() => smallestUnitToDecimal('abc', 6)).reason).toBe('not_integer');
		expect(reasonOf(() => smallestUnitToDecimal('', 6)).reason).toBe('blank');
		expect(reasonOf(() => smallestUnitToDecimal('-1', 6)).reason).toBe('sign');
		expect(reasonOf(() => smallestUnitToDecimal('1e6', 6)).reason).toBe('exponent');
		expect(reasonOf(() => smallestUnitToDecimal(' 1', 6)).reason).toBe('whitespace');
		expect(reasonOf(() => smallestUnitToDecimal('1', 31)).reason).toBe('decimals');
	});
});

describe('round trips (property)', () => {
	test('smallest -> decimal -> smallest is the identity on canonical integers', () => {
		fc.assert(
			fc.property(fc.bigInt({ min: 0n, max: 10n ** 80n }), fc.integer({ min: 0, max: 30 }), (value, decimals) => {
				const text = value.toString();
				const human = smallestUnitToDecimal(text, decimals);
				expect(human).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/);
				expect(decimalToSmallestUnit(human, decimals)).toBe(text);
				// The value is value / 10^decimals, checked with bigint arithmetic.
				const [whole, fraction = ''] = human.split('.');
				expect(BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')).toBe(value);
			}),
		);
	});

	test('decimal -> smallest -> decimal gives the canonical form', () => {
		const digits = (min: number, max: number) =>
			fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((a) => a.join(''));
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 30 }).chain((decimals) =>
					fc.tuple(fc.constant(decimals), digits(1, 40), digits(0, decimals)),
				),
				([decimals, whole, fraction]) => {
					const input = fraction === '' ? whole : `${whole}.${fraction}`;
					const smallest = decimalToSmallestUnit(input, decimals);
					expect(smallest).toMatch(/^(0|[1-9][0-9]*)$/);
					expect(smallestUnitToDecimal(smallest, decimals)).toBe(canonical(whole, fraction));
				},
			),
		);
	});

	test('one significant digit too many is always a precision error', () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 29 }), fc.integer({ min: 1, max: 9 }), (decimals, last) => {
				const input = `0.${'0'.repeat(decimals)}${last}`;
				expect(reasonOf(() => decimalToSmallestUnit(input, decimals)).reason).toBe('precision');
			}),
		);
	});
});

describe('whole cents (spec 4.1: stablecoin exact_out amounts)', () => {
	test('examples', () => {
		expect(isWholeCents('1230000', 6)).toBe(true);
		expect(isWholeCents('1234567', 6)).toBe(false);
		expect(isWholeCents('10000', 6)).toBe(true);
		expect(isWholeCents('9999', 6)).toBe(false);
		expect(isWholeCents('0', 6)).toBe(true);
		expect(isWholeCents('1', 2)).toBe(true);
		expect(isWholeCents('1', 1)).toBe(true);
		expect(isWholeCents('1', 0)).toBe(true);
		expect(isWholeCents(`1${'0'.repeat(16)}`, 18)).toBe(true);
		expect(isWholeCents(`1${'0'.repeat(15)}`, 18)).toBe(false);
	});

	test('property: x is whole cents iff 10^(decimals-2) divides it', () => {
		fc.assert(
			fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.integer({ min: 0, max: 30 }), (x, decimals) => {
				const step = decimals < 2 ? 1n : 10n ** BigInt(decimals - 2);
				expect(isWholeCents(x.toString(), decimals)).toBe(x % step === 0n);
				expect(isWholeCents((x * step).toString(), decimals)).toBe(true);
			}),
		);
	});

	test('assertWholeCents passes whole cents and explains the rest', () => {
		expect(() => assertWholeCents('1230000', 6, 'USDC')).not.toThrow();
		const r = reasonOf(() => assertWholeCents('1234567', 6, 'USDC'));
		expect(r.reason).toBe('not_whole_cents');
		expect(r.message).toContain('1.234567 USDC');
		expect(r.message).toContain('whole');
		expect(r.message).toContain('1230000 or 1240000');
	});

	test('invalid inputs are AmountErrors too', () => {
		expect(reasonOf(() => isWholeCents('1.5', 6)).reason).toBe('not_integer');
		expect(reasonOf(() => isWholeCents('1', -1)).reason).toBe('decimals');
		expect(reasonOf(() => assertWholeCents('', 6)).reason).toBe('blank');
	});
});
