/**
 * A payment link carries only what the item shows: it is built from a deposit address that is valid
 * for its chain (decoded with its codec and checksum), and every query parameter is the package's own,
 * percent-encoded. An answer that smuggles parameters into the address (`?amount=`, `&pj=`,
 * `&lightning=`, `spl-token`, a URL, percent-encoded or look-alike characters) gets no link, and the
 * item says why. Vectors from BIP 173/350, BOLT 11, the chains' documentation; others are built
 * with the codec so that only the rule under test fails.
 */
import { base58, base64, base64url, bech32, bech32m, createBase58check } from '@scure/base';
import { createHash } from 'node:crypto';
import { addressProblem, paymentLink, tonLinkAddress, type Deposit } from '../../../nodes/shared/orchestration/paymentUri';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const b58check = createBase58check(sha256);
const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);

const BTC = {
	p2pkh: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
	p2sh: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
	p2wpkh: 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', // BIP 173
	p2wsh: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', // BIP 173 (testnet)
	p2tr: 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', // BIP 350
	common: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
};
const LTC = {
	p2pkh: b58check.encode(Uint8Array.from([0x30, ...bytes(20)])),
	p2shM: b58check.encode(Uint8Array.from([0x32, ...bytes(20)])),
	segwit: bech32.encode('ltc', [0, ...bech32.toWords(bytes(20))]),
};
const SOL = { recipient: 'mvines9iiHiQTysrwkJjGf2gb9Ex9jXJX8ns3qwf2kN', usdcMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' };
const TON = {
	friendly: 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N',
	raw: '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8',
	master: '-1:3333333333333333333333333333333333333333333333333333333333333333',
};
const EVM = '0x1111111111111111111111111111111111111111';
/** BOLT 11 examples. */
const INVOICE =
	'lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q5sqqqqqqqqqqqqqqqpqsq67gye39hfg3zd8rgc80k32tvy9xk2xunwm5lzexnvpx6fd77en8qaq424dxgt56cag2dpt359k3ssyhetktkpqh24jqnjyw6uqd08sgptq44qu';
const INVOICE_PICO =
	'lnbc9678785340p1pwmna7lpp5gc3xfm08u9qy06djf8dfflhugl6p7lgza6dsjxq454gxhj9t7a0sd8dgfkx7cmtwd68yetpd5s9xar0wfjn5gpc8qhrsdfq24f5ggrxdaezqsnvda3kkum5wfjkzmfqf3jkgem9wgsyuctwdus9xgrcyqcjcgpzgfskx6eqf9hzqnteypzxz7fzypfhg6trddjhygrcyqezcgpzfysywmm5ypxxjemgw3hxjmn8yptk7untd9hxwg3q2d6xjcmtv4ezq7pqxgsxzmnyyqcjqmt0wfjjq6t5v4khxxqyjw5qcqp2rzjq0gxwkzc8w6323m55m4jyxcjwmy7stt9hwkwe2qxmy8zpsgg7jcuwz87fcqqeuqqqyqqqqlgqqqqn3qq9qn07ytgrxxzad9hc4xt3mawjjt8znfv8xzscs7007v9gh9j569lencxa8xeujzkxs0uamak9aln6ez02uunw6rd2ht2sqe4hz8thcdagpleym0j';
const INVOICE_BAD = {
	checksum:
		'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrnt',
	mixedCase:
		'LNBC2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrny',
	tooShort: 'lnbc1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6na6hlh',
	multiplier:
		'lnbc2500x1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpujr6jxr9gq9pv6g46y7d20jfkegkg4gljz2ea2a3m9lmvvr95tq2s0kvu70u3axgelz3kyvtp2ywwt0y8hkx2869zq5dll9nelr83zzqqpgl2zg',
	subMsat:
		'lnbc2500000001p1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu7hqtk93pkf7sw55rdv4k9z2vj050rxdr6za9ekfs3nlt5lr89jqpdmxsmlj9urqumg0h9wzpqecw7th56tdms40p2ny9q4ddvjsedzcplva53s',
};

describe('addressProblem: a deposit address valid for its chain, by its codec and checksum', () => {
	it('Bitcoin: base58check P2PKH/P2SH and segwit v0 (bech32), v1+ (bech32m); mainnet, testnet; any one case', () => {
		for (const a of Object.values(BTC)) expect({ a, problem: addressProblem('bitcoin', a) }).toEqual({ a, problem: undefined });
		expect(addressProblem('bitcoin', BTC.common.toUpperCase())).toBeUndefined();
		// a Litecoin address is not a Bitcoin one, and the other way round
		expect(addressProblem('bitcoin', LTC.p2pkh)).toBe('its version byte 48 is not a Bitcoin one');
		expect(addressProblem('bitcoin', LTC.segwit)).toMatch(/^its base58 checksum does not match$|^its prefix "ltc"/);
		expect(addressProblem('litecoin', BTC.p2wpkh)).toBeDefined();
	});

	it('Bitcoin: a wrong checksum, the wrong checksum kind for the witness version, impossible programs and mixed case are refused', () => {
		const flipped = `${BTC.common.slice(0, -1)}${BTC.common.endsWith('q') ? 'p' : 'q'}`;
		expect(addressProblem('bitcoin', flipped)).toBe('its bech32 checksum does not match');
		expect(addressProblem('bitcoin', bech32.encode('bc', [1, ...bech32.toWords(bytes(32))]))).toBe('its bech32 checksum does not match');
		expect(addressProblem('bitcoin', bech32m.encode('bc', [0, ...bech32m.toWords(bytes(20))]))).toBe('a witness version 0 address needs bech32');
		expect(addressProblem('bitcoin', bech32.encode('bc', [0, ...bech32.toWords(bytes(25))]))).toBe('a witness version 0 program of 25 bytes does not exist');
		expect(addressProblem('bitcoin', `bc1Q${BTC.common.slice(4)}`)).toBe('its bech32 checksum does not match');
		expect(addressProblem('bitcoin', b58check.encode(Uint8Array.from([0x00, ...bytes(19)])))).toMatch(/holds 20 bytes/);
		expect(addressProblem('bitcoin', '175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W')).toBe('its base58 checksum does not match');
	});

	it('Litecoin: L/M/3 base58check and ltc1 segwit', () => {
		for (const a of [...Object.values(LTC), BTC.p2sh]) expect({ a, problem: addressProblem('litecoin', a) }).toEqual({ a, problem: undefined });
		expect(addressProblem('litecoin', BTC.p2pkh)).toBe('its version byte 0 is not a Litecoin one');
	});

	it('Solana: base58 of exactly 32 bytes', () => {
		for (const a of Object.values(SOL)) expect(addressProblem('solana', a)).toBeUndefined();
		expect(addressProblem('solana', base58.encode(bytes(33, 200)))).toMatch(/^it is not base58 text of a public key$|decodes to 33 bytes/);
		expect(addressProblem('solana', base58.encode(bytes(31, 200)))).toBe('it decodes to 31 bytes, not 32');
		expect(addressProblem('solana', `${SOL.recipient.slice(0, -1)}0`)).toBe('it is not base58 text of a public key');
	});

	it('TON: raw (workchain 0 or -1) and user-friendly (base64url or base64, bounceable or not, testnet flag), nothing else', () => {
		for (const a of Object.values(TON)) expect({ a, problem: addressProblem('ton', a) }).toEqual({ a, problem: undefined });
		const account = bytes(32, 0xfb);
		const friendly = (flags: number, workchain: number) => Uint8Array.from([flags, workchain, ...account, 0xab, 0xcd]);
		expect(addressProblem('ton', base64url.encode(friendly(0x51, 0)))).toBeUndefined();
		expect(addressProblem('ton', base64url.encode(friendly(0x91, 0xff)))).toBeUndefined();
		const standard = base64.encode(friendly(0x11, 0));
		expect(standard).toMatch(/[+/]/);
		expect(addressProblem('ton', standard)).toBeUndefined();
		// in a link, the same bytes in the URL-safe alphabet
		expect(tonLinkAddress(standard)).toBe(base64url.encode(friendly(0x11, 0)));
		expect(tonLinkAddress(TON.friendly)).toBe(TON.friendly);
		expect(addressProblem('ton', base64url.encode(friendly(0x12, 0)))).toBe('its flags byte 18 is not a TON one');
		expect(addressProblem('ton', base64url.encode(friendly(0x11, 5)))).toBe('its workchain byte 5 is neither 0 nor -1');
		expect(addressProblem('ton', '1:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8')).toMatch(/^it is neither/);
		expect(addressProblem('ton', `${standard.slice(0, 10)}-${standard.slice(11)}`)).toMatch(/^it is neither/);
	});

	it('BOLT11: the BOLT 11 examples pass, its invalid examples are refused', () => {
		for (const a of [INVOICE, INVOICE.toUpperCase(), INVOICE_PICO]) expect(addressProblem('bolt11', a)).toBeUndefined();
		expect(addressProblem('bolt11', INVOICE_BAD.checksum)).toBe('its bech32 checksum does not match');
		expect(addressProblem('bolt11', INVOICE_BAD.mixedCase)).toBe('its bech32 checksum does not match');
		expect(addressProblem('bolt11', INVOICE_BAD.tooShort)).toBe('it is too short to hold a timestamp and a signature');
		expect(addressProblem('bolt11', INVOICE_BAD.multiplier)).toBe('its prefix "lnbc2500x" is not a BOLT11 one');
		expect(addressProblem('bolt11', INVOICE_BAD.subMsat)).toBe('its prefix "lnbc2500000001p" is not a BOLT11 one');
		expect(addressProblem('bolt11', 'alice@example.com')).toBe('it is not the text of a BOLT11 invoice');
	});
});

/** Every way found to carry a parameter, a second destination or a URL inside an address. */
function smuggled(address: string): string[] {
	return [
		`${address}?amount=21`,
		`${address}?amount=21&pj=https://evil.example/pj&lightning=${INVOICE}?amount=0.001`,
		`${address}&amount=21`,
		`${address}%3Famount%3D21`,
		`${address}%26pj%3Dhttps%3A%2F%2Fevil.example`,
		`${address}#amount=21`,
		`${address} `,
		`${address}\n`,
		`${address}？amount=21`, // a full-width question mark
		`${address}/../evil`,
		`https://evil.example/pay?to=${address}`,
		`bitcoin:${address}`,
		`solana:https%3A%2F%2Fevil.example%2Ftx`,
		`${address.slice(0, 5)}а${address.slice(6)}`, // a Cyrillic letter among Latin ones
	];
}

function expectNoLink(deposit: Deposit): void {
	const link = paymentLink(deposit);
	expect({ address: deposit.depositAddress, link }).toEqual({ address: deposit.depositAddress, link: { unavailable: expect.stringMatching(/^no payment link: /) } });
}

describe('smuggled parameters get no link, for every scheme', () => {
	it('BIP21 (Bitcoin, Litecoin): ?amount=, &pj=, &lightning= and their encodings', () => {
		for (const [chain, address] of [['bitcoin', BTC.common], ['bitcoin', BTC.p2pkh], ['litecoin', LTC.segwit], ['litecoin', LTC.p2pkh]]) {
			expect(paymentLink({ chain, depositAddress: address, amount: '150000', decimals: 8 })).toEqual({ uri: `${chain}:${address}?amount=0.0015` });
			for (const bad of smuggled(address)) expectNoLink({ chain, depositAddress: bad, amount: '150000', decimals: 8 });
		}
		expect(paymentLink({ chain: 'bitcoin', depositAddress: `${BTC.common}?amount=21&pj=https://evil.example/pj`, amount: '150000', decimals: 8 })).toEqual({
			unavailable: 'no payment link: the Bitcoin deposit address the service answered is not valid (it holds characters no address has)',
		});
	});

	it('Solana Pay: a URL (a transaction request) or spl-token in the address or the mint never becomes a link', () => {
		const deposit = { chain: 'solana', depositAddress: SOL.recipient, amount: '2500000', decimals: 6, contractAddress: SOL.usdcMint };
		expect(paymentLink(deposit)).toEqual({ uri: `solana:${SOL.recipient}?amount=2.5&spl-token=${SOL.usdcMint}` });
		for (const bad of [...smuggled(SOL.recipient), `${SOL.recipient}?spl-token=${SOL.usdcMint}`, 'https://evil.example/api/tx', 'https:evil.example']) {
			expectNoLink({ ...deposit, depositAddress: bad });
		}
		// the mint comes from the routes listing: as untrusted as the quote
		for (const bad of [`${SOL.usdcMint}&amount=999`, `${SOL.usdcMint}&spl-token=x`, 'https://evil.example/mint']) {
			expect(paymentLink({ ...deposit, contractAddress: bad })).toEqual({ unavailable: expect.stringMatching(/^no payment link: the token mint \(routes listing\) the service answered is not valid/) });
		}
	});

	it('TON: parameters or a path in the address give no link; the memo travels as one encoded text parameter', () => {
		const deposit = { chain: 'ton', depositAddress: TON.friendly, amount: '1500000000', decimals: 9, memo: 'sbx-1&amount=1&bin=te6cc' };
		expect(paymentLink(deposit)).toEqual({ uri: `ton://transfer/${TON.friendly}?amount=1500000000&text=sbx-1%26amount%3D1%26bin%3Dte6cc` });
		expect(paymentLink({ ...deposit, depositAddress: TON.raw })).toEqual({ uri: `ton://transfer/${TON.raw}?amount=1500000000&text=sbx-1%26amount%3D1%26bin%3Dte6cc` });
		for (const bad of [...smuggled(TON.friendly), `${TON.raw}?amount=1`, `${TON.raw}/x`]) expectNoLink({ ...deposit, depositAddress: bad });
	});

	it('EIP-681: parameters in the address, the token contract or the chain id give no link', () => {
		const deposit = { chain: 'base', depositAddress: EVM, amount: '250000000', decimals: 6, contractAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', chainId: 'eip155:8453' };
		expect(paymentLink(deposit)).toEqual({ uri: `ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=${EVM}&uint256=250000000` });
		for (const bad of [...smuggled(EVM), `${EVM}?value=1e18`, `${EVM}@1`]) expectNoLink({ ...deposit, depositAddress: bad });
		expectNoLink({ ...deposit, contractAddress: `${deposit.contractAddress}&uint256=1` });
		expectNoLink({ ...deposit, chainId: '8453?value=1' });
	});

	it('lightning: parameters after or inside the invoice give no link', () => {
		const deposit = { chain: 'lightning', depositAddress: INVOICE, amount: '2500000', decimals: 8 };
		expect(paymentLink(deposit)).toEqual({ uri: `lightning:${INVOICE}` });
		for (const bad of smuggled(INVOICE)) expectNoLink({ ...deposit, depositAddress: bad });
		expectNoLink({ ...deposit, depositAddress: `${INVOICE.slice(0, 40)}?amount=1${INVOICE.slice(40)}` });
	});

	it("the amount and memo are the package's own: a memo is encoded (Solana Pay) and bounded; odd amounts and decimals give no link", () => {
		const solana = { chain: 'solana', depositAddress: SOL.recipient, amount: '1000000000', decimals: 9 };
		expect(paymentLink({ ...solana, memo: 'x&spl-token=evil#y' })).toEqual({ uri: `solana:${SOL.recipient}?amount=1&memo=x%26spl-token%3Devil%23y` });
		expect(paymentLink({ ...solana, memo: 'm'.repeat(257) })).toEqual({ unavailable: 'no payment link: the deposit memo is longer than 256 characters' });
		expect(paymentLink({ ...solana, amount: '1&amount=2' })).toEqual({ unavailable: 'no payment link: the deposit amount is not a whole number of smallest units' });
		expect(paymentLink({ ...solana, decimals: -1 })).toEqual({ unavailable: 'no payment link: the amount 1000000000 cannot be written with -1 decimals' });
	});
});
