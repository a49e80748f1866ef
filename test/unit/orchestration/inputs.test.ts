import fc from 'fast-check';
import {
	AmountError,
	amountInputText,
	assertAmountText,
	canonicalOrderStatus,
	decimalToSmallestUnit,
	integerInput,
	isFinalOrderStatus,
	checkedMembers,
	mergeAdditionalFields,
	normalizeStatusResponse,
	pathSegment,
	ProtocolError,
	QuoteDraftSchema,
	submitIdempotencyKey,
	textInput,
} from '../../../nodes/shared/orchestration';

function failure(f: () => unknown): { reason?: string; message: string } {
	try {
		f();
	} catch (error) {
		expect(error).toBeInstanceOf(ProtocolError);
		return { reason: (error as ProtocolError).reason, message: (error as Error).message };
	}
	throw new Error('expected a ProtocolError');
}

describe('amountInputText', () => {
	it('keeps strings exactly (trimmed) and turns safe integers into their digits', () => {
		expect(amountInputText(' 1234567890123456789 ', 'smallestUnit')).toBe('1234567890123456789');
		expect(amountInputText(9007199254740991, 'smallestUnit')).toBe('9007199254740991');
		expect(amountInputText(0, 'decimal')).toBe('0');
		expect(amountInputText(-0, 'smallestUnit')).toBe('0');
		expect(amountInputText(12n ** 30n, 'smallestUnit')).toBe((12n ** 30n).toString());
		expect(amountInputText(undefined, 'decimal')).toBe('');
	});

	it.each([
		[9007199254740992, 'smallestUnit', 'unsafe_number'],
		// eslint-disable-next-line no-loss-of-precision -- the point: this literal is already rounded
		[1234567890123456789, 'decimal', 'unsafe_number'],
		[1.5, 'smallestUnit', 'not_integer'],
		[0.1 + 0.2, 'decimal', 'unsafe_number'],
		[1e-7, 'decimal', 'unsafe_number'],
		[Number.NaN, 'decimal', 'type'],
		[Number.POSITIVE_INFINITY, 'smallestUnit', 'type'],
		[-1, 'smallestUnit', 'sign'],
		[true, 'decimal', 'type'],
		[{ amount: '1' }, 'decimal', 'type'],
		[['1'], 'smallestUnit', 'type'],
		['1'.repeat(101), 'smallestUnit', 'too_long'],
	])('refuses %p (%s) with reason %s', (value, format, reason) => {
		expect(failure(() => amountInputText(value, format as 'decimal')).reason).toBe(reason);
	});

	it('says how to pass an inexact number: as a string', () => {
		// eslint-disable-next-line no-loss-of-precision -- the point: this literal is already rounded
		expect(failure(() => amountInputText(1234567890123456789, 'smallestUnit')).message).toBe(
			'1234567890123456800 is a JS number above 9007199254740991 (2^53 - 1), so its last digits are already lost; ' +
				'pass it as a string of digits instead, e.g. "1234567890123456789" (in an expression: quotes around it, or the source field as text)',
		);
	});

	it('property: every safe integer gives its exact digits', () => {
		fc.assert(
			fc.property(fc.maxSafeNat(), (n) => {
				expect(BigInt(amountInputText(n, 'smallestUnit'))).toBe(BigInt(n));
			}),
		);
	});

	it('property: a decimal of at most 15 significant digits typed as a number keeps its exact value', () => {
		const decimal = fc
			.tuple(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), fc.integer({ min: 0, max: 6 }))
			.map(([digits, scale]) => {
				const text = digits.toString().padStart(scale + 1, '0');
				return scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
			});
		fc.assert(
			fc.property(decimal, (text) => {
				const exact = amountInputText(Number(text), 'decimal');
				expect(decimalToSmallestUnit(exact, 18)).toBe(decimalToSmallestUnit(text, 18));
			}),
		);
	});

	it('property: a number is accepted only when its text converts to the same value it holds', () => {
		fc.assert(
			fc.property(fc.double({ min: 0, max: 1e20, noNaN: true }), (n) => {
				let text: string;
				try {
					text = amountInputText(n, 'decimal');
				} catch (error) {
					expect(error).toBeInstanceOf(AmountError);
					return;
				}
				expect(Number(text)).toBe(n);
				expect(text).not.toMatch(/e/i);
			}),
		);
	});
});

describe('assertAmountText', () => {
	it('accepts digits for smallest units and plain decimals for Decimal', () => {
		expect(() => assertAmountText('1500000', 'smallestUnit')).not.toThrow();
		expect(() => assertAmountText('1.123456789012345678901', 'decimal')).not.toThrow();
	});

	it.each([
		['', 'smallestUnit', 'blank'],
		['1.5', 'smallestUnit', 'not_integer'],
		['1e5', 'decimal', 'exponent'],
		['1,5', 'decimal', 'non_digit'],
		['.5', 'decimal', 'incomplete'],
	])('refuses %p (%s): %s', (text, format, reason) => {
		expect(failure(() => assertAmountText(text, format as 'decimal')).reason).toBe(reason);
	});
});

describe('integerInput', () => {
	it('takes safe integers and digit text; undefined when empty', () => {
		expect(integerInput(50)).toBe(50);
		expect(integerInput(' 75 ')).toBe(75);
		expect(integerInput('')).toBeUndefined();
		expect(integerInput(undefined)).toBeUndefined();
	});

	it.each([12.7, '12.7', '1e2', '0x10', '-1', 2 ** 60, '1'.repeat(17), true, {}, [1]])('refuses %p', (value) => {
		expect(() => integerInput(value)).toThrow(ProtocolError);
	});

	it('checks a range when given', () => {
		expect(failure(() => integerInput(1001, 0, 1000)).message).toBe('1001 is out of range; it must be from 0 to 1000');
	});
});

describe('textInput', () => {
	it('takes strings (trimmed) and safe integers', () => {
		expect(textInput('  q_1 ')).toBe('q_1');
		expect(textInput(12345)).toBe('12345');
		expect(textInput(null)).toBe('');
	});

	it.each([
		[{ id: 1 }, 'an object'],
		[['a'], 'an array'],
		[true, 'a boolean'],
		[1.5, 'the number 1.5, which is not exact as text'],
		[2 ** 60, 'the number 1152921504606847000, which is not exact as text'],
	])('refuses %p', (value, what) => {
		expect(failure(() => textInput(value)).message).toBe(`must be text, got ${what}; pass a string (an expression must resolve to text)`);
	});
});

describe('mergeAdditionalFields', () => {
	it('adds members the operation does not set', () => {
		expect(mergeAdditionalFields({ quoteId: 'q' }, { note: 'x' })).toEqual({ quoteId: 'q', note: 'x' });
	});

	it('refuses members the operation set, naming every one', () => {
		expect(failure(() => mergeAdditionalFields({ quoteId: 'q', amount: '1' }, { amount: '2', quoteId: 'r', extra: 1 }))).toEqual({
			reason: 'additional_field_collision',
			message:
				'sets "amount", "quoteId", which this operation already sets from its own parameters; change the parameter instead (additional fields may only add members the node does not set)',
		});
	});

	it('refuses an address-like member the operation does not check, at any depth; checked ones pass', () => {
		const quoteChecks = checkedMembers(QuoteDraftSchema);
		expect(quoteChecks).toEqual(expect.arrayContaining(['refundAddress', 'appFees', 'recipientAddress']));
		expect(mergeAdditionalFields({ quoteId: 'q' }, { refundAddress: 'r', appFees: [{ recipient: 'x', fee: 5 }] }, [], quoteChecks)).toMatchObject({ refundAddress: 'r' });
		for (const extra of [{ payoutAddress: '0x1' }, { destination: { chain: 'base' } }, { meta: [{ beneficiaryWallet: 'w' }] }]) {
			expect(failure(() => mergeAdditionalFields({ quoteId: 'q' }, extra, [], quoteChecks)).reason).toBe('unchecked_address_field');
		}
		expect(failure(() => mergeAdditionalFields({}, { meta: [{ beneficiaryWallet: 'w' }] })).message).toMatch(/^sets "meta\[0\]\.beneficiaryWallet", which may say where funds go/);
	});
});

describe('pathSegment', () => {
	it('encodes reserved characters into one segment', () => {
		expect(pathSegment('a?b#c d%')).toBe('a%3Fb%23c%20d%25');
		expect(pathSegment('acc_1')).toBe('acc_1');
		expect(pathSegment('..x')).toBe('..x');
	});

	it.each([
		['.', 'dot_segment'],
		['..', 'dot_segment'],
		['..;', 'dot_segment'],
		['..;jsessionid=1', 'dot_segment'],
		['.;x', 'dot_segment'],
		['', 'blank'],
		['customer/42', 'path_separator'],
		['a/../b', 'path_separator'],
		['a\\b', 'path_separator'],
		['ref\u0000', 'control_character'],
		['ref\nx', 'control_character'],
		['ref\u007f', 'control_character'],
		['%00', 'percent_encoded'],
		['%2e%2e', 'percent_encoded'],
		['a%2Fb', 'percent_encoded'],
	])('refuses %p (%s)', (value, reason) => {
		expect(failure(() => pathSegment(value)).reason).toBe(reason);
	});
});

describe('submitIdempotencyKey', () => {
	it('depends on the quote and the deposit reference only', () => {
		const base = { quoteId: 'q_1', txHash: '0xab' };
		const key = submitIdempotencyKey(base);
		expect(key).toMatch(/^n8n-submit-[0-9a-f]{64}$/);
		expect(submitIdempotencyKey({ ...base, sourceAddress: '0x1', extra: true })).toBe(key);
		expect(submitIdempotencyKey({ ...base, txHash: '0xcd' })).not.toBe(key);
		expect(submitIdempotencyKey({ ...base, quoteId: 'q_2' })).not.toBe(key);
		const btc = { quoteId: 'q_1', bitcoinTxid: 'ff' };
		expect(submitIdempotencyKey({ ...btc, bitcoinVout: 0 })).not.toBe(submitIdempotencyKey({ ...btc, bitcoinVout: 1 }));
	});
});

describe('order statuses', () => {
	it('are compared case-insensitively and output in the spec spelling; unknown ones pass as received', () => {
		expect(canonicalOrderStatus('COMPLETED')).toBe('completed');
		expect(canonicalOrderStatus('Awaiting_Approval')).toBe('awaiting_approval');
		expect(canonicalOrderStatus('Superseded')).toBe('Superseded');
		expect(isFinalOrderStatus('REFUNDED')).toBe(true);
		expect(isFinalOrderStatus('expired')).toBe(true);
		expect(isFinalOrderStatus('processing')).toBe(false);
		expect(isFinalOrderStatus('Superseded')).toBe(false);
		// an unconfirmed or replaced deposit can still resume (public-notes): never final, in any case
		expect(isFinalOrderStatus('unfulfilled')).toBe(false);
		expect(isFinalOrderStatus('UNFULFILLED')).toBe(false);
	});

	it('a status answer without stages is valid, nested or flat', () => {
		const nested = normalizeStatusResponse({ order: { id: 'o', status: 'FAILED' } });
		expect(nested).toMatchObject({ id: 'o', status: 'failed', stages: [], stageDetails: [], isFinal: true });
		const flat = normalizeStatusResponse({ id: 'o', status: 'swapping' });
		expect(flat).toMatchObject({ status: 'swapping', stages: [], isFinal: false });
	});
});
