import {
	compactToDer,
	derToCompact,
	ProtocolError,
	publicKeyFromPrivateKey,
	sha256Bytes,
	sha256Hex,
	signChallenge,
	signDigestDer,
	verifyChallengeSignature,
	verifyDerSignature,
} from '../../../nodes/shared/gateway';
import { nodeSha256Hex, nodeSignSha256Der, nodeVerifySha256Der, SECP256K1_N } from './helpers';

const KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const PUB = publicKeyFromPrivateKey(KEY);
const HALF_N = SECP256K1_N >> 1n;

function compactParts(der: string): { r: bigint; s: bigint } {
	const compact = derToCompact(der);
	return { r: BigInt(`0x${compact.slice(0, 64)}`), s: BigInt(`0x${compact.slice(64)}`) };
}

function minimalHex(x: bigint): string {
	let hex = x.toString(16);
	if (hex.length % 2) hex = `0${hex}`;
	return parseInt(hex[0], 16) >= 8 ? `00${hex}` : hex;
}

function derInt(hex: string): string {
	return `02${(hex.length / 2).toString(16).padStart(2, '0')}${hex}`;
}

function compactOf(r: bigint, s: bigint): string {
	return r.toString(16).padStart(64, '0') + s.toString(16).padStart(64, '0');
}

describe('sha256', () => {
	it('matches the FIPS 180-2 "abc" vector and the empty string', () => {
		expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
		expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
	});
	it('matches node:crypto on UTF-8 text and bytes', () => {
		for (const s of ['héllo ✓ 🚀', 'a'.repeat(1000), '{"chainId":1}']) {
			expect(sha256Hex(s)).toBe(nodeSha256Hex(Buffer.from(s, 'utf8')));
		}
		const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
		expect(sha256Hex(bytes)).toBe(nodeSha256Hex(bytes));
	});
});

describe('signDigestDer / verifyDerSignature', () => {
	const digest = sha256Bytes('message to sign');

	it('produces low-S DER that OpenSSL verifies', () => {
		const der = signDigestDer(digest, KEY);
		expect(der).toMatch(/^30[0-9a-f]+$/);
		expect(compactParts(der).s <= HALF_N).toBe(true);
		expect(nodeVerifySha256Der('message to sign', der, PUB)).toBe(true);
		expect(verifyDerSignature(der, digest, PUB)).toBe(true);
	});

	it('is deterministic (RFC 6979)', () => {
		expect(signDigestDer(digest, KEY)).toBe(signDigestDer(digest, KEY));
	});

	it('verifies low-S OpenSSL signatures and rejects their high-S twins', () => {
		for (let i = 0; i < 12; i++) {
			const msg = `openssl message ${i}`;
			const der = nodeSignSha256Der(msg, KEY);
			const { r, s } = compactParts(der);
			const low = s <= HALF_N ? s : SECP256K1_N - s;
			const lowDer = compactToDer(compactOf(r, low));
			const highDer = compactToDer(compactOf(r, SECP256K1_N - low));
			expect(verifyDerSignature(lowDer, sha256Bytes(msg), PUB)).toBe(true);
			expect(nodeVerifySha256Der(msg, highDer, PUB)).toBe(true);
			expect(verifyDerSignature(highDer, sha256Bytes(msg), PUB)).toBe(false);
		}
	});

	it('rejects a signature made over another digest or by another key', () => {
		const der = signDigestDer(digest, KEY);
		expect(verifyDerSignature(der, sha256Bytes('other'), PUB)).toBe(false);
		expect(verifyDerSignature(der, digest, publicKeyFromPrivateKey('11'.repeat(32)))).toBe(false);
	});

	it('rejects malformed and non-canonical DER without throwing', () => {
		const der = signDigestDer(digest, KEY);
		const { r, s } = compactParts(der);
		const body = derInt(`00${minimalHex(r)}`) + derInt(minimalHex(s));
		const nonCanonical = `30${(body.length / 2).toString(16).padStart(2, '0')}${body}`;
		const longFormLength = `3081${der.slice(2)}`;
		const cases = [
			'',
			'zz',
			der.slice(0, -2),
			`${der}00`,
			`31${der.slice(2)}`,
			'3006020101020101'.replace('0101020101', '0100020101'),
			nonCanonical,
			longFormLength,
			'30' + '00'.repeat(70),
		];
		for (const c of cases) expect(verifyDerSignature(c, digest, PUB)).toBe(false);
		expect(verifyDerSignature(der, digest.slice(0, 31), PUB)).toBe(false);
		expect(verifyDerSignature(der, digest, 'nothex')).toBe(false);
		expect(verifyDerSignature(der, digest, `04${PUB.slice(2)}`)).toBe(false);
		expect(verifyDerSignature(undefined as unknown as string, digest, PUB)).toBe(false);
	});

	it('rejects digests that are not 32 bytes when signing', () => {
		expect(() => signDigestDer(new Uint8Array(31), KEY)).toThrow(ProtocolError);
	});
});

describe('challenge signatures (spec §5)', () => {
	const challengeString = 'Sign in to the execution gateway\nnonce: 6f1c2a\nissued: 2026-01-01T00:00:00Z';

	it('signs SHA-256 of the UTF-8 challenge string, checked by OpenSSL', () => {
		const sig = signChallenge(challengeString, KEY);
		expect(nodeVerifySha256Der(Buffer.from(challengeString, 'utf8'), sig, PUB)).toBe(true);
		expect(verifyChallengeSignature(sig, challengeString, PUB)).toBe(true);
		expect(verifyChallengeSignature(sig, `${challengeString} `, PUB)).toBe(false);
	});

	it('accepts a challenge signature OpenSSL made (normalized to low S)', () => {
		const der = nodeSignSha256Der(challengeString, KEY);
		const { r, s } = compactParts(der);
		const lowDer = compactToDer(compactOf(r, s <= HALF_N ? s : SECP256K1_N - s));
		expect(verifyChallengeSignature(lowDer, challengeString, PUB)).toBe(true);
	});
});

describe('derToCompact / compactToDer', () => {
	it('round-trips many signatures', () => {
		for (let i = 0; i < 20; i++) {
			const der = signDigestDer(sha256Bytes(`m${i}`), KEY);
			const compact = derToCompact(der);
			expect(compact).toHaveLength(128);
			expect(compactToDer(compact)).toBe(der);
			expect(derToCompact(compactToDer(compact))).toBe(compact);
		}
	});

	it('encodes small r and s minimally', () => {
		expect(compactToDer(compactOf(1n, 2n))).toBe('3006020101020102');
		expect(compactToDer(compactOf(0x80n, 1n))).toBe('3007020200800201' + '01');
	});

	it('throws ProtocolError on malformed input', () => {
		expect(() => derToCompact('zz')).toThrow(ProtocolError);
		expect(() => derToCompact('3006020101')).toThrow(ProtocolError);
		expect(() => compactToDer('00'.repeat(63))).toThrow(ProtocolError);
		expect(() => compactToDer(compactOf(0n, 1n))).toThrow(ProtocolError);
		expect(() => compactToDer(compactOf(SECP256K1_N, 1n))).toThrow(ProtocolError);
	});
});
