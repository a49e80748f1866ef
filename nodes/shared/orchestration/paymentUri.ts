/**
 * A deposit a person can pay: the quote's deposit (spec §2.2: `depositAddress`, `amountIn`; public-notes:
 * `depositMemo`) as the standard payment URI of the source chain, for a wallet link or a QR code.
 * BIP21 (Bitcoin, and Litecoin's same scheme), EIP-681 (EVM native and ERC-20), BOLT11 invoices as
 * `lightning:`, Solana Pay transfer requests, TON transfer links. No URI where no standard exists, or
 * where the standard cannot carry a memo the deposit needs (a payment without it would be lost).
 *
 * The service's answer is untrusted: a link is built only from a deposit address (and token contract
 * or mint) that is well formed for its chain (depositAddress.ts), and every query parameter is the
 * package's own (the amount it shows, the memo), percent-encoded. Otherwise there is no link, and
 * the reason says why. Pure.
 */
import { smallestUnitToDecimal } from './amounts';
import { addressProblem, tonLinkAddress, type AddressKind } from './depositAddress';

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
	return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function query(params: Array<[string, string | undefined]>): string {
	const parts = params.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `${k}=${q(v as string)}`);
	return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** The EIP-155 chain id of an EVM chain: `eip155:8453` or `8453` -> `8453`; undefined for others. */
export function evmChainId(chainId: string | null | undefined): string | undefined {
	if (typeof chainId !== 'string') return undefined;
	const match = /^(?:eip155:)?([1-9][0-9]{0,19})$/.exec(chainId.trim());
	return match ? match[1] : undefined;
}

/** BIP21: `bitcoin:<address>?amount=<BTC decimal>&message=...` (the amount in whole coins, '.' as separator). */
export function bip21Uri(scheme: string, address: string, amountDecimal?: string, message?: string): string {
	return `${scheme}:${address}${query([['amount', amountDecimal], ['message', message]])}`;
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
export function solanaPayUri(recipient: string, amountDecimal: string, extra: { mint?: string; memo?: string; message?: string } = {}): string {
	const { mint, memo, message } = extra;
	return `solana:${recipient}${query([['amount', amountDecimal], ['spl-token', mint], ['message', message], ['memo', memo]])}`;
}

/** A deposit's payment link, or why it has none (a sentence for the item). */
export type PaymentLink = { uri: string } | { unavailable: string };

/** Longest memo a link carries (Solana memos and TON comments are a few hundred bytes at most). */
const MAX_MEMO = 256;

const CHAIN_NAMES: Record<string, string> = { bitcoin: 'Bitcoin', litecoin: 'Litecoin', solana: 'Solana', ton: 'TON', lightning: 'Lightning' };

/** The amount in whole units of the asset (BIP21, Solana Pay), or undefined when the decimals cannot hold it. */
function decimalOf(amount: string, decimals: number): string | undefined {
	try {
		return smallestUnitToDecimal(amount, decimals);
	} catch {
		return undefined;
	}
}

/** Why the service's `address` for `what` may not go into a link, or undefined when it may. */
function refused(kind: AddressKind, address: string, what: string): { unavailable: string } | undefined {
	const problem = addressProblem(kind, address);
	return problem === undefined ? undefined : { unavailable: `no payment link: the ${what} the service answered is not valid (${problem})` };
}

/** The payment link of a deposit, or why it has none: no standard for the chain, a memo it cannot carry, an address not valid for the chain. */
export function paymentLink(deposit: Deposit): PaymentLink {
	const { chain, depositAddress: to, amount, decimals, memo, message } = deposit;
	const token = deposit.contractAddress ?? undefined;
	const needsMemo = memo !== undefined && memo.trim() !== '';
	const name = CHAIN_NAMES[chain] ?? chain;
	if (needsMemo && memo.length > MAX_MEMO) return { unavailable: `no payment link: the deposit memo is longer than ${MAX_MEMO} characters` };
	if (!/^[0-9]{1,78}$/.test(amount)) return { unavailable: 'no payment link: the deposit amount is not a whole number of smallest units' };
	const decimal = decimalOf(amount, decimals);
	const noDecimal = { unavailable: `no payment link: the amount ${amount} cannot be written with ${String(decimals)} decimals` };
	switch (chain) {
		case 'lightning':
			// A BOLT11 invoice carries its own amount and description.
			return refused('bolt11', to, 'Lightning deposit invoice') ?? { uri: `lightning:${to}` };
		case 'bitcoin':
		case 'litecoin':
			// BIP21's message is a note for the payer, not an on-chain memo.
			if (needsMemo) return { unavailable: `no payment link: the deposit needs a memo, which a ${chain}: link cannot carry` };
			if (token !== undefined) return { unavailable: `no payment link: BIP21 has no token transfers (${name} asset with a contract)` };
			if (decimal === undefined) return noDecimal;
			return refused(chain, to, `${name} deposit address`) ?? { uri: bip21Uri(chain, to, decimal, message) };
		case 'solana':
			if (decimal === undefined) return noDecimal;
			return (
				refused('solana', to, 'Solana deposit address') ??
				(token === undefined ? undefined : refused('solana', token, 'token mint (routes listing)')) ?? {
					uri: solanaPayUri(to, decimal, { mint: token, memo: needsMemo ? memo : undefined, message }),
				}
			);
		case 'ton':
			// TON transfer link: amount in nanotons, `text` the on-chain comment; jettons have no such link.
			if (token !== undefined) return { unavailable: 'no payment link: TON transfer links carry no jettons' };
			return refused('ton', to, 'TON deposit address') ?? { uri: `ton://transfer/${tonLinkAddress(to)}${query([['amount', amount], ['text', needsMemo ? memo : undefined]])}` };
	}
	const evmId = evmChainId(deposit.chainId);
	if (evmId === undefined) return { unavailable: `no payment link: ${chain} deposits have no standard payment link here` };
	if (needsMemo) return { unavailable: 'no payment link: the deposit needs a memo, which an ethereum: link cannot carry' };
	return (
		refused('evm', to, 'deposit address') ??
		(token === undefined ? undefined : refused('evm', token, 'token contract (routes listing)')) ?? { uri: eip681Uri(evmId, to, amount, token) }
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
	source: { chain: string; decimals: number; contractAddress?: string | null; chainId?: string | null } | undefined,
): Deposit | undefined {
	const { depositAddress, amountIn, depositMemo } = quote;
	if (source === undefined || typeof depositAddress !== 'string' || typeof amountIn !== 'string' || !/^[0-9]+$/.test(amountIn)) return undefined;
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
