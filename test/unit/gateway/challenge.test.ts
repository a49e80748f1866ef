/**
 * §5 challenge signing signs only what an authentication challenge can be (issues 14 and 20):
 * printable ASCII, tab, CR, LF; 1 to 1,024 characters; not a JSON object or array (JSON scalars are
 * signed). Anything else is refused with a reason and never signed.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { ProtocolError } from '../../../nodes/shared/errors';
import { challengeTextOf } from '../../../nodes/shared/gateway/responses';
import { MAX_CHALLENGE_LENGTH, sha256Bytes, signChallenge, signDigestDer, unsafeChallengeReason, verifyChallengeSignature } from '../../../nodes/shared/gateway/keys';
import { publicKeyFromPrivateKey } from '../../../nodes/shared/gateway/keys';

const KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
// Written from execution-gateway.md §2.4 by hand, not with the code under test.
const CANONICAL_INTENT =
	'{"chainId":1,"transfers":[{"transferId":"0123456789abcdef0123456789abcdef","amountSats":100000,"assetType":"NativeSats"}],"action":{"type":"deposit","recipient":"0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"},"nonce":"n1","expiresAt":1900000000000}';

describe('challenge signing', () => {
	it.each([
		['a canonical intent', CANONICAL_INTENT, /shape of a canonical intent/],
		['a canonical intent with whitespace around it', ` ${CANONICAL_INTENT}\n`, /shape of a canonical intent/],
		['any JSON object', '{"hello":"world"}', /JSON object/],
		['an empty JSON object', '{}', /JSON object/],
		['a JSON array', '[1,2,3]', /JSON array/],
		['a JSON object between tabs and newlines', '\t{"a":1}\r\n', /JSON object/],
		['empty text', '', /is empty/],
		['1,025 characters', 'a'.repeat(MAX_CHALLENGE_LENGTH + 1), /1025 characters, more than the 1024/],
		['a megabyte', 'nonce '.repeat(200_000), /1200000 characters/],
		['a NUL byte', 'login\u0000nonce', /U\+0000 at position 6/],
		['an escape sequence', '\u001b[31mlogin', /U\+001B at position 1/],
		['DEL', 'login\u007f', /U\+007F at position 6/],
		['a Latin-1 letter', 'café login', /U\+00E9 at position 4/],
		['an emoji', 'login 🔑', /U\+1F511 at position 7/],
		['a lone surrogate', 'login \ud800', /U\+D800 at position 7/],
		['binary-looking text (bytes read as Latin-1)', Buffer.from('8f00ff10a3c2', 'hex').toString('latin1'), /U\+008F at position 1/],
	])('refuses %s, before signing', (_name, text, reason) => {
		expect(unsafeChallengeReason(text)).toMatch(reason);
		expect(() => signChallenge(text, KEY)).toThrow(ProtocolError);
		expect(() => signChallenge(text, KEY)).toThrow(/Refusing to sign/);
	});

	it.each([
		['plain text', 'Sign in to the gateway\nnonce: 8f2c'],
		['hex', 'a3'.repeat(32)],
		['a JSON string', '"just a string"'],
		['a JSON number', '12345'],
		['JSON null', 'null'],
		['broken JSON that starts like an object', '{"chainId":1,'],
		['tab, CR and LF', 'login\tnonce\r\nissued 2030'],
		['every printable ASCII character', Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('')],
		['exactly 1,024 characters', 'n'.repeat(MAX_CHALLENGE_LENGTH)],
	])('signs %s as is', (_name, text) => {
		const sig = signChallenge(text, KEY);
		expect(verifyChallengeSignature(sig, text, publicKeyFromPrivateKey(KEY))).toBe(true);
	});

	it('refuses what is not a string at all', () => {
		expect(unsafeChallengeReason(42)).toBe('the challenge is not text');
		expect(unsafeChallengeReason(undefined)).toBe('the challenge is not text');
	});

	it('does not become a signer for another system: a valid-UTF-8 32-byte digest is refused', () => {
		// A 32-byte hash (for example a Bitcoin sighash's first SHA-256) whose bytes happen to be valid
		// UTF-8: signing SHA-256(text) would sign SHA-256(digest), which is what that system verifies.
		const digests = [
			Buffer.from('01c3a9'.padEnd(64, '41'), 'hex'), // a control byte and a 2-byte sequence
			Buffer.from('7e'.repeat(31) + '0a', 'hex').fill(0x1f, 10, 11), // ASCII only, but one control byte
			Buffer.from('e282ac'.repeat(10) + '4142', 'hex'), // 3-byte sequences (€)
		];
		for (const digest of digests) {
			expect(digest.length).toBe(32);
			const text = digest.toString('utf8');
			expect(Buffer.from(text, 'utf8').equals(digest)).toBe(true); // valid UTF-8: it round-trips
			expect(unsafeChallengeReason(text)).toMatch(/outside printable ASCII, tab, CR and LF/);
			expect(() => signChallenge(text, KEY)).toThrow(/Refusing to sign: the challenge has a character outside printable ASCII/);
		}
		// What signing it would have given away: a signature over the other system's double hash.
		const text = digests[0].toString('utf8');
		expect(Buffer.from(sha256Bytes(text)).equals(Buffer.from(sha256(digests[0])))).toBe(true);
		expect(signDigestDer(sha256(digests[0]), KEY)).toMatch(/^30/);
	});

	it('the reason never repeats the challenge text', () => {
		const secretish = `login\u0000${'s3cr3t'.repeat(10)}`;
		expect(unsafeChallengeReason(secretish)).not.toContain('s3cr3t');
		expect(unsafeChallengeReason(`${'s3cr3t'.repeat(200)}`)).not.toContain('s3cr3t');
	});

	it('takes challengeString, else challenge, like the public client', () => {
		expect(challengeTextOf({ challenge: 'c', challengeString: 's' })).toBe('s');
		expect(challengeTextOf({ challenge: 'c' })).toBe('c');
		expect(challengeTextOf({ challenge: 'c', challengeString: '' })).toBe('c');
		expect(challengeTextOf({ challengeString: 42 })).toBeUndefined();
		expect(challengeTextOf(null)).toBeUndefined();
	});
});
