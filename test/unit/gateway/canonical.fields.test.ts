import {
	EXPIRES_AT_HORIZON_MS,
	ProtocolError,
	parseU64,
	validateChainId,
	validateExpiresAt,
	validateNonce,
	validateRecipient,
	validateTokenId,
	validateTransferId,
} from '../../../nodes/shared/gateway';

function rejection(fn: () => unknown): ProtocolError {
	try {
		fn();
	} catch (e) {
		expect(e).toBeInstanceOf(ProtocolError);
		return e as ProtocolError;
	}
	throw new Error('expected a ProtocolError');
}

describe('validateTransferId (spec §2.4)', () => {
	it('accepts 32 hex characters for BTC and 64 for tokens, either case', () => {
		expect(validateTransferId('0123456789abcdef0123456789ABCDEF', 'btc')).toBe('0123456789abcdef0123456789ABCDEF');
		expect(validateTransferId('ab'.repeat(32), 'token')).toBe('ab'.repeat(32));
	});
	it.each([
		['ab'.repeat(32), 'btc', 'wrong_length'],
		['ab'.repeat(16), 'token', 'wrong_length'],
		['ab'.repeat(15) + 'zz', 'btc', 'invalid_hex'],
		['0x' + 'ab'.repeat(15), 'btc', 'unexpected_prefix'],
		['0195f2a1-7c3b-7d10-9a2b-3c4d5e6f7a8b', 'btc', 'invalid_hex'],
		['', 'btc', 'wrong_length'],
	] as const)('rejects %s as %s (%s)', (id, type, reason) => {
		const err = rejection(() => validateTransferId(id, type));
		expect(err.reason).toBe(reason);
		expect(err.field).toBe('sparkTransferId');
	});
	it('rejects non-strings and uses the given field name', () => {
		const err = rejection(() => validateTransferId(12, 'btc', 'deposits[3].sparkTransferId'));
		expect(err).toMatchObject({ reason: 'invalid_type', field: 'deposits[3].sparkTransferId' });
		expect(err.message).toContain('deposits[3].sparkTransferId');
	});
});

describe('validateTokenId', () => {
	it('accepts 64 plain hex characters', () => {
		expect(validateTokenId('cd'.repeat(32))).toBe('cd'.repeat(32));
	});
	it.each([
		['0x' + 'cd'.repeat(32), 'unexpected_prefix'],
		['cd'.repeat(31), 'wrong_length'],
		['cd'.repeat(31) + 'zz', 'invalid_hex'],
	])('rejects %s (%s)', (id, reason) => {
		expect(rejection(() => validateTokenId(id))).toMatchObject({ reason, field: 'tokenId' });
	});
	it('rejects a missing token id', () => {
		expect(rejection(() => validateTokenId(undefined))).toMatchObject({ reason: 'invalid_type' });
	});
});

describe('validateRecipient', () => {
	it('accepts lowercase, uppercase and valid EIP-55 addresses', () => {
		for (const a of ['0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed']) {
			expect(validateRecipient(a)).toBe(a);
		}
	});
	it.each([
		['5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', 'invalid_address'],
		['0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea', 'invalid_address'],
		['0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaedaa', 'invalid_address'],
		['0xzaaeb6053f3e94c9b9a09f33669435e7ef1beaed', 'invalid_address'],
		['0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'bad_checksum'],
	])('rejects %s (%s)', (a, reason) => {
		expect(rejection(() => validateRecipient(a))).toMatchObject({ reason, field: 'recipient' });
	});
	it('rejects non-strings', () => {
		expect(rejection(() => validateRecipient(null))).toMatchObject({ reason: 'invalid_type' });
	});
});

describe('parseU64 (spec §8)', () => {
	it('accepts digits, safe numbers and bigints across the whole range', () => {
		expect(parseU64('0', 'amount')).toBe(0n);
		expect(parseU64('18446744073709551615', 'amount')).toBe(18446744073709551615n);
		expect(parseU64(18446744073709551615n, 'amount')).toBe(18446744073709551615n);
		expect(parseU64(9007199254740991, 'amount')).toBe(9007199254740991n);
		expect(parseU64('0007', 'amount')).toBe(7n);
	});
	it.each([
		['18446744073709551616', 'out_of_range'],
		['999999999999999999999', 'out_of_range'],
		['-1', 'not_digits'],
		['+1', 'not_digits'],
		['1.5', 'not_digits'],
		['1e3', 'not_digits'],
		[' 1', 'not_digits'],
		['0x10', 'not_digits'],
		['', 'empty'],
		[1.5, 'not_integer'],
		[-1, 'negative'],
		[Number.NaN, 'not_integer'],
		[Number.POSITIVE_INFINITY, 'not_integer'],
		[9007199254740992, 'unsafe_number'],
		[1e21, 'unsafe_number'],
		[-1n, 'negative'],
		[18446744073709551616n, 'out_of_range'],
	] as Array<[string | number | bigint, string]>)('rejects %p (%s)', (value, reason) => {
		expect(rejection(() => parseU64(value, 'deposits[0].amount'))).toMatchObject({ reason, field: 'deposits[0].amount' });
	});
	it('explains what is wrong', () => {
		expect(rejection(() => parseU64('1e3', 'amount')).message).toContain('exponent');
		expect(rejection(() => parseU64('1.5', 'amount')).message).toContain('decimal point');
		expect(rejection(() => parseU64('-1', 'amount')).message).toContain('sign');
		expect(rejection(() => parseU64(2 ** 60, 'amount')).message).toContain('as a string');
	});
	it('rejects other types', () => {
		expect(rejection(() => parseU64(null as never, 'amount'))).toMatchObject({ reason: 'invalid_type' });
		expect(rejection(() => parseU64({} as never, 'amount'))).toMatchObject({ reason: 'invalid_type' });
	});
});

describe('validateExpiresAt (spec §8)', () => {
	const now = 1_767_225_600_000;
	it('accepts a future time up to exactly 24 hours ahead', () => {
		expect(validateExpiresAt(now + 1, now)).toBe(now + 1);
		expect(validateExpiresAt(now + EXPIRES_AT_HORIZON_MS, now)).toBe(now + EXPIRES_AT_HORIZON_MS);
	});
	it('rejects the present and the past', () => {
		expect(rejection(() => validateExpiresAt(now, now))).toMatchObject({ reason: 'in_past', field: 'expiresAt' });
		expect(rejection(() => validateExpiresAt(now - 60_000, now))).toMatchObject({ reason: 'in_past' });
	});
	it('rejects more than 24 hours ahead', () => {
		expect(rejection(() => validateExpiresAt(now + EXPIRES_AT_HORIZON_MS + 1, now))).toMatchObject({ reason: 'too_far' });
	});
	it('rejects non-integers and seconds-looking garbage types', () => {
		expect(rejection(() => validateExpiresAt(now + 0.5, now))).toMatchObject({ reason: 'invalid_type' });
		expect(rejection(() => validateExpiresAt('1767225600000' as never, now))).toMatchObject({ reason: 'invalid_type' });
		expect(rejection(() => validateExpiresAt(Number.NaN, now))).toMatchObject({ reason: 'invalid_type' });
	});
});

describe('validateNonce / validateChainId', () => {
	it('accepts a non-empty nonce and a positive chain id', () => {
		expect(validateNonce('n-1')).toBe('n-1');
		expect(validateChainId(3637)).toBe(3637);
	});
	it('rejects empty, overlong and non-string nonces', () => {
		expect(rejection(() => validateNonce(''))).toMatchObject({ reason: 'empty' });
		expect(rejection(() => validateNonce('x'.repeat(257)))).toMatchObject({ reason: 'too_long' });
		expect(rejection(() => validateNonce(5))).toMatchObject({ reason: 'invalid_type' });
	});
	it('rejects zero, negative, fractional and string chain ids', () => {
		for (const c of [0, -1, 1.5, '3637']) expect(rejection(() => validateChainId(c))).toMatchObject({ field: 'chainId' });
	});
});
