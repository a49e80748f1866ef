/**
 * What Accept and Decline ZeroConf Offer start from: a Bitcoin quote created by the node with the
 * ZeroConf opt-in, paid, its order waiting in awaiting_approval with a pending offer.
 */
import type { Sandbox } from '../../../../sandbox';
import { ADDR, control, orchestrationNode, quoteParams, run } from '../../../harness/orchestration';

export const BTC_QUOTE = quoteParams({ sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '100000', recipientAddress: ADDR.evm });

/** A paid ZeroConf opt-in quote's order in awaiting_approval (the sandbox holding orders still); its ID. */
export async function offeredOrder(sb: Sandbox): Promise<string> {
	const [quote] = await run(orchestrationNode({ sb, parameters: { ...BTC_QUOTE, options: { zeroconfEnabled: 'optIn' } } }));
	const sent = (await control(sb).requests({ path: '/v1/orchestration/quote' })).at(-1);
	expect(sent.body.zeroconfEnabled).toBe(true);
	const { orderId } = await control(sb).deposit({ depositAddress: quote.depositAddress, amount: quote.amountIn, autoAdvance: true });
	await control(sb).untilOrder(orderId, 'awaiting_approval');
	return orderId;
}
