/**
 * The quote's unsigned deposit transfer (spec §2.2: no approval, only funds the deposit), checked
 * against the quote and the routes listing. The calldata below is written out by hand from the
 * ERC-20 ABI (selector, two 32-byte words), independently of the codec the node uses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkDepositTransfers, transactionsIn, withoutTransactions } from '../../../nodes/shared/orchestration/depositTransfer';
import type { RouteAsset } from '../../../nodes/shared/orchestration/responseSchemas';

const routes = JSON.parse(fs.readFileSync(path.join(__dirname, '../../fixtures/live-service/routes.json'), 'utf8'));
const listing: RouteAsset[] = routes.listing.body.assets;

function asset(id: string): RouteAsset {
	const found = listing.find((a) => a.id === id);
	if (!found) throw new Error(`fixture lacks ${id}`);
	return found;
}

const USDC = asset('base:USDC'); // contract 0x8335…2913, chainId "8453"
const ETH = asset('base:ETH'); // native, chainId "eip155:8453"
const DEPOSIT = '0x3f5CE5FBFe3E9af3971dD833D26bA9b5C936f0bE';
const ATTACKER = '0x000000000000000000000000000000000000dEaD';
const word = (hex: string) => hex.toLowerCase().replace(/^0x/, '').padStart(64, '0');
const transferData = (to: string, amount: bigint) => `0xa9059cbb${word(to)}${word(amount.toString(16))}`;
const approveData = (spender: string, amount: bigint) => `0x095ea7b3${word(spender)}${word(amount.toString(16))}`;
const quote = (tx: Record<string, unknown>, member = 'depositTransaction') => ({ quoteId: 'q_1', depositAddress: DEPOSIT, amountIn: '100000000', [member]: tx });
const honestToken = { chainId: 8453, to: USDC.contractAddress, value: '0', data: transferData(DEPOSIT, 100000000n) };

describe('the deposit transfer of a quote', () => {
	it('an ERC-20 transfer(depositAddress, amountIn) on the source contract is verified and handed on in one form', async () => {
		expect(USDC.contractAddress).toMatch(/^0x/);
		expect(await checkDepositTransfers(quote(honestToken), USDC)).toEqual({
			verified: { chainId: '8453', to: USDC.contractAddress!.toLowerCase(), value: '0', data: transferData(DEPOSIT, 100000000n) },
		});
	});

	it('a native transfer of amountIn to the deposit address, with no data, is verified (chain IDs in any notation)', async () => {
		for (const chainId of [8453, '8453', '0x2105', 'eip155:8453']) {
			const tx = { chainId, to: DEPOSIT.toLowerCase(), value: '100000000' };
			expect(await checkDepositTransfers(quote(tx), ETH)).toEqual({ verified: { chainId: '8453', to: DEPOSIT.toLowerCase(), value: '100000000', data: '0x' } });
		}
	});

	it('an answer without a transaction has nothing to verify', async () => {
		expect(await checkDepositTransfers({ quoteId: 'q', depositAddress: DEPOSIT, amountIn: '1' }, USDC)).toBeUndefined();
	});

	const refused: Array<[string, Record<string, unknown>, RouteAsset, RegExp]> = [
		['an unlimited approval of the attacker on the token', { ...honestToken, data: approveData(ATTACKER, 2n ** 256n - 1n) }, USDC, /approve\(0x000000…dead, 115792089237316195423570985008687907853269984665640564039457584007913129639935\), an approval/],
		['a transfer to another recipient', { ...honestToken, data: transferData(ATTACKER, 100000000n) }, USDC, /transfer\(0x000000…dead, 100000000\), not transfer\(0x3f5CE5…f0bE, amountIn\)/],
		['a transfer of another amount', { ...honestToken, data: transferData(DEPOSIT, 100000001n) }, USDC, /transfer\(0x3f5ce5…f0be, 100000001\)/],
		['another token contract', { ...honestToken, to: ATTACKER }, USDC, /goes to 0x000000…dEaD, not the USDC token contract/],
		['another chain', { ...honestToken, chainId: 1 }, USDC, /chainId is 1, not 8453 \(base\)/],
		['extra data after the transfer', { ...honestToken, data: `${transferData(DEPOSIT, 100000000n)}00` }, USDC, /a transfer call \(69 bytes\)/],
		['native coin sent along with a token transfer', { ...honestToken, value: '1' }, USDC, /also sends 1 of the native coin/],
		['a native transfer of more than amountIn', { chainId: 8453, to: DEPOSIT, value: '100000001' }, ETH, /sends 100000001 instead of the quote's amountIn 100000000/],
		['a native transfer to another address', { chainId: 8453, to: ATTACKER, value: '100000000' }, ETH, /goes to 0x000000…dEaD, not the deposit address/],
		['a native transfer carrying a call', { chainId: 8453, to: DEPOSIT, value: '100000000', data: approveData(ATTACKER, 1n) }, ETH, /carries approve\(.*a native deposit carries no data/],
		['a value that is not exact', { chainId: 8453, to: DEPOSIT, value: 1e20 }, ETH, /value is not a whole number/],
	];
	it.each(refused)('refuses %s, naming the difference', async (_, tx, source, message) => {
		const check = await checkDepositTransfers(quote(tx), source);
		expect(check).toEqual({ problem: expect.stringMatching(message) });
	});

	it('checks every transaction-shaped member whatever its name or depth, so an honest one cannot cover a hostile one', async () => {
		const hostile = { ...honestToken, data: approveData(ATTACKER, 1n) };
		const body = { ...quote(honestToken), calldata: { unsignedTransaction: hostile } };
		expect(transactionsIn(body).map((f) => f.path)).toEqual(['depositTransaction', 'calldata.unsignedTransaction']);
		expect(await checkDepositTransfers(body, USDC)).toEqual({ problem: expect.stringContaining('"calldata.unsignedTransaction"') });
		expect(await checkDepositTransfers(quote({ to: ATTACKER, input: '0x095ea7b3' }, 'tx'), USDC)).toEqual({ problem: expect.stringContaining('"tx"') });
	});

	it('cannot verify without the source asset in the listing, its chainId, or the quote amounts', async () => {
		expect(await checkDepositTransfers(quote(honestToken), undefined)).toEqual({ problem: expect.stringContaining('the routes listing does not list its source asset') });
		expect(await checkDepositTransfers(quote(honestToken), { ...USDC, chainId: null })).toEqual({ problem: expect.stringContaining('gives no chainId for base:USDC') });
		expect(await checkDepositTransfers({ ...quote(honestToken), amountIn: 100 }, USDC)).toEqual({ problem: expect.stringContaining('no amountIn') });
	});

	it('can be withheld from an answer that does not say which source it pays from', () => {
		const hostile = { to: ATTACKER, data: approveData(ATTACKER, 1n) };
		const body = { quoteId: 'q', depositTransaction: honestToken, nested: { list: [hostile, { note: 'kept' }] }, order: null };
		expect(withoutTransactions(body)).toEqual({
			body: { quoteId: 'q', nested: { list: [{ note: 'kept' }] }, order: null },
			removed: ['depositTransaction', 'nested.list[0]'],
		});
		const plain = { quoteId: 'q' };
		expect(withoutTransactions(plain).body).toBe(plain);
	});
});
