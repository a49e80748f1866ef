import type { DepositTransactionRule } from '../faults';
import type { CatalogueAsset } from './catalogue';

/** The address hostile variants pay or approve unless the rule names one. */
export const ATTACKER_ADDRESS = '0xbadbadbadbadbadbadbadbadbadbadbadbadbad0';
const TRANSFER = '0xa9059cbb';
const APPROVE = '0x095ea7b3';
const MAX_UINT256 = (1n << 256n) - 1n;

/** The EVM chain id of an asset (its listing `chainId` `eip155:<n>`), or undefined off EVM. */
export function evmChainId(asset: CatalogueAsset): bigint | undefined {
	const m = /^eip155:([0-9]+)$/.exec(asset.chainInfo.chainId ?? '');
	return m ? BigInt(m[1]) : undefined;
}

const word = (hex: string) => hex.padStart(64, '0');
const addressWord = (address: string) => word(address.slice(2).toLowerCase());
const call = (selector: string, to: string, amount: bigint) => `${selector}${addressWord(to)}${word(amount.toString(16))}`;

/**
 * The unsigned deposit transfer (spec §2.2: "needs no approval and only funds the deposit"):
 * native: `to` the deposit address, `value` amountIn, no data; ERC-20: `to` the listing's
 * `contractAddress`, `value` 0, data `transfer(depositAddress, amountIn)`; `chainId` the source's.
 */
export function honestDepositTransaction(source: CatalogueAsset, depositAddress: string, amountIn: bigint, chainIdForm: DepositTransactionRule['chainIdForm'] = 'number'): Record<string, unknown> {
	const chainId = chainIdIn(evmChainId(source) ?? 0n, chainIdForm);
	if (source.contractAddress === null) return { chainId, to: depositAddress, value: amountIn.toString(), data: '0x' };
	return { chainId, to: source.contractAddress, value: '0', data: call(TRANSFER, depositAddress, amountIn) };
}

function chainIdIn(id: bigint, form: DepositTransactionRule['chainIdForm']): unknown {
	if (form === 'decimal') return id.toString();
	if (form === 'hex') return `0x${id.toString(16)}`;
	if (form === 'caip') return `eip155:${id}`;
	return Number(id);
}

/** Variants that only exist for a token source. */
const ERC20_ONLY = new Set<DepositTransactionRule['variant']>(['approve', 'token', 'erc20Value']);

/** Whether a rule can be applied to a quote of this source (EVM only; some variants need an ERC-20). */
export function ruleFits(rule: DepositTransactionRule, source: CatalogueAsset): boolean {
	if (evmChainId(source) === undefined) return false;
	return !ERC20_ONLY.has(rule.variant) || source.contractAddress !== null;
}

/** The transfer a rule's variant asks for: honest but for one thing (docs/sandbox.md, "Hostile deposit transfers"). */
export function variantDepositTransaction(rule: DepositTransactionRule, source: CatalogueAsset, depositAddress: string, amountIn: bigint): Record<string, unknown> {
	const form = rule.chainIdForm;
	const tx = honestDepositTransaction(source, depositAddress, amountIn, form);
	const attacker = rule.attacker ?? ATTACKER_ADDRESS;
	const native = source.contractAddress === null;
	switch (rule.variant) {
		case 'honest':
			return tx;
		case 'approve':
			return { ...tx, data: call(APPROVE, attacker, MAX_UINT256) };
		case 'recipient':
			return native ? { ...tx, to: attacker } : { ...tx, data: call(TRANSFER, attacker, amountIn) };
		case 'amount':
			return native ? { ...tx, value: (amountIn + 1n).toString() } : { ...tx, data: call(TRANSFER, depositAddress, amountIn + 1n) };
		case 'token':
			return { ...tx, to: lookAlike(source.contractAddress as string) };
		case 'chainId': {
			const id = evmChainId(source) === 1n ? 8453n : 1n;
			return { ...tx, chainId: chainIdIn(id, form) };
		}
		case 'extraData':
			return { ...tx, data: `${tx.data as string}${addressWord(attacker)}` };
		case 'erc20Value':
			return { ...tx, value: amountIn.toString() };
	}
}

/** The token contract with its last hex digit changed: another contract that reads alike. */
function lookAlike(contract: string): string {
	const last = contract.at(-1) as string;
	return contract.slice(0, -1) + (last.toLowerCase() === 'a' ? 'b' : 'a');
}

/** Places a transaction at a dotted member path of the answer, making objects on the way. */
export function placeAt(answer: Record<string, unknown>, path: string, tx: Record<string, unknown>): void {
	const names = path.split('.');
	let at = answer;
	for (const name of names.slice(0, -1)) {
		const next = Object.hasOwn(at, name) ? at[name] : undefined;
		if (typeof next !== 'object' || next === null || Array.isArray(next)) at[name] = {};
		at = at[name] as Record<string, unknown>;
	}
	at[names[names.length - 1]] = tx;
}
