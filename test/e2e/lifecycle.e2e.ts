/**
 * Issue 21 in a real n8n 2.41.1 (`n8n execute`): an order reaching awaiting_approval with a ZeroConf
 * offer is accepted from the workflow and completes; an unpaid quote is looked up without an error;
 * an order is found again by its deposit transaction.
 */
import { closeEnv, createEnv, executeWorkflow, type E2eEnv, type RunResult } from './env';
import { quoteParams } from './orchestration.flows';
import { CREDS, T, linearWorkflow, postJson, type WfNode } from './workflows';

const EVM_ADDRESS = '0x1111111111111111111111111111111111111111';
const DEPOSIT_TX = `0x${'c4'.repeat(32)}`;

let env: E2eEnv;

function orch(name: string, parameters: Record<string, unknown>): WfNode {
	return { name, type: T.orchestration, parameters: { authentication: 'serverKey', ...parameters }, credentials: CREDS.server };
}

function one(result: RunResult, node: string): Record<string, unknown> {
	if (!result.ok) throw new Error(`the workflow failed:\n${result.raw.slice(-4000)}`);
	const items = result.outputs[node];
	if (!items?.length) throw new Error(`node "${node}" produced no items; ran: ${Object.keys(result.outputs).join(', ')}`);
	return items[0];
}

function zeroconfWorkflow(orchestrationUrl: string) {
	return linearWorkflow('e2eZeroconf', 'E2E ZeroConf offer accepted', [
		{ name: 'Start', type: T.manual },
		orch('Quote', {
			...quoteParams,
			sourceChain: 'bitcoin',
			sourceAsset: 'BTC',
			destinationChain: 'base',
			destinationAsset: 'USDC',
			amount: '0.001',
			recipientAddress: EVM_ADDRESS,
			options: { zeroconfEnabled: 'optIn' },
		}),
		postJson(
			'Pay deposit',
			`${orchestrationUrl}/sandbox/deposits`,
			"={{ JSON.stringify({ depositAddress: $('Quote').first().json.depositAddress, amount: $('Quote').first().json.amountIn }) }}",
		),
		// the sandbox moves one step every 150 ms (time scale 20): the offer is open well before 2 s
		{ name: 'Let the offer arrive', type: 'n8n-nodes-base.wait', typeVersion: 1.1, parameters: { resume: 'timeInterval', amount: 2, unit: 'seconds' } },
		orch('Offer', { resource: 'order', operation: 'getStatus', lookupBy: 'quoteId', quoteId: "={{ $('Quote').first().json.quoteId }}" }),
		orch('Accept', { resource: 'order', operation: 'acceptZeroconfOffer', orderId: "={{ $('Offer').first().json.id }}" }),
		orch('Final', {
			resource: 'order',
			operation: 'getStatus',
			lookupBy: 'id',
			id: "={{ $('Accept').first().json.orderId }}",
			waitUntilFinal: true,
			pollIntervalSeconds: 3,
			waitTimeoutSeconds: 120,
		}),
	]);
}

function findAgainWorkflow(orchestrationUrl: string) {
	return linearWorkflow('e2eFindAgain', 'E2E find an order again', [
		{ name: 'Start', type: T.manual },
		orch('Quote', { ...quoteParams, amount: '75.5' }),
		orch('Unpaid', { resource: 'order', operation: 'getByQuote', quoteId: "={{ $('Quote').first().json.quoteId }}" }),
		postJson(
			'Pay deposit',
			`${orchestrationUrl}/sandbox/deposits`,
			`={{ JSON.stringify({ depositAddress: $('Quote').first().json.depositAddress, amount: $('Quote').first().json.amountIn, txHash: '${DEPOSIT_TX}' }) }}`,
		),
		orch('Paid', { resource: 'order', operation: 'getByQuote', quoteId: "={{ $('Quote').first().json.quoteId }}" }),
		orch('By transaction', { resource: 'order', operation: 'getStatus', lookupBy: 'txHash', txHash: DEPOSIT_TX, sourceChain: 'base' }),
	]);
}

beforeAll(async () => {
	env = await createEnv();
	const url = env.sandbox.orchestrationUrl;
	await env.n8n.importWorkflows([zeroconfWorkflow(url), findAgainWorkflow(url)]);
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
});

describe('the life of an order from n8n (issue 21)', () => {
	it('an order reaching awaiting_approval is accepted from the workflow and completes', async () => {
		const result = await executeWorkflow(env, 'e2eZeroconf');
		const offer = one(result, 'Offer');
		expect(offer).toMatchObject({ status: 'awaiting_approval', zeroconfOffer: { status: 'pending', version: 1 } });
		const orderId = offer.id as string;
		expect(one(result, 'Accept')).toEqual({ orderId, status: 'processing', decision: 'accepted', replayed: false });
		const final = one(result, 'Final');
		expect(final).toMatchObject({ id: orderId, status: 'completed', isFinal: true, zeroconfOffer: { status: 'accepted' } });
		expect(final.stages).toEqual(expect.arrayContaining(['zeroconf_offer_accepted', 'zeroconf_accepted', 'deposit_claimed']));
		// What the service saw: one accept, under a key of its own, taken (not a replay of another operation's).
		const requests = env.sandbox.orchestration.ctx.state.requests;
		const sent = requests.filter((r) => r.path === '/v1/orchestration/zeroconf/accept');
		expect(sent.map((r) => [r.status, r.replayed, r.body])).toEqual([[200, false, { orderId }]]);
		const others = requests.filter((r) => r.path !== '/v1/orchestration/zeroconf/accept' && r.idempotencyKey !== null);
		expect(others.length).toBeGreaterThan(0);
		expect(others.map((r) => r.idempotencyKey)).not.toContain(sent[0].idempotencyKey);
	});

	it('an unpaid quote is looked up without an error; the order is found again by its deposit transaction', async () => {
		const result = await executeWorkflow(env, 'e2eFindAgain');
		const quote = one(result, 'Quote');
		expect(one(result, 'Unpaid')).toMatchObject({ quoteId: quote.quoteId, order: null, funded: false });
		const paid = one(result, 'Paid');
		expect(paid).toMatchObject({ funded: true, order: { quoteId: quote.quoteId, amountInFormatted: '75.5' } });
		const orderId = (paid.order as { id: string }).id;
		expect(one(result, 'By transaction')).toMatchObject({ id: orderId, quoteId: quote.quoteId, amountInFormatted: '75.5' });
	});
});
