/**
 * A deposit a person can pay: the quote's deposit (spec §2.2: `depositAddress`, `amountIn`; public-notes:
 * `depositMemo`) as the standard payment URI of the source chain, for a wallet link or a QR code.
 * BIP21 (Bitcoin, and Litecoin's same scheme), EIP-681 (EVM native and ERC-20), BOLT11 invoices as
 * `lightning:`, Solana Pay transfer requests, TON transfer links. No URI where no standard exists, or
 * where the standard cannot carry a memo the deposit needs (a payment without it would be lost).
 *
 * The service's answer is untrusted: a link is built only from a deposit address (and token contract
 * or mint) that is well formed for its chain (addressProblem, below), and every query parameter is the
 * package's own (the amount it shows, the memo), percent-encoded. Otherwise there is no link, and
 * the reason says why. Pure.
 */
import { base58, base64, base64url, bech32, bech32m, createBase58check } from '@scure/base';
import { sha256Bytes } from '../sha256';
import { smallestUnitToDecimal } from './amounts';

/** The deposit side of a quote, with the source asset from the routes listing (§2.3). */
export interface Deposit {
	/** Source chain (chain enum, §2.1). */
	chain: string;
	depositAddress: string;
	/** Smallest units of the source asset (§2.2 `amountIn`). */
	amount: string;
	decimals: number;
	/** Token contract, mint or jetton; null or undefined for the chain's native asset (§2.3). */
	contractAddress?: string | null;
	/** §2.3: CAIP-2 (`eip155:8453`) or the bare reference (`8453`, public-notes). */
	chainId?: string | null;
	/** A memo or tag that must go with the deposit (public-notes `depositMemo`). */
	memo?: string;
	/** A note for the payer's wallet (BIP21 `message`, Solana Pay `message`); never carries a required memo. */
	message?: string;
}

/** RFC 3986 query value: everything but unreserved characters percent-encoded (spaces as %20, per BIP21's example). */
function q(value: string): string {
	return encodeURIComponent(value).replace(
		/[!'()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
	);
}

function query(params: Array<[string, string | undefined]>): string {
	const parts = params
		.filter(([, v]) => v !== undefined && v !== '')
		.map(([k, v]) => `${k}=${q(v as string)}`);
	return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** The EIP-155 chain id of an EVM chain: `eip155:8453` or `8453` -> `8453`; undefined for others. */
export function evmChainId(chainId: string | null | undefined): string | undefined {
	if (typeof chainId !== 'string') return undefined;
	const match = /^(?:eip155:)?([1-9][0-9]{0,19})$/.exec(chainId.trim());
	return match ? match[1] : undefined;
}

/** BIP21: `bitcoin:<address>?amount=<BTC decimal>&message=...` (the amount in whole coins, '.' as separator). */
export function bip21Uri(
	scheme: string,
	address: string,
	amountDecimal?: string,
	message?: string,
): string {
	return `${scheme}:${address}${query([
		['amount', amountDecimal],
		['message', message],
	])}`;
}

/**
 * EIP-681: native value `ethereum:<to>@<chainId>?value=<wei>`; ERC-20
 * `ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<amount>` (amounts in smallest units).
 */
export function eip681Uri(chainId: string, to: string, amount: string, token?: string): string {
	if (token === undefined) return `ethereum:${to}@${chainId}?value=${amount}`;
	return `ethereum:${token}@${chainId}/transfer?address=${to}&uint256=${amount}`;
}

/** Solana Pay transfer request: `solana:<recipient>?amount=<decimal>&spl-token=<mint>&memo=<memo>`. */
export function solanaPayUri(
	recipient: string,
	amountDecimal: string,
	extra: { mint?: string; memo?: string; message?: string } = {},
): string {
	const { mint, memo, message } = extra;
	return `solana:${recipient}${query([
		['amount', amountDecimal],
		['spl-token', mint],
		['message', message],
		['memo', memo],
	])}`;
}

/** A deposit's payment link, or why it has none (a sentence for the item). */
export type PaymentLink = { uri: string } | { unavailable: string };

/** Longest memo a link carries (Solana memos and TON comments are a few hundred bytes at most). */
const MAX_MEMO = 256;

const CHAIN_NAMES: Record<string, string> = {
	bitcoin: 'Bitcoin',
	litecoin: 'Litecoin',
	solana: 'Solana',
	ton: 'TON',
	lightning: 'Lightning',
};

/** The amount in whole units of the asset (BIP21, Solana Pay), or undefined when the decimals cannot hold it. */
function decimalOf(amount: string, decimals: number): string | undefined {
	try {
		return smallestUnitToDecimal(amount, decimals);
	} catch {
		return undefined;
	}
}

/** Why the service's `address` for `what` may not go into a link, or undefined when it may. */
function refused(
	kind: AddressKind,
	address: string,
	what: string,
): { unavailable: string } | undefined {
	const problem = addressProblem(kind, address);
	return problem === undefined
		? undefined
		: {
				unavailable: `no payment link: the ${what} the service answered is not valid (${problem})`,
			};
}

/** The payment link of a deposit, or why it has none: no standard for the chain, a memo it cannot carry, an address not valid for the chain. */
export function paymentLink(deposit: Deposit): PaymentLink {
	const { chain, depositAddress: to, amount, decimals, memo, message } = deposit;
	const token = deposit.contractAddress ?? undefined;
	const needsMemo = memo !== undefined && memo.trim() !== '';
	const name = CHAIN_NAMES[chain] ?? chain;
	if (needsMemo && memo.length > MAX_MEMO)
		return {
			unavailable: `no payment link: the deposit memo is longer than ${MAX_MEMO} characters`,
		};
	if (!/^[0-9]{1,78}$/.test(amount))
		return {
			unavailable: 'no payment link: the deposit amount is not a whole number of smallest units',
		};
	const decimal = decimalOf(amount, decimals);
	const noDecimal = {
		unavailable: `no payment link: the amount ${amount} cannot be written with ${String(decimals)} decimals`,
	};
	switch (chain) {
		case 'lightning':
			// A BOLT11 invoice carries its own amount and description.
			return refused('bolt11', to, 'Lightning deposit invoice') ?? { uri: `lightning:${to}` };
		case 'bitcoin':
		case 'litecoin':
			// BIP21's message is a note for the payer, not an on-chain memo.
			if (needsMemo)
				return {
					unavailable: `no payment link: the deposit needs a memo, which a ${chain}: link cannot carry`,
				};
			if (token !== undefined)
				return {
					unavailable: `no payment link: BIP21 has no token transfers (${name} asset with a contract)`,
				};
			if (decimal === undefined) return noDecimal;
			return (
				refused(chain, to, `${name} deposit address`) ?? {
					uri: bip21Uri(chain, to, decimal, message),
				}
			);
		case 'solana':
			if (decimal === undefined) return noDecimal;
			return (
				refused('solana', to, 'Solana deposit address') ??
				(token === undefined
					? undefined
					: refused('solana', token, 'token mint (routes listing)')) ?? {
					uri: solanaPayUri(to, decimal, {
						mint: token,
						memo: needsMemo ? memo : undefined,
						message,
					}),
				}
			);
		case 'ton':
			// TON transfer link: amount in nanotons, `text` the on-chain comment; jettons have no such link.
			if (token !== undefined)
				return { unavailable: 'no payment link: TON transfer links carry no jettons' };
			return (
				refused('ton', to, 'TON deposit address') ?? {
					uri: `ton://transfer/${tonLinkAddress(to)}${query([
						['amount', amount],
						['text', needsMemo ? memo : undefined],
					])}`,
				}
			);
	}
	const evmId = evmChainId(deposit.chainId);
	if (evmId === undefined)
		return { unavailable: `no payment link: ${chain} deposits have no standard payment link here` };
	if (needsMemo)
		return {
			unavailable:
				'no payment link: the deposit needs a memo, which an ethereum: link cannot carry',
		};
	return (
		refused('evm', to, 'deposit address') ??
		(token === undefined
			? undefined
			: refused('evm', token, 'token contract (routes listing)')) ?? {
			uri: eip681Uri(evmId, to, amount, token),
		}
	);
}

/** The payment URI of a deposit, or undefined when it has none (paymentLink says why). */
export function paymentUri(deposit: Deposit): string | undefined {
	const link = paymentLink(deposit);
	return 'uri' in link ? link.uri : undefined;
}

/** The deposit of a quote answer (§2.2) paid in `source` (the routes listing's entry), or undefined when either is missing. */
export function depositOf(
	quote: Record<string, unknown>,
	source:
		| { chain: string; decimals: number; contractAddress?: string | null; chainId?: string | null }
		| undefined,
): Deposit | undefined {
	const { depositAddress, amountIn, depositMemo } = quote;
	if (
		source === undefined ||
		typeof depositAddress !== 'string' ||
		typeof amountIn !== 'string' ||
		!/^[0-9]+$/.test(amountIn)
	)
		return undefined;
	return {
		chain: source.chain,
		depositAddress,
		amount: amountIn,
		decimals: source.decimals,
		contractAddress: source.contractAddress,
		chainId: source.chainId,
		memo: typeof depositMemo === 'string' ? depositMemo : undefined,
	};
}

// ---------------------------------------------------------------- a deposit address valid for its chain

/*
 * Whether a deposit address the service answered is a well-formed address of its chain, before a
 * link or a QR code is built from it: an answer is untrusted input, and a link built from
 * `bc1q…?amount=21&pj=https://…` would pay what the item does not show. Each check decodes the
 * address with its own codec (@scure/base: base58, base58check, bech32, bech32m, base64) and its
 * checksum, so nothing but the address itself can pass: no `?`, `&`, `%`, `:` (TON raw form aside),
 * `/` or whitespace.
 *
 * - Bitcoin and Litecoin: segwit (bech32 for version 0, bech32m for 1 to 16; BIP 173, BIP 350) or
 *   base58check P2PKH / P2SH, each with its network's prefixes and version bytes.
 * - Solana: a base58 public key of 32 bytes (never a URL: no Solana Pay transaction request).
 * - TON: the raw form `<workchain>:<64 hex>` or the user-friendly form (48 characters of base64 or
 *   base64url: flags, workchain, 32-byte account, 2-byte CRC16; the CRC is not verified, no codec
 *   dependency has it).
 * - EVM: `0x` and 40 hex digits.
 * - Lightning: a BOLT11 invoice (bech32 with its checksum, `ln` + network + optional amount).
 */

export type AddressKind = 'bitcoin' | 'litecoin' | 'solana' | 'ton' | 'evm' | 'bolt11';

interface UtxoNetwork {
	name: string;
	/** bech32 human-readable prefixes (mainnet, testnets, regtest). */
	hrps: readonly string[];
	/** base58check version bytes of P2PKH and P2SH addresses. */
	versions: readonly number[];
}

const UTXO: Record<'bitcoin' | 'litecoin', UtxoNetwork> = {
	bitcoin: { name: 'Bitcoin', hrps: ['bc', 'tb', 'bcrt'], versions: [0x00, 0x05, 0x6f, 0xc4] },
	litecoin: {
		name: 'Litecoin',
		hrps: ['ltc', 'tltc', 'rltc'],
		versions: [0x30, 0x32, 0x05, 0x6f, 0x3a, 0xc4],
	},
};

/** Letters and digits only, and not longer than any address of these chains: the cheap first gate. */
const ALPHANUMERIC = /^[A-Za-z0-9]{1,90}$/;
const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TON_RAW = /^(0|-1):[0-9a-fA-F]{64}$/;
const TON_FRIENDLY_URL = /^[A-Za-z0-9_-]{48}$/;
const TON_FRIENDLY_STD = /^[A-Za-z0-9+/]{48}$/;
/** `ln` + network (bc, tb, tbs, bcrt, sb) + optional amount with its multiplier; pico amounts end in 0 (BOLT11). */
const BOLT11_PREFIX = /^ln(bc|tb|tbs|bcrt|sb)(\d+[mun]?|\d*0p)?$/;
const BOLT11_CHARS = /^ln[a-z0-9]+$/i;
/** Longest invoice accepted (a QR code holds 4,296 alphanumeric characters at most). */
const BOLT11_MAX = 4000;
/** A BOLT11 invoice carries at least its timestamp (7 words) and signature with recovery id (104 words). */
const BOLT11_MIN_WORDS = 111;

const base58check = createBase58check(sha256Bytes);

function segwitProblem(address: string, network: UtxoNetwork): string | undefined {
	const v0 = bech32.decodeUnsafe(address, 90);
	const decoded = v0 && v0.words[0] === 0 ? v0 : bech32m.decodeUnsafe(address, 90);
	if (!decoded || decoded.words.length === 0) return 'its bech32 checksum does not match';
	if (!network.hrps.includes(decoded.prefix))
		return `its prefix "${decoded.prefix}" is not a ${network.name} one`;
	const version = decoded.words[0];
	if (version > 16 || (version === 0) !== (decoded === v0))
		return `a witness version ${version} address needs ${version === 0 ? 'bech32' : 'bech32m'}`;
	const program = bech32.fromWordsUnsafe(decoded.words.slice(1));
	if (!program) return 'its witness program is not whole bytes';
	const fits =
		version === 0
			? program.length === 20 || program.length === 32
			: program.length >= 2 && program.length <= 40;
	return fits
		? undefined
		: `a witness version ${version} program of ${program.length} bytes does not exist`;
}

function base58checkProblem(address: string, network: UtxoNetwork): string | undefined {
	let payload: Uint8Array;
	try {
		payload = base58check.decode(address);
	} catch {
		return 'its base58 checksum does not match';
	}
	if (payload.length !== 21)
		return `it holds ${payload.length} bytes, not a version byte and a 20-byte hash`;
	return network.versions.includes(payload[0])
		? undefined
		: `its version byte ${payload[0]} is not a ${network.name} one`;
}

function utxoProblem(address: string, network: UtxoNetwork): string | undefined {
	if (!ALPHANUMERIC.test(address)) return 'it holds characters no address has';
	const lower = address.toLowerCase();
	const segwit = network.hrps.some((hrp) => lower.startsWith(`${hrp}1`));
	return segwit ? segwitProblem(address, network) : base58checkProblem(address, network);
}

function solanaProblem(key: string): string | undefined {
	if (!BASE58_KEY.test(key)) return 'it is not base58 text of a public key';
	const bytes = base58.decode(key);
	return bytes.length === 32 ? undefined : `it decodes to ${bytes.length} bytes, not 32`;
}

/** The bytes of a user-friendly TON address: base64url or standard base64, not a mix. */
function tonFriendlyBytes(address: string): Uint8Array | undefined {
	try {
		if (TON_FRIENDLY_URL.test(address)) return base64url.decode(address);
		if (TON_FRIENDLY_STD.test(address)) return base64.decode(address);
	} catch {
		return undefined;
	}
	return undefined;
}

function tonProblem(address: string): string | undefined {
	if (TON_RAW.test(address)) return undefined;
	const bytes = tonFriendlyBytes(address);
	if (!bytes || bytes.length !== 36)
		return 'it is neither the raw form (workchain:64 hex digits) nor the 48-character user-friendly form';
	// flags: 0x11 bounceable, 0x51 non-bounceable, +0x80 for testnet only
	if (![0x11, 0x51, 0x91, 0xd1].includes(bytes[0]))
		return `its flags byte ${bytes[0]} is not a TON one`;
	return bytes[1] === 0x00 || bytes[1] === 0xff
		? undefined
		: `its workchain byte ${bytes[1]} is neither 0 nor -1`;
}

function bolt11Problem(invoice: string): string | undefined {
	if (invoice.length > BOLT11_MAX || !BOLT11_CHARS.test(invoice))
		return 'it is not the text of a BOLT11 invoice';
	const decoded = bech32.decodeUnsafe(invoice, false);
	if (!decoded) return 'its bech32 checksum does not match';
	if (!BOLT11_PREFIX.test(decoded.prefix))
		return `its prefix "${decoded.prefix}" is not a BOLT11 one`;
	return decoded.words.length >= BOLT11_MIN_WORDS
		? undefined
		: 'it is too short to hold a timestamp and a signature';
}

/** Why `address` is not a well-formed address of `kind`, or undefined when it is. */
export function addressProblem(kind: AddressKind, address: string): string | undefined {
	switch (kind) {
		case 'bitcoin':
		case 'litecoin':
			return utxoProblem(address, UTXO[kind]);
		case 'solana':
			return solanaProblem(address);
		case 'ton':
			return tonProblem(address);
		case 'evm':
			return EVM_ADDRESS.test(address) ? undefined : 'it is not 0x and 40 hex digits';
		case 'bolt11':
			return bolt11Problem(address);
	}
}

/** A user-friendly TON address in its URL-safe spelling (the same bytes), so a link's path never holds `+` or `/`. */
export function tonLinkAddress(address: string): string {
	if (TON_RAW.test(address) || !TON_FRIENDLY_STD.test(address) || TON_FRIENDLY_URL.test(address))
		return address;
	return base64url.encode(base64.decode(address));
}
