import { createHash, randomBytes } from 'node:crypto';
import { base58, base64url, bech32 } from '@scure/base';
import type { AddressFormat } from './catalogue-data';

/**
 * Deposit addresses in each chain's address format (fake, but shaped like the real thing). Where a
 * wallet checks the encoding, so do they: Bitcoin and Litecoin segwit v0 (bech32 with its checksum),
 * Solana 32-byte base58 keys, TON user-friendly addresses (flags, workchain 0; the CRC is random),
 * BOLT11-shaped invoices with a valid bech32 checksum (not signed).
 */
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
/** The XRP Ledger's own base58 alphabet. */
const XRP58 = 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz';
/** RFC 4648 base32, the alphabet of Stellar's strkeys. */
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function encode(bytes: Buffer, alphabet: string, length: number): string {
	let out = '';
	let i = 0;
	while (out.length < length) {
		const b = bytes[i % bytes.length] ^ (i >> 5);
		out += alphabet[b % alphabet.length];
		i++;
	}
	return out;
}

/** Bytes that make each generated address unique (a counter mixed with randomness). */
function seedBytes(counter: number): Buffer {
	return createHash('sha256').update(randomBytes(16)).update(String(counter)).digest();
}

export function depositAddressFor(format: AddressFormat, counter: number, amountSats?: bigint): string {
	const b = seedBytes(counter);
	switch (format) {
		case 'evm':
			return `0x${b.subarray(0, 20).toString('hex')}`;
		case 'bitcoin':
			return segwitV0('bc', b.subarray(0, 20));
		case 'litecoin':
			return segwitV0('ltc', b.subarray(0, 20));
		case 'spark':
			return `sp1${encode(b, BECH32, 60)}`;
		case 'lightning':
			return bolt11(b, amountSats);
		case 'solana':
			return solanaKey(b);
		case 'tron':
			return `T${encode(b, BASE58, 33)}`;
		case 'xrp':
			return `r${encode(b, XRP58, 33)}`;
		case 'ton':
			// non-bounceable (0x51), workchain 0, the account, 2 bytes in place of the CRC16
			return base64url.encode(Uint8Array.from([0x51, 0x00, ...b.subarray(0, 32), b[0], b[1]]));
		case 'hedera':
			return `0.0.${(b.readUInt32BE(0) % 9_000_000) + 1_000_000}`;
		case 'monero':
			return `4${encode(b, BASE58, 94)}`;
		case 'zcash':
			return `t1${encode(b, BASE58, 33)}`;
		case 'stellar':
			return `G${encode(b, BASE32, 55)}`;
	}
}

/** A segwit version 0 address (BIP 173): the prefix, then version 0 and the program in bech32. */
function segwitV0(prefix: string, program: Uint8Array): string {
	return bech32.encode(prefix, [0, ...bech32.toWords(program)]);
}

/** A base58 public key of 32 bytes, drawn until it spells 44 characters (most keys do; the listings' examples all do). */
function solanaKey(seed: Buffer): string {
	for (let key = seed; ; key = createHash('sha256').update(key).digest()) {
		const text = base58.encode(key);
		if (text.length === 44) return text;
	}
}

/** A BOLT11-shaped invoice: `lnbc<amount>n1p...` with the amount in nano-BTC, or amountless; a valid bech32 checksum, no real signature. */
function bolt11(b: Buffer, amountSats?: bigint): string {
	const amount = amountSats !== undefined ? `${amountSats * 10n}n` : '';
	// a timestamp, then 180 words shaped from the seed (where the tagged fields and the signature go)
	const words = [1, ...Array.from({ length: 186 }, (_, i) => (b[i % b.length] ^ (i >> 5)) % 32)];
	return bech32.encode(`lnbc${amount}`, words, false);
}

/** Chains whose deposits need a memo or tag next to the address (public-notes `depositMemo`). */
export function depositMemoFor(format: AddressFormat, counter: number): string | undefined {
	if (format === 'xrp') return String(100_000 + counter);
	if (format === 'ton' || format === 'hedera') return `sbx-${String(counter).padStart(8, '0')}`;
	if (format === 'stellar') return String(200_000 + counter);
	return undefined;
}

const RECIPIENT_PATTERNS: Partial<Record<AddressFormat, RegExp>> = {
	evm: /^0x[0-9a-fA-F]{40}$/,
	bitcoin: /^(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,87}$/,
	litecoin: /^(ltc1|[LM3])[a-zA-HJ-NP-Z0-9]{25,87}$/,
	spark: /^(sp1|spark1|sprt1)[a-z0-9]{20,}$/,
	solana: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
	tron: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
	xrp: /^r[0-9A-Za-z]{24,34}$/,
	hedera: /^0\.0\.[0-9]+$/,
	stellar: /^G[A-Z2-7]{55}$/,
	lightning: /^((ln(bc|tb|bcrt)[0-9a-z]+)|([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+))$/i,
};

/** A plausibility check of a destination address; `undefined` when it passes. */
export function checkAddress(format: AddressFormat, address: string): string | undefined {
	const pattern = RECIPIENT_PATTERNS[format];
	if (!pattern || pattern.test(address)) return undefined;
	return format === 'lightning'
		? 'must be a Lightning address (name@domain) or a BOLT11 invoice'
		: `is not a valid ${format} address`;
}
