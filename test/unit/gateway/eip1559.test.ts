import { createECDH } from 'node:crypto';

import {
	addressFromPublicKey,
	decodeSignedEip1559,
	Eip1559Error,
	keccak256Hex,
	publicKeyFromPrivateKey,
	rlpDecode,
	rlpEncode,
	signEip1559,
	toChecksumAddress,
	type RlpItem,
} from '../../../nodes/shared/gateway';
import { SECP256K1_N } from './helpers';

const hex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const ascii = (s: string) => Uint8Array.from(Buffer.from(s, 'ascii'));

/**
 * Ethereum mainnet transaction 0x0ec0b6a2df4d87424e5f6ad2a654e27aaeb7dac20ae9e8385cc09087ad532ee0
 * (https://etherscan.io/tx/0x0ec0b6a2df4d87424e5f6ad2a654e27aaeb7dac20ae9e8385cc09087ad532ee0),
 * used as the EIP-1559 recovery vector in paradigmxyz/reth
 * (crates/primitives/src/transaction/eip1559.rs, test `recover_signer_eip1559`): chain 1, nonce
 * 0x42, gas 44386, maxFee 0x4a817c800, tip 0x3b9aca00, setApprovalForAll calldata, signer
 * 0xdd6b8b3dc6b7ad97db52f08a275ff4483e024cea, r 0x840cfc57..., s 0x25e7109c..., yParity 0.
 */
const MAINNET_RAW =
	'0x02f8b00142843b9aca008504a817c80082ad62946069a6c32cf691f5982febae4faf8a6f3ab2f0f680b844a22cb465' +
	'0000000000000000000000005eee75727d804a2b13038928d36f8b188945a57a' +
	'0000000000000000000000000000000000000000000000000000000000000000c080' +
	'a0840cfc572845f5786e702984c2a582528cad4b49b2a10b9db1be7fca90058565' +
	'a025e7109ceb98168d95b09b18bbf6b685130e0562f233877d492b94eee0c5b6d1';
const MAINNET_HASH = '0x0ec0b6a2df4d87424e5f6ad2a654e27aaeb7dac20ae9e8385cc09087ad532ee0';
const MAINNET_SIGNER = '0xdd6b8b3dc6b7ad97db52f08a275ff4483e024cea';

function mainnetFields(): RlpItem[] {
	return rlpDecode(hex(MAINNET_RAW).subarray(1)) as RlpItem[];
}

function typed(fields: RlpItem[]): string {
	return `0x02${toHex(rlpEncode(fields))}`;
}

function expectReason(raw: string, reason: string): void {
	let caught: unknown;
	try {
		decodeSignedEip1559(raw);
	} catch (e) {
		caught = e;
	}
	expect(caught).toBeInstanceOf(Eip1559Error);
	expect((caught as Eip1559Error).reason).toBe(reason);
}

describe('RLP (micro-eth-signer, through the adapter)', () => {
	// Vectors from the Ethereum wiki's RLP page / yellow paper appendix B.
	const vectors: Array<[RlpItem, string]> = [
		[ascii('dog'), '83646f67'],
		[[ascii('cat'), ascii('dog')], 'c88363617483646f67'],
		[new Uint8Array(0), '80'],
		[[], 'c0'],
		[Uint8Array.of(0x00), '00'],
		[Uint8Array.of(0x0f), '0f'],
		[Uint8Array.of(0x04, 0x00), '820400'],
		[[[], [[]], [[], [[]]]], 'c7c0c1c0c3c0c1c0'],
		[
			ascii('Lorem ipsum dolor sit amet, consectetur adipisicing elit'),
			'b838' + Buffer.from('Lorem ipsum dolor sit amet, consectetur adipisicing elit').toString('hex'),
		],
	];

	it.each(vectors)('encodes and decodes vector %#', (item, encoded) => {
		expect(toHex(rlpEncode(item))).toBe(encoded);
		expect(rlpDecode(hex(encoded))).toEqual(item);
	});

	it('round-trips a long list (long-form list header)', () => {
		const item: RlpItem = Array.from({ length: 40 }, (_, i) => Uint8Array.of(i + 0x80, i));
		const encoded = rlpEncode(item);
		expect(encoded[0]).toBe(0xf8);
		expect(rlpDecode(encoded)).toEqual(item);
	});

	it.each([
		['8105', 'single byte below 0x80 wrapped'],
		['b80100', 'long form for a short string'],
		['b90000', 'length with a leading zero'],
		['83646f', 'truncated string'],
		['8000', 'trailing bytes'],
		['c3836466', 'list item overruns the list'],
		['', 'empty input'],
	])('rejects %s (%s)', (encoded) => {
		expect(() => rlpDecode(hex(encoded))).toThrow(/RLP/);
	});
});

describe('decodeSignedEip1559: known mainnet transaction', () => {
	const tx = decodeSignedEip1559(MAINNET_RAW);

	it('computes the known hash and recovers the known signer', () => {
		expect(tx.hash).toBe(MAINNET_HASH);
		expect(keccak256Hex(hex(MAINNET_RAW))).toBe(MAINNET_HASH);
		expect(tx.from).toBe(MAINNET_SIGNER);
		expect(tx.fromChecksum).toBe('0xDD6B8b3dC6B7AD97db52F08a275FF4483e024CEa');
		// Signature hash from alloy/reth's vector table for the same transaction.
		expect(tx.signingHash).toBe('0x0d5688ac3897124635b6cf1bc0e29d6dfebceebdc10a54d74f2ef8b56535b682');
	});

	it('decodes every field', () => {
		expect(tx).toMatchObject({
			type: 2,
			chainId: 1n,
			nonce: 0x42n,
			maxPriorityFeePerGas: 0x3b9aca00n,
			maxFeePerGas: 0x4a817c800n,
			gasLimit: 44386n,
			to: '0x6069a6c32cf691f5982febae4faf8a6f3ab2f0f6',
			value: 0n,
			data: '0xa22cb4650000000000000000000000005eee75727d804a2b13038928d36f8b188945a57a0000000000000000000000000000000000000000000000000000000000000000',
			accessList: [],
			yParity: 0,
			r: '0x840cfc572845f5786e702984c2a582528cad4b49b2a10b9db1be7fca90058565',
			s: '0x25e7109ceb98168d95b09b18bbf6b685130e0562f233877d492b94eee0c5b6d1',
			raw: MAINNET_RAW,
		});
	});

	it('accepts the hex without 0x and in upper case', () => {
		expect(decodeSignedEip1559(MAINNET_RAW.slice(2).toUpperCase()).hash).toBe(MAINNET_HASH);
	});

	it('recovers a different signer when a signed field is altered', () => {
		const fields = mainnetFields();
		fields[1] = Uint8Array.of(0x43);
		expect(decodeSignedEip1559(typed(fields)).from).not.toBe(MAINNET_SIGNER);
	});
});

describe('signEip1559 against ethereumjs fixtures', () => {
	/**
	 * ethereumjs-monorepo packages/tx/test/json/eip1559.json: deterministic (RFC 6979) signatures by
	 * key 8f2a5594... (the well-known dev account 0xfe3b557e8fb62b89f4916b721be55ceb828dbd73) on
	 * chain 0x1e8e, to 0x...aaaa. `signedTransactionRLP` there is wrapped in an RLP string header
	 * (b87x), stripped here. Both y parities are covered.
	 */
	const FIXTURE_KEY = '8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63';
	const FIXTURE_SENDER = '0xfe3b557e8fb62b89f4916b721be55ceb828dbd73';
	const fixtures = [
		{ nonce: 819, value: 43203529, gasLimit: 35552, tip: 75853, maxFee: 121212, parity: 0,
			raw: '02f870821e8e8203338301284d8301d97c828ae094000000000000000000000000000000000000aaaa8402933bc980c080a0d067f2167008c59219652f91cbf8788dbca5f771f6e91e2b7657e85b78b472e0a01d305af9fe81fdba43f0dfcd400ed24dcace0a7e30d4e85701dcaaf484cd079e' },
		{ nonce: 353, value: 61901619, gasLimit: 32593, tip: 38850, maxFee: 136295, parity: 1,
			raw: '02f86f821e8e8201618297c283021467827f5194000000000000000000000000000000000000aaaa8403b08b3380c001a004205678f13fc1d7b10feea6513dfa76e24418b6e08097d95c6f93a3b64e536da01d45ad61bfece43862de2cce7d2575a8c1d08c26c87f3cb5f26d7b0be54a91b2' },
		{ nonce: 119, value: 65456115, gasLimit: 62341, tip: 24721, maxFee: 107729, parity: 1,
			raw: '02f86d821e8e778260918301a4d182f38594000000000000000000000000000000000000aaaa8403e6c7f380c001a0e38e239770801eb995498c821e55ac9c19ae09184bb27b34be105e02fe3b7615a067c64ca6bd6d9107e85fd581ab2e70a14b637eb36505bb40861ef9d6e800cab6' },
	];

	it.each(fixtures)('reproduces nonce $nonce byte for byte and recovers the sender', (f) => {
		const raw = signEip1559(
			{ chainId: 0x1e8e, nonce: f.nonce, value: f.value, gasLimit: f.gasLimit, maxPriorityFeePerGas: f.tip, maxFeePerGas: f.maxFee, to: '0x000000000000000000000000000000000000aaaa' },
			FIXTURE_KEY,
		);
		expect(raw).toBe(`0x${f.raw}`);
		const tx = decodeSignedEip1559(`0x${f.raw}`);
		expect(tx.from).toBe(FIXTURE_SENDER);
		expect(tx.yParity).toBe(f.parity);
		expect(tx).toMatchObject({ chainId: 0x1e8en, nonce: BigInt(f.nonce), value: BigInt(f.value), gasLimit: BigInt(f.gasLimit) });
	});

	it('round-trips an access list', () => {
		const accessList = [
			{ address: '0x0000000000000000000000000000000000000101', storageKeys: [`0x${'00'.repeat(32)}`, `0x${'00'.repeat(30)}60a7`] },
			{ address: `0x${'ab'.repeat(20)}`, storageKeys: [] },
		];
		const raw = signEip1559({ chainId: 1, nonce: 0, maxPriorityFeePerGas: 1, maxFeePerGas: 1, gasLimit: 0x02625a00, to: `0x${'cc'.repeat(20)}`, value: 0x0186a0, accessList }, FIXTURE_KEY);
		const tx = decodeSignedEip1559(raw);
		expect(tx.accessList).toEqual(accessList);
		expect(tx.from).toBe(FIXTURE_SENDER);
	});
});

describe('decodeSignedEip1559: rejections', () => {
	it('rejects non-hex and empty input', () => {
		expectReason('0x02zz', 'not_hex');
		expectReason('0x123', 'not_hex');
		expectReason('', 'empty');
		expectReason('0x', 'empty');
	});

	it('rejects other transaction types', () => {
		expectReason(`0x01${MAINNET_RAW.slice(4)}`, 'wrong_type');
		expectReason(`0x${MAINNET_RAW.slice(4)}`, 'wrong_type');
	});

	it('rejects bad RLP', () => {
		expectReason(MAINNET_RAW.slice(0, -2), 'bad_rlp');
		expectReason(`${MAINNET_RAW}00`, 'bad_rlp');
		expectReason('0x0283', 'bad_rlp');
		expectReason(`0x02${toHex(rlpEncode(hex('abcd')))}`, 'bad_rlp');
	});

	it('rejects unsigned (9 fields) and other field counts', () => {
		const fields = mainnetFields();
		expectReason(typed(fields.slice(0, 9)), 'wrong_field_count');
		expectReason(typed([...fields, hex('')]), 'wrong_field_count');
		expect(() => decodeSignedEip1559(typed(fields.slice(0, 9)))).toThrow(/unsigned/);
	});

	it('rejects high S (n - s with the other parity)', () => {
		const fields = mainnetFields();
		const s = BigInt(`0x${toHex(fields[11] as Uint8Array)}`);
		fields[11] = hex((SECP256K1_N - s).toString(16).padStart(64, '0'));
		fields[9] = hex('01');
		expectReason(typed(fields), 'high_s');
	});

	it('rejects r or s of zero or at least n', () => {
		const zeroR = mainnetFields();
		zeroR[10] = hex('');
		expectReason(typed(zeroR), 'invalid_signature');
		const bigS = mainnetFields();
		bigS[11] = hex(SECP256K1_N.toString(16));
		expectReason(typed(bigS), 'invalid_signature');
	});

	it('rejects yParity other than 0 or 1', () => {
		for (const v of ['02', '1b', '0001']) {
			const fields = mainnetFields();
			fields[9] = hex(v);
			expectReason(typed(fields), v === '0001' ? 'invalid_y_parity' : 'invalid_y_parity');
		}
	});

	it('rejects non-canonical integers and malformed addresses', () => {
		const leadingZero = mainnetFields();
		leadingZero[1] = hex('0042');
		expectReason(typed(leadingZero), 'bad_field');
		const shortTo = mainnetFields();
		shortTo[5] = hex('6069a6c32cf691f5982febae4faf8a6f3ab2f0');
		expectReason(typed(shortTo), 'bad_field');
		const listData = mainnetFields();
		listData[7] = [];
		expectReason(typed(listData), 'bad_field');
	});

	it('rejects what EIP-1559 and EIP-2681 make invalid: a tip above maxFee, a nonce of 2^64 - 1', () => {
		const tipAboveMax = mainnetFields();
		tipAboveMax[2] = hex('ffffffffff');
		expectReason(typed(tipAboveMax), 'bad_field');
		expect(() => decodeSignedEip1559(typed(tipAboveMax))).toThrow(/maxPriorityFeePerGas/);
		const nonceMax = mainnetFields();
		nonceMax[1] = hex('ffffffffffffffff');
		expectReason(typed(nonceMax), 'bad_field');
	});

	it('rejects a list where a field is a byte string and an access list entry of the wrong shape', () => {
		const flatAccessList = mainnetFields();
		flatAccessList[8] = hex('01');
		expectReason(typed(flatAccessList), 'bad_field');
		const shortKey = mainnetFields();
		shortKey[8] = [[hex('00'.repeat(20)), [hex('00'.repeat(31))]]];
		expectReason(typed(shortKey), 'bad_field');
		const listYParity = mainnetFields();
		listYParity[9] = [];
		expectReason(typed(listYParity), 'invalid_y_parity');
	});

	it('rejects r that is not an x coordinate on the curve', () => {
		const fields = mainnetFields();
		fields[10] = hex('05');
		expectReason(typed(fields), 'invalid_signature');
	});
});

describe('signEip1559', () => {
	const KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

	it('produces a transaction that decodes and recovers the signing key address', () => {
		const raw = signEip1559(
			{
				chainId: 3637,
				nonce: 7,
				maxPriorityFeePerGas: 1_000_000_000n,
				maxFeePerGas: 30_000_000_000n,
				gasLimit: 100_000,
				to: '0x6069a6c32cf691f5982febae4faf8a6f3ab2f0f6',
				value: 10n ** 18n,
				data: '0xdeadbeef',
				accessList: [{ address: `0x${'11'.repeat(20)}`, storageKeys: [`0x${'22'.repeat(32)}`] }],
			},
			KEY,
		);
		const tx = decodeSignedEip1559(raw);
		// Address from OpenSSL's uncompressed public key: keccak of X || Y, last 20 bytes.
		const ecdh = createECDH('secp256k1');
		ecdh.setPrivateKey(Buffer.from(KEY, 'hex'));
		expect(tx.from).toBe(addressFromPublicKey(ecdh.getPublicKey()));
		expect(tx.from).toBe(addressFromPublicKey(publicKeyFromPrivateKey(KEY)));
		// Known address of this key (web3.js accounts documentation example key).
		expect(tx.fromChecksum).toBe('0x2c7536E3605D9C16a7a3D7b1898e529396a65c23');
		expect(tx).toMatchObject({ chainId: 3637n, nonce: 7n, value: 10n ** 18n, data: '0xdeadbeef', gasLimit: 100_000n });
		expect(tx.hash).toBe(keccak256Hex(hex(raw)));
		expect(BigInt(tx.s) <= SECP256K1_N >> 1n).toBe(true);
	});

	it('supports contract creation (no to) and zero values', () => {
		const tx = decodeSignedEip1559(
			signEip1559({ chainId: 1, nonce: 0, maxPriorityFeePerGas: 0, maxFeePerGas: 0, gasLimit: 21000, to: null }, KEY),
		);
		expect(tx.to).toBeNull();
		expect(tx.value).toBe(0n);
		expect(tx.data).toBe('0x');
	});

	it('rejects malformed inputs', () => {
		const base = { chainId: 1, nonce: 0, maxPriorityFeePerGas: 0, maxFeePerGas: 0, gasLimit: 21000 };
		expect(() => signEip1559({ ...base, to: '0x1234' }, KEY)).toThrow(Eip1559Error);
		expect(() => signEip1559({ ...base, nonce: -1 }, KEY)).toThrow(Eip1559Error);
		expect(() => signEip1559({ ...base, gasLimit: 1.5 }, KEY)).toThrow(Eip1559Error);
	});
});

describe('toChecksumAddress', () => {
	// Test vectors from EIP-55.
	it.each([
		'0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
		'0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
		'0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
		'0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
	])('%s', (address) => {
		expect(toChecksumAddress(address.toLowerCase())).toBe(address);
		expect(toChecksumAddress(address.toUpperCase().replace('0X', '0x'))).toBe(address);
	});

	it('rejects malformed addresses', () => {
		expect(() => toChecksumAddress('0x1234')).toThrow(Eip1559Error);
	});
});
