/**
 * Order > Approve / Reject / Refund Reprice against the sandbox over HTTP (public-notes
 * "Re-approvals"): the order read first and answered once per order and action, the approved
 * minimum by default the proposed one and never above the one locked before, Refund only for
 * Bitcoin-source orders, and a wait that ends on a re-approval naming these operations.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { ADDR, CLIENT_ALL, control, orchestrationNode, quoteParams, run, runError, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';
import { BTC_QUOTE } from './zeroconfOffer';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });

/** A funded order of `quote` that stops in awaiting_approval for a re-approval (the sandbox's `reprice` outcome) and goes on once answered. */
async function repricedOrder(quote: INodeParameters = quoteParams({ destinationChain: 'arbitrum', destinationAsset: 'USDC', recipientAddress: ADDR.evm })) {
	const [q] = await run(node(quote));
	const { orderId } = await control(sb).deposit({ depositAddress: q.depositAddress, amount: q.amountIn, outcome: 'reprice', autoAdvance: true });
	await control(sb).untilOrder(orderId, 'awaiting_approval');
	const [status] = await run(node({ resource: 'order', operation: 'getStatus', lookupBy: 'id', id: orderId }));
	// precondition: the order waits for an answer, with the figures the answer is checked against
	expect(status).toMatchObject({ status: 'awaiting_approval', reprice: { status: 'awaiting_approval', proposedMinAmountOut: expect.any(String), previousLockedMinAmountOut: expect.any(String) } });
	return { orderId: orderId as string, reprice: status.reprice as Record<string, string> };
}

const posts = async (action: string) => await control(sb).requests({ path: `/v1/orchestration/reprice/${action}`, method: 'POST' });

describe('Order > Approve Reprice', () => {
	it('approves the proposed minimum by default, once per order (a re-run replays), and the order completes', async () => {
		const { orderId, reprice } = await repricedOrder();
		const approve = node({ resource: 'order', operation: 'approveReprice', orderId });
		const [first] = await run(approve);
		expect(first).toMatchObject({ orderId, status: 'swapping', decision: 'approved', replayed: false, approvedMinAmountOut: reprice.proposedMinAmountOut });
		expect(first.approvedMinAmountOutFormatted).toMatch(/^[0-9]+(\.[0-9]+)?$/);
		const [again] = await run(node({ resource: 'order', operation: 'approveReprice', orderId }));
		expect(again).toMatchObject({ replayed: true });
		const sent = await posts('approve');
		expect(sent.map((r) => r.body)).toEqual([{ orderId, approvedMinAmountOut: reprice.proposedMinAmountOut }, { orderId, approvedMinAmountOut: reprice.proposedMinAmountOut }]);
		expect(sent[1].idempotencyKey).toBe(sent[0].idempotencyKey);
		const done = await control(sb).untilOrder(orderId, 'completed');
		expect(BigInt(done.order.amountOut)).toBeGreaterThanOrEqual(BigInt(reprice.proposedMinAmountOut));
	});

	it('takes a decimal minimum in the destination asset, and refuses one above the minimum locked before without sending', async () => {
		const { orderId, reprice } = await repricedOrder();
		const above = (BigInt(reprice.previousLockedMinAmountOut) + 1n).toString();
		const error = await runError(node({ resource: 'order', operation: 'approveReprice', orderId, approvedMinAmountOut: above, approvedAmountFormat: 'smallestUnit' }));
		expect(error.message).toBe(`Invalid "approvedMinAmountOut" in item 0: ${above} is above the minimum output locked before (${reprice.previousLockedMinAmountOut}); the service accepts at most that`);
		expect(await posts('approve')).toEqual([]);
		// USDC has 6 decimals: 1.5 is 1500000 smallest units
		const [ok] = await run(node({ resource: 'order', operation: 'approveReprice', orderId, approvedMinAmountOut: '1.5' }));
		expect(ok).toMatchObject({ approvedMinAmountOut: '1500000', approvedMinAmountOutFormatted: '1.5' });
	});

	it('refuses an order that waits for nothing, and a client key, before anything is answered', async () => {
		const [q] = await run(node(quoteParams()));
		const { orderId } = await control(sb).deposit({ depositAddress: q.depositAddress, amount: q.amountIn });
		const error = await runError(node({ resource: 'order', operation: 'approveReprice', orderId }));
		expect(error.message).toMatch(new RegExp(`^Order ${orderId} is processing and has no price re-approval to answer \\(item 0\\)$`));
		const client = await runError(node({ resource: 'order', operation: 'approveReprice', orderId }, CLIENT_ALL));
		expect(client.message).toMatch(/^Invalid "authentication" in item 0: answering a price re-approval needs a server key/);
		expect(await posts('approve')).toEqual([]);
	});
});

describe('Order > Reject Reprice', () => {
	it('rejects with a reason: the order fails', async () => {
		const { orderId } = await repricedOrder();
		const [out] = await run(node({ resource: 'order', operation: 'rejectReprice', orderId, reason: 'price too low' }));
		expect(out).toMatchObject({ orderId, status: 'failed', decision: 'rejected' });
		expect((await posts('reject')).map((r) => r.body)).toEqual([{ orderId, reason: 'price too low' }]);
	});
});

describe('Order > Refund Reprice', () => {
	it('a Bitcoin-source order: refunded to the quote\'s refund address by default', async () => {
		const { orderId } = await repricedOrder({ ...BTC_QUOTE, refundAddress: ADDR.bitcoin });
		const [out] = await run(node({ resource: 'order', operation: 'refundReprice', orderId }));
		expect(out).toMatchObject({ orderId, status: 'refunding', decision: 'refund requested' });
		expect((await posts('refund')).map((r) => r.body)).toEqual([{ orderId }]);
	});

	it('any other source is refused before sending, naming the other answers', async () => {
		const { orderId } = await repricedOrder();
		const error = await runError(node({ resource: 'order', operation: 'refundReprice', orderId }));
		expect(error.message).toBe(`Invalid "orderId" in item 0: a refund of a re-approval is offered only for Bitcoin-source orders; this order's source is base: approve or reject it`);
		expect(await posts('refund')).toEqual([]);
	});
});

describe('Get Status waiting on a re-approval', () => {
	it('ends as action required with the figures in the destination asset and the answers to give', async () => {
		const { orderId, reprice } = await repricedOrder({ ...BTC_QUOTE, refundAddress: ADDR.bitcoin });
		const [out] = await run(node({ resource: 'order', operation: 'getStatus', lookupBy: 'id', id: orderId, waitUntilFinal: true, waitTimeoutSeconds: 60 }));
		expect(out).toMatchObject({ waitEndedBy: 'actionRequired', actionRequired: { reason: 'repriceApproval', operations: ['Order > Approve Reprice', 'Order > Reject Reprice', 'Order > Refund Reprice'] } });
		const shown = (out.actionRequired as { reprice: Record<string, string>; message: string });
		expect(shown.reprice.proposedMinAmountOut).toBe(reprice.proposedMinAmountOut);
		expect(shown.message).toContain(`proposes a minimum of ${shown.reprice.proposedMinAmountOutFormatted} USDC`);
	});
});
