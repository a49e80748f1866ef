/**
 * Quote > Create with Include Calldata hands on only a verified deposit transfer (spec §2.2: it
 * needs no approval and only funds the deposit): checked against the quote and the routes listing.
 */
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, quoteParams, routesListing, run, runError, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
	await fetch(`${sb.orchestrationUrl}/sandbox/faults`, { method: 'DELETE' });
});

/** The sandbox answers the next two fitting quotes with this hostile transfer (docs/sandbox.md, "Hostile deposit transfers"). */
async function hostile(depositTransaction: Record<string, unknown>): Promise<void> {
	const res = await fetch(`${sb.orchestrationUrl}/sandbox/faults`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ path: '/v1/orchestration/quote', mode: 'depositTransaction', depositTransaction, times: 2 }),
	});
	expect(res.ok).toBe(true);
}

const word = (hex: string) => hex.toLowerCase().replace(/^0x/, '').padStart(64, '0');

describe('the verified deposit transfer', () => {
	it('an ERC-20 source: transfer(depositAddress, amountIn) on the token contract, on the source chain', async () => {
		const usdc = (await routesListing(sb)).find((a) => a.id === 'base:USDC') as unknown as { contractAddress: string; chainId: string };
		const [quote] = await run(orchestrationNode({ sb, parameters: quoteParams({ options: { includeCalldata: true } }) }));
		const deposit = quote.depositAddress as string;
		expect(quote.verifiedDepositTransaction).toEqual({
			chainId: usdc.chainId.replace(/^eip155:/, ''),
			to: usdc.contractAddress.toLowerCase(),
			value: '0',
			data: `0xa9059cbb${word(deposit)}${word(BigInt(quote.amountIn as string).toString(16))}`,
		});
	});

	it('a native source: amountIn to the deposit address, no data', async () => {
		const params = quoteParams({ sourceAsset: 'ETH', amount: '1000000000000000000', options: { includeCalldata: true } });
		const [quote] = await run(orchestrationNode({ sb, parameters: params }));
		expect(quote.verifiedDepositTransaction).toMatchObject({ to: (quote.depositAddress as string).toLowerCase(), value: quote.amountIn, data: '0x' });
	});

	it('without Include Calldata there is nothing to verify and none is output', async () => {
		const [quote] = await run(orchestrationNode({ sb, parameters: quoteParams() }));
		expect(quote).not.toHaveProperty('verifiedDepositTransaction');
	});
});

describe('a hostile transfer fails the item, naming the difference; nothing is handed on', () => {
	const TOKEN = quoteParams({ options: { includeCalldata: true } });
	const NATIVE = quoteParams({ sourceAsset: 'ETH', amount: '1000000000000000000', options: { includeCalldata: true } });
	it.each([
		['an unlimited approval of an attacker', { variant: 'approve' }, TOKEN, /is approve\(0xbadbad…bad0, 115792089237316195423570985008687907853269984665640564039457584007913129639935\), an approval/],
		['a transfer to another recipient', { variant: 'recipient' }, TOKEN, /is transfer\(0xbadbad…bad0, 100000000\), not transfer\(/],
		['another amount', { variant: 'amount' }, TOKEN, /is transfer\(0x[0-9a-f]{6}…[0-9a-f]{4}, 100000001\)/],
		['another token contract', { variant: 'token' }, TOKEN, /goes to 0x[0-9a-fA-F]{6}…[0-9a-fA-F]{4}, not the USDC token contract/],
		['another chain', { variant: 'chainId' }, TOKEN, /its chainId is 1, not 8453 \(base\)/],
		['appended data', { variant: 'extraData' }, TOKEN, /a transfer call \(100 bytes\)/],
		['value on a token transfer', { variant: 'erc20Value' }, TOKEN, /also sends 100000000 of the native coin/],
		['a native transfer to another recipient', { variant: 'recipient' }, NATIVE, /goes to 0xbadbad…bad0, not the deposit address/],
		['a native transfer of more', { variant: 'amount' }, NATIVE, /sends 1000000000000000001 instead of the quote's amountIn 1000000000000000000/],
		['a hostile transfer under another name, beside the honest one', { variant: 'approve', member: 'calldata.transaction', keepHonest: true }, TOKEN, /"calldata\.transaction" is not the deposit transfer/],
	])('%s', async (_, fault, parameters, message) => {
		await hostile(fault);
		const error = await runError(orchestrationNode({ sb, parameters }));
		expect(error.message).toMatch(message);
		expect(error.message).toMatch(/\(item 0\)$/);
		expect((error as { errorCode?: string }).errorCode).toBe('deposit_transfer_mismatch');
		// precondition: the fault hit this quote
		expect((await control(sb).requests({ path: '/v1/orchestration/quote', method: 'POST' })).length).toBeGreaterThan(0);
		const [item] = await run(orchestrationNode({ sb, continueOnFail: true, parameters }));
		expect(item).toMatchObject({ errorCode: 'deposit_transfer_mismatch' });
		expect(item).not.toHaveProperty('verifiedDepositTransaction');
		expect(item).not.toHaveProperty('depositAddress');
	});

	it('the honest transfer in another chain ID form or under another name is verified', async () => {
		for (const fault of [{ variant: 'honest', chainIdForm: 'caip' }, { variant: 'honest', chainIdForm: 'hex' }, { variant: 'honest', member: 'unsignedTransaction' }]) {
			await hostile(fault);
			const [quote] = await run(orchestrationNode({ sb, parameters: TOKEN }));
			expect(quote.verifiedDepositTransaction).toMatchObject({ chainId: '8453', value: '0' });
		}
	});
});
