/**
 * Quote > Create with Include Calldata hands on only a verified deposit transfer (spec §2.2: it
 * needs no approval and only funds the deposit): checked against the quote and the routes listing.
 */
import type { Sandbox } from '../../../../sandbox';
import { orchestrationNode, quoteParams, routesListing, run, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());

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
