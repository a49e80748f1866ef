import {
	ProtocolError,
	isCompressedPublicKey,
	normalizeCompressedPublicKey,
	parsePrivateKey,
	publicKeyFromPrivateKey,
} from '../../../nodes/shared/gateway';
import { nodeCompressedPublicKey, SECP256K1_N } from './helpers';

const KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

function expectInputError(fn: () => unknown, reason: string, secret?: string): ProtocolError {
	let caught: unknown;
	try {
		fn();
	} catch (e) {
		caught = e;
	}
	expect(caught).toBeInstanceOf(ProtocolError);
	const err = caught as ProtocolError;
	expect(err.reason).toBe(reason);
	expect(err.field).toBe('privateKey');
	if (secret) expect(err.message).not.toContain(secret.slice(2, 12));
	return err;
}

describe('parsePrivateKey', () => {
	it('accepts 64 hex characters with or without 0x, any case, surrounding whitespace', () => {
		const expected = Buffer.from(KEY, 'hex');
		expect(Buffer.from(parsePrivateKey(KEY))).toEqual(expected);
		expect(Buffer.from(parsePrivateKey(`0x${KEY}`))).toEqual(expected);
		expect(Buffer.from(parsePrivateKey(`0X${KEY.toUpperCase()}`))).toEqual(expected);
		expect(Buffer.from(parsePrivateKey(`  ${KEY}\n`))).toEqual(expected);
	});

	it('accepts the extremes 1 and n-1', () => {
		expect(parsePrivateKey('0'.repeat(63) + '1')).toHaveLength(32);
		expect(parsePrivateKey((SECP256K1_N - 1n).toString(16))).toHaveLength(32);
	});

	it('rejects empty input', () => {
		expectInputError(() => parsePrivateKey(''), 'empty');
		expectInputError(() => parsePrivateKey('0x'), 'empty');
	});

	it('rejects non-hex characters without echoing the key', () => {
		const bad = `${KEY.slice(0, 60)}zzzz`;
		const err = expectInputError(() => parsePrivateKey(bad), 'invalid_hex', bad);
		expect(err.message).toMatch(/hex digits/);
	});

	it('rejects wrong lengths, naming the length but not the key', () => {
		const short = KEY.slice(0, 62);
		const err = expectInputError(() => parsePrivateKey(short), 'wrong_length', short);
		expect(err.message).toContain('got 62 characters');
		expectInputError(() => parsePrivateKey(`${KEY}00`), 'wrong_length', KEY);
	});

	it('rejects 0, n and values above n', () => {
		expectInputError(() => parsePrivateKey('0'.repeat(64)), 'out_of_range');
		expectInputError(() => parsePrivateKey(SECP256K1_N.toString(16)), 'out_of_range');
		expectInputError(() => parsePrivateKey('f'.repeat(64)), 'out_of_range', 'f'.repeat(64));
	});

	it('rejects non-strings', () => {
		expectInputError(() => parsePrivateKey(42 as unknown as string), 'not_a_string');
	});
});

describe('publicKeyFromPrivateKey', () => {
	it('matches OpenSSL for several keys, compressed lowercase without 0x', () => {
		for (const k of [KEY, '0'.repeat(63) + '1', (SECP256K1_N - 1n).toString(16), '11'.repeat(32)]) {
			const pub = publicKeyFromPrivateKey(k);
			expect(pub).toBe(nodeCompressedPublicKey(k));
			expect(pub).toMatch(/^0[23][0-9a-f]{64}$/);
		}
	});

	it('accepts bytes as well as hex', () => {
		expect(publicKeyFromPrivateKey(Buffer.from(KEY, 'hex'))).toBe(nodeCompressedPublicKey(KEY));
	});

	it('rejects invalid bytes', () => {
		expect(() => publicKeyFromPrivateKey(new Uint8Array(32))).toThrow(ProtocolError);
	});
});

describe('isCompressedPublicKey', () => {
	const pub = nodeCompressedPublicKey(KEY);
	it('accepts a real compressed point in either case', () => {
		expect(isCompressedPublicKey(pub)).toBe(true);
		expect(isCompressedPublicKey(pub.toUpperCase())).toBe(true);
	});
	it('rejects prefixes, lengths, uncompressed keys and x values off the curve', () => {
		expect(isCompressedPublicKey(`0x${pub}`)).toBe(false);
		expect(isCompressedPublicKey(`04${pub.slice(2)}`)).toBe(false);
		expect(isCompressedPublicKey(pub.slice(0, 64))).toBe(false);
		expect(isCompressedPublicKey(`02${'0'.repeat(64)}`)).toBe(false);
		// x = 5 has no y on secp256k1 (5^3 + 7 = 132 is not a square mod p).
		expect(isCompressedPublicKey(`02${'0'.repeat(63)}5`)).toBe(false);
		expect(isCompressedPublicKey(undefined)).toBe(false);
	});
	it('normalizes to lowercase or throws a field error', () => {
		expect(normalizeCompressedPublicKey(pub.toUpperCase())).toBe(pub);
		expect(() => normalizeCompressedPublicKey('02abc')).toThrow(/33-byte compressed/);
	});
});
