import {
	buildCanonicalIntent,
	ProtocolError,
	intentDigest,
	parseJsonPreservingBigInts,
	publicKeyFromPrivateKey,
	serializeCanonicalIntent,
	serializeWireIntent,
	signIntent,
	verifyDerSignature,
	verifyIntentSignature,
	type WireIntent,
} from '../../../nodes/shared/gateway';
import { nodeSha256Hex, nodeVerifySha256Der } from './helpers';

const KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const PUB = publicKeyFromPrivateKey(KEY);

/** Mainnet EIP-1559 transaction 0x0ec0b6a2... (see eip1559.test.ts for its provenance). */
const MAINNET_RAW =
	'0x02f8b00142843b9aca008504a817c80082ad62946069a6c32cf691f5982febae4faf8a6f3ab2f0f680b844a22cb465' +
	'0000000000000000000000005eee75727d804a2b13038928d36f8b188945a57a' +
	'0000000000000000000000000000000000000000000000000000000000000000c080' +
	'a0840cfc572845f5786e702984c2a582528cad4b49b2a10b9db1be7fca90058565' +
	'a025e7109ceb98168d95b09b18bbf6b685130e0562f233877d492b94eee0c5b6d1';

const DEPOSIT_INTENT: WireIntent = {
	chainId: 3637,
	deposits: [
		{ sparkTransferId: '0123456789abcdef0123456789abcdef', asset: { type: 'btc' }, amount: '150000' },
		{
			sparkTransferId: 'abababababababababababababababababababababababababababababababab',
			asset: { type: 'token', tokenId: 'cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd' },
			amount: 18446744073709551615n,
		},
	],
	recipient: '0x52908400098527886E0F7030069857D2E4169EE7',
	nonce: 'nonce-1',
	expiresAt: 1767225600000,
};

/** §2.4 written by hand: field order chainId, transfers, action, nonce, expiresAt; no whitespace. */
const DEPOSIT_CANONICAL =
	'{"chainId":3637,"transfers":[' +
	'{"transferId":"0123456789abcdef0123456789abcdef","amountSats":150000,"assetType":"NativeSats"},' +
	'{"transferId":"abababababababababababababababababababababababababababababababab","amountSats":18446744073709551615,"assetType":"SparkToken","tokenId":"cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"}' +
	'],"action":{"type":"deposit","recipient":"0x52908400098527886E0F7030069857D2E4169EE7"},' +
	'"nonce":"nonce-1","expiresAt":1767225600000}';

const EXECUTE_INTENT: WireIntent = {
	chainId: 1,
	deposits: [{ sparkTransferId: 'ffffffffffffffffffffffffffffffff', asset: { type: 'btc' }, amount: 9007199254740993n }],
	evmTransaction: MAINNET_RAW,
	nonce: '42',
	expiresAt: 1700000000000,
};

const EXECUTE_CANONICAL =
	'{"chainId":1,"transfers":[{"transferId":"ffffffffffffffffffffffffffffffff","amountSats":9007199254740993,"assetType":"NativeSats"}],' +
	'"action":{"type":"execute","signedTxHash":"0x0ec0b6a2df4d87424e5f6ad2a654e27aaeb7dac20ae9e8385cc09087ad532ee0"},' +
	'"nonce":"42","expiresAt":1700000000000}';

describe('canonical intent message (spec §2.4)', () => {
	it('maps the wire intent onto the canonical structure', () => {
		expect(buildCanonicalIntent(DEPOSIT_INTENT)).toEqual({
			chainId: 3637,
			transfers: [
				{ transferId: '0123456789abcdef0123456789abcdef', amountSats: 150000n, assetType: 'NativeSats' },
				{
					transferId: 'ab'.repeat(32),
					amountSats: 18446744073709551615n,
					assetType: 'SparkToken',
					tokenId: 'cd'.repeat(32),
				},
			],
			action: { type: 'deposit', recipient: '0x52908400098527886E0F7030069857D2E4169EE7' },
			nonce: 'nonce-1',
			expiresAt: 1767225600000,
		});
	});

	it('serializes the deposit golden message byte for byte, u64 max as exact digits', () => {
		const text = serializeCanonicalIntent(buildCanonicalIntent(DEPOSIT_INTENT));
		expect(text).toBe(DEPOSIT_CANONICAL);
		expect(text).toContain('"amountSats":18446744073709551615,');
	});

	it('serializes the execute golden message with keccak256 of the signed transaction', () => {
		expect(serializeCanonicalIntent(buildCanonicalIntent(EXECUTE_INTENT))).toBe(EXECUTE_CANONICAL);
	});

	it('serializes an empty deposit list', () => {
		const msg = buildCanonicalIntent({ ...DEPOSIT_INTENT, deposits: [] });
		expect(serializeCanonicalIntent(msg)).toBe(
			'{"chainId":3637,"transfers":[],"action":{"type":"deposit","recipient":"0x52908400098527886E0F7030069857D2E4169EE7"},"nonce":"nonce-1","expiresAt":1767225600000}',
		);
	});

	it('escapes nonce strings like JSON and keeps non-ASCII as UTF-8', () => {
		const msg = buildCanonicalIntent({ ...DEPOSIT_INTENT, deposits: [], nonce: 'a"b\\c\né✓' });
		expect(serializeCanonicalIntent(msg)).toContain('"nonce":"a\\"b\\\\c\\né✓"');
	});

	it('digest is SHA-256 of the UTF-8 text (node:crypto)', () => {
		const digest = intentDigest(buildCanonicalIntent(DEPOSIT_INTENT));
		expect(Buffer.from(digest).toString('hex')).toBe(nodeSha256Hex(Buffer.from(DEPOSIT_CANONICAL, 'utf8')));
	});
});

describe('signIntent', () => {
	it('returns the canonical text, its digest and a DER signature OpenSSL verifies', () => {
		const signed = signIntent(DEPOSIT_INTENT, KEY);
		expect(signed.canonical).toBe(DEPOSIT_CANONICAL);
		expect(signed.digestHex).toBe(nodeSha256Hex(DEPOSIT_CANONICAL));
		expect(nodeVerifySha256Der(Buffer.from(DEPOSIT_CANONICAL, 'utf8'), signed.signature, PUB)).toBe(true);
		expect(verifyDerSignature(signed.signature, Buffer.from(signed.digestHex, 'hex'), PUB)).toBe(true);
	});

	it('verifies only against the same wire fields', () => {
		const { signature } = signIntent(EXECUTE_INTENT, KEY);
		expect(nodeVerifySha256Der(EXECUTE_CANONICAL, signature, PUB)).toBe(true);
		expect(verifyIntentSignature(EXECUTE_INTENT, signature, PUB)).toBe(true);
		expect(verifyIntentSignature({ ...EXECUTE_INTENT, nonce: '43' }, signature, PUB)).toBe(false);
		expect(verifyIntentSignature({ ...EXECUTE_INTENT, expiresAt: 1700000000001 }, signature, PUB)).toBe(false);
		const otherAmount = { ...EXECUTE_INTENT, deposits: [{ ...EXECUTE_INTENT.deposits[0], amount: 9007199254740992n }] };
		expect(verifyIntentSignature(otherAmount, signature, PUB)).toBe(false);
	});
});

describe('buildCanonicalIntent rejections', () => {
	const cases: Array<[string, Partial<WireIntent> & Record<string, unknown>, string]> = [
		['both actions', { evmTransaction: MAINNET_RAW }, 'action'],
		['no action', { recipient: undefined }, 'action'],
		['bad recipient', { recipient: '0x1234' }, 'recipient'],
		['bad transfer id length', { deposits: [{ sparkTransferId: 'ab', asset: { type: 'btc' }, amount: '1' }] }, 'deposits[0].sparkTransferId'],
		['btc id used for token', { deposits: [{ sparkTransferId: 'ab'.repeat(16), asset: { type: 'token', tokenId: 'cd'.repeat(32) }, amount: '1' }] }, 'deposits[0].sparkTransferId'],
		['bad token id', { deposits: [{ sparkTransferId: 'ab'.repeat(32), asset: { type: 'token', tokenId: '0x' + 'cd'.repeat(32) }, amount: '1' }] }, 'deposits[0].asset.tokenId'],
		['unknown asset', { deposits: [{ sparkTransferId: 'ab'.repeat(16), asset: { type: 'eth' } as never, amount: '1' }] }, 'deposits[0].asset.type'],
		['amount above u64', { deposits: [{ sparkTransferId: 'ab'.repeat(16), asset: { type: 'btc' }, amount: '18446744073709551616' }] }, 'deposits[0].amount'],
		['float chainId', { chainId: 1.5 }, 'chainId'],
		['empty nonce', { nonce: '' }, 'nonce'],
		['non-integer expiresAt', { expiresAt: 1.5 }, 'expiresAt'],
		['deposits not an array', { deposits: {} as never }, 'deposits'],
	];
	it.each(cases)('%s', (_name, patch, field) => {
		let caught: unknown;
		try {
			buildCanonicalIntent({ ...DEPOSIT_INTENT, ...patch } as WireIntent);
		} catch (e) {
			caught = e;
		}
		expect(caught).toBeInstanceOf(ProtocolError);
		expect((caught as ProtocolError).field).toBe(field);
	});

	it('rejects an unsigned evmTransaction with the decoder reason', () => {
		const unsigned = '0x02' + 'c9' + '01' + '80'.repeat(8);
		expect(() => buildCanonicalIntent({ ...DEPOSIT_INTENT, recipient: undefined, evmTransaction: unsigned })).toThrow(
			expect.objectContaining({ field: 'evmTransaction', reason: 'wrong_field_count' }),
		);
	});
});

describe('wire body (spec §2.1)', () => {
	it('serializes POST /api/v1/execute with exact integer amounts in the spec order', () => {
		const body = serializeWireIntent({ ...DEPOSIT_INTENT, signature: '3006020101020101' });
		expect(body).toBe(
			'{"chainId":3637,"deposits":[' +
				'{"sparkTransferId":"0123456789abcdef0123456789abcdef","asset":{"type":"btc"},"amount":150000},' +
				'{"sparkTransferId":"abababababababababababababababababababababababababababababababab","asset":{"type":"token","tokenId":"cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"},"amount":18446744073709551615}' +
				'],"recipient":"0x52908400098527886E0F7030069857D2E4169EE7","signature":"3006020101020101","nonce":"nonce-1","expiresAt":1767225600000}',
		);
	});

	it('writes evmTransaction instead of recipient for execute intents', () => {
		const body = serializeWireIntent({ ...EXECUTE_INTENT, signature: 'aa' });
		expect(body).toContain(`"evmTransaction":"${MAINNET_RAW}","signature":"aa"`);
		expect(body).not.toContain('recipient');
	});

	it('parses back exactly with parseJsonPreservingBigInts', () => {
		const body = serializeWireIntent({ ...DEPOSIT_INTENT, signature: 'aa' });
		const parsed = parseJsonPreservingBigInts(body) as { deposits: Array<{ amount: unknown }>; expiresAt: unknown };
		expect(parsed.deposits[0].amount).toBe(150000);
		expect(parsed.deposits[1].amount).toBe(18446744073709551615n);
		expect(parsed.expiresAt).toBe(1767225600000);
		// Plain JSON.parse loses the amount: the reason the helper exists.
		expect(String((JSON.parse(body) as { deposits: Array<{ amount: number }> }).deposits[1].amount)).not.toBe('18446744073709551615');
	});
});

describe('parseJsonPreservingBigInts', () => {
	it('keeps integers beyond 2^53 exact and leaves others alone', () => {
		expect(
			parseJsonPreservingBigInts(
				'{"a":9007199254740991,"b":9007199254740993,"c":-9007199254740993,"d":[18446744073709551616],"e":1.5,"f":1e21,"g":"12","h":null}',
			),
		).toEqual({
			a: 9007199254740991,
			b: 9007199254740993n,
			c: -9007199254740993n,
			d: [18446744073709551616n],
			e: 1.5,
			f: 1e21,
			g: '12',
			h: null,
		});
	});

	it('optionally returns fraction and exponent literals as their source text', () => {
		expect(parseJsonPreservingBigInts('{"a":1e3,"b":1.0,"c":-2.5E-3,"d":7,"e":18446744073709551615}', { nonIntegerLiteralsAsSource: true })).toEqual({
			a: '1e3',
			b: '1.0',
			c: '-2.5E-3',
			d: 7,
			e: 18446744073709551615n,
		});
	});

	it('throws on invalid JSON like JSON.parse', () => {
		expect(() => parseJsonPreservingBigInts('{"a":')).toThrow(SyntaxError);
	});
});
