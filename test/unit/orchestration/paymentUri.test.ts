/**
 * Payment URIs of a deposit, checked against the standards' own examples: BIP21 (bitcoin), EIP-681
 * (EVM native and ERC-20), Solana Pay; `lightning:` for BOLT11 invoices. No URI where a required
 * memo cannot travel with it, nor from an address that is not valid for its chain.
 */
import { bip21Uri, depositOf, eip681Uri, evmChainId, paymentLink, paymentUri, solanaPayUri } from '../../../nodes/shared/orchestration/paymentUri';

/** Addresses from the chains' documentation and the standards' examples. */
const BTC = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'; // bitcoin wiki, P2PKH
/** BOLT 11's example "Please send $30 for coffee beans to the same peer". */
const INVOICE =
	'lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q5sqqqqqqqqqqqqqqqpqsq67gye39hfg3zd8rgc80k32tvy9xk2xunwm5lzexnvpx6fd77en8qaq424dxgt56cag2dpt359k3ssyhetktkpqh24jqnjyw6uqd08sgptq44qu';
/** TON documentation's example wallet, user-friendly (bounceable). */
const TON = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';

describe('the standards, written as their examples', () => {
	it('BIP21: amount in whole coins, message percent-encoded (BIP21 examples without label)', () => {
		// BIP21: bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?amount=50&label=Luke-Jr&message=Donation%20for%20project%20xyz
		expect(bip21Uri('bitcoin', '175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W', '50', 'Donation for project xyz')).toBe(
			'bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?amount=50&message=Donation%20for%20project%20xyz',
		);
		// BIP21: bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?amount=20.3&label=Luke-Jr, from 20.3 BTC in satoshis
		// (BIP21's example address has a wrong base58 checksum: a deposit uses a valid one)
		const deposit = { chain: 'bitcoin', depositAddress: BTC, amount: '2030000000', decimals: 8 };
		expect(paymentUri(deposit)).toBe(`bitcoin:${BTC}?amount=20.3`);
		expect(paymentLink({ ...deposit, depositAddress: '175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W' })).toEqual({
			unavailable: 'no payment link: the Bitcoin deposit address the service answered is not valid (its base58 checksum does not match)',
		});
		expect(bip21Uri('bitcoin', '175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W')).toBe('bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W');
	});

	it('EIP-681: the ERC-20 transfer example, and native value, with the chain id (@8453 on Base)', () => {
		// EIP-681: ethereum:0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7/transfer?address=0x8e23ee67d1332ad560396262c48ffbb01f93d052&uint256=1
		expect(eip681Uri('1', '0x8e23ee67d1332ad560396262c48ffbb01f93d052', '1', '0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7')).toBe(
			'ethereum:0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7@1/transfer?address=0x8e23ee67d1332ad560396262c48ffbb01f93d052&uint256=1',
		);
		// EIP-681: ethereum:0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359?value=2.014e18 (here as the integer in wei)
		expect(eip681Uri('1', '0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359', '2014000000000000000')).toBe(
			'ethereum:0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359@1?value=2014000000000000000',
		);
		const usdcOnBase = {
			chain: 'base',
			depositAddress: '0x1111111111111111111111111111111111111111',
			amount: '250000000',
			decimals: 6,
			contractAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
			chainId: 'eip155:8453',
		};
		expect(paymentUri(usdcOnBase)).toBe(
			'ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x1111111111111111111111111111111111111111&uint256=250000000',
		);
		expect(paymentUri({ ...usdcOnBase, contractAddress: null, chainId: '8453', amount: '1000000000000000000', decimals: 18 })).toBe(
			'ethereum:0x1111111111111111111111111111111111111111@8453?value=1000000000000000000',
		);
		expect(evmChainId('eip155:42161')).toBe('42161');
		expect(evmChainId(null)).toBeUndefined();
		expect(evmChainId('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).toBeUndefined();
	});

	it('Solana Pay: the spec examples (SPL token; message and memo)', () => {
		expect(solanaPayUri('mvines9iiHiQTysrwkJjGf2gb9Ex9jXJX8ns3qwf2kN', '0.01', { mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' })).toBe(
			'solana:mvines9iiHiQTysrwkJjGf2gb9Ex9jXJX8ns3qwf2kN?amount=0.01&spl-token=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
		);
		// Solana Pay: solana:mvines9iiHiQTysrwkJjGf2gb9Ex9jXJX8ns3qwf2kN?amount=1&label=Michael&message=Thanks%20for%20all%20the%20fish&memo=OrderId12345
		expect(solanaPayUri('mvines9iiHiQTysrwkJjGf2gb9Ex9jXJX8ns3qwf2kN', '1', { memo: 'OrderId12345', message: 'Thanks for all the fish' })).toBe(
			'solana:mvines9iiHiQTysrwkJjGf2gb9Ex9jXJX8ns3qwf2kN?amount=1&message=Thanks%20for%20all%20the%20fish&memo=OrderId12345',
		);
	});

	it('lightning: a BOLT11 invoice as is (it carries its amount and description)', () => {
		expect(paymentUri({ chain: 'lightning', depositAddress: INVOICE, amount: '2500000', decimals: 8 })).toBe(`lightning:${INVOICE}`);
		expect(paymentUri({ chain: 'lightning', depositAddress: INVOICE.toUpperCase(), amount: '2500000', decimals: 8 })).toBe(`lightning:${INVOICE.toUpperCase()}`);
		expect(paymentUri({ chain: 'lightning', depositAddress: 'alice@example.com', amount: '1', decimals: 8 })).toBeUndefined();
	});
});

describe('no URI that would lose a required memo, or on chains without a standard', () => {
	it('a memo travels where the standard has an on-chain field (Solana Pay memo, TON text), else no URI', () => {
		expect(paymentUri({ chain: 'ton', depositAddress: TON, amount: '1500000000', decimals: 9, memo: 'sbx-00000001' })).toBe(
			`ton://transfer/${TON}?amount=1500000000&text=sbx-00000001`,
		);
		expect(paymentUri({ chain: 'bitcoin', depositAddress: 'bc1qxy', amount: '1', decimals: 8, memo: '42' })).toBeUndefined();
		const evm = { chain: 'base', depositAddress: '0x1111111111111111111111111111111111111111', amount: '1', decimals: 18, chainId: '8453' };
		expect(paymentUri({ ...evm, memo: 'tag' })).toBeUndefined();
		expect(paymentUri({ ...evm, memo: '  ' })).toBe('ethereum:0x1111111111111111111111111111111111111111@8453?value=1');
	});

	it('chains with no standard URI here, or without a chain id, give none', () => {
		for (const chain of ['xrp', 'hedera', 'tron', 'spark', 'monero', 'zcash']) {
			expect(paymentLink({ chain, depositAddress: 'x', amount: '1', decimals: 6 })).toEqual({ unavailable: `no payment link: ${chain} deposits have no standard payment link here` });
		}
		expect(paymentUri({ chain: 'hypercore', depositAddress: '0x1111111111111111111111111111111111111111', amount: '1', decimals: 6, chainId: null })).toBeUndefined();
	});

	it('depositOf reads the quote answer and the source asset; nothing without them', () => {
		const source = { chain: 'base', decimals: 6, contractAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', chainId: 'eip155:8453' };
		expect(depositOf({ depositAddress: '0xab', amountIn: '5', depositMemo: 'm' }, source)).toEqual({ ...source, depositAddress: '0xab', amount: '5', memo: 'm' });
		expect(depositOf({ depositAddress: '0xab', amountIn: '5' }, undefined)).toBeUndefined();
		expect(depositOf({ amountIn: '5' }, source)).toBeUndefined();
		expect(depositOf({ depositAddress: '0xab', amountIn: '1.5' }, source)).toBeUndefined();
	});
});
