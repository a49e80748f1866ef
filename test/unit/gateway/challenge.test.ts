/** §5 challenge signing refuses text that could be an intent (issue 14 point 1), and nothing else. */
import { ProtocolError } from '../../../nodes/shared/errors';
import { challengeTextOf } from '../../../nodes/shared/gateway/responses';
import { signChallenge, unsafeChallengeReason, verifyChallengeSignature } from '../../../nodes/shared/gateway/keys';
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
	])('signs %s as is (no invented format rule)', (_name, text) => {
		const sig = signChallenge(text, KEY);
		expect(verifyChallengeSignature(sig, text, publicKeyFromPrivateKey(KEY))).toBe(true);
	});

	it('takes challengeString, else challenge, like the public client', () => {
		expect(challengeTextOf({ challenge: 'c', challengeString: 's' })).toBe('s');
		expect(challengeTextOf({ challenge: 'c' })).toBe('c');
		expect(challengeTextOf({ challenge: 'c', challengeString: '' })).toBe('c');
		expect(challengeTextOf({ challengeString: 42 })).toBeUndefined();
		expect(challengeTextOf(null)).toBeUndefined();
	});
});
