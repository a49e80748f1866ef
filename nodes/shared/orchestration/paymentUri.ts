/**
 * A deposit a person can pay: the quote's deposit (spec §2.2: `depositAddress`, `amountIn`; public-notes:
 * `depositMemo`) as the standard payment URI of the source chain, for a wallet link or a QR code.
 * BIP21 (Bitcoin, and Litecoin's same scheme), EIP-681 (EVM native and ERC-20), BOLT11 invoices as
 * `lightning:`, Solana Pay, TON transfer links. No URI where no standard exists, or where the
 * standard cannot carry a memo the deposit needs (a payment without it would be lost). Pure.
 */
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

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BOLT11 = /^ln(bc|tb|bcrt)[0-9a-z]+$/i;

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

/** The payment URI of a deposit, or undefined when the chain has no standard one that carries everything the deposit needs. */
export function paymentUri(deposit: Deposit): string | undefined {
	const { chain, depositAddress: to, amount, decimals, memo, message } = deposit;
	const token = deposit.contractAddress ?? undefined;
	const decimal = (): string => smallestUnitToDecimal(amount, decimals);
	const needsMemo = memo !== undefined && memo.trim() !== '';
	switch (chain) {
		case 'lightning':
			// A BOLT11 invoice carries its own amount and description.
			return BOLT11.test(to) ? `lightning:${to}` : undefined;
		case 'bitcoin':
		case 'litecoin':
			// BIP21's message is a note for the payer, not an on-chain memo.
			return needsMemo || token !== undefined ? undefined : bip21Uri(chain, to, decimal(), message);
		case 'solana':
			return solanaPayUri(to, decimal(), { mint: token, memo: needsMemo ? memo : undefined, message });
		case 'ton':
			// TON transfer link: amount in nanotons, `text` the on-chain comment; jettons have no such link.
			return token !== undefined ? undefined : `ton://transfer/${to}${query([['amount', amount], ['text', needsMemo ? memo : undefined]])}`;
	}
	const evmId = evmChainId(deposit.chainId);
	if (evmId === undefined || needsMemo || !EVM_ADDRESS.test(to)) return undefined;
	if (token !== undefined && !EVM_ADDRESS.test(token)) return undefined;
	return eip681Uri(evmId, to, amount, token);
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
