/**
 * Order > Get by Quote against the sandbox over HTTP: funded false for an unpaid quote (no error),
 * the order with its decimals once paid, and the read token of a client key passed on.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { CLIENT_ALL, control, orchestrationNode, quoteParams, run, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });

describe('Order > Get by Quote', () => {
	it('an unpaid quote is funded: false without an error; paid, funded: true with the order and its decimals', async () => {
		const [quote] = await run(node(quoteParams()));
		const byQuote = node({ resource: 'order', operation: 'getByQuote', quoteId: quote.quoteId as string });
		const [unpaid] = await run(byQuote);
		expect(unpaid).toMatchObject({ quoteId: quote.quoteId, depositAddress: quote.depositAddress, order: null, funded: false });
		const { orderId } = await control(sb).deposit({ depositAddress: quote.depositAddress, amount: quote.amountIn });
		const [paid] = await run(byQuote);
		expect(paid).toMatchObject({ funded: true, order: { id: orderId, amountIn: '100000000', amountInFormatted: '100' } });
	});

	it('Get by Quote with a client key sends the read token and passes it on', async () => {
		const [quote] = await run(node(quoteParams(), CLIENT_ALL));
		const [out] = await run(node({ resource: 'order', operation: 'getByQuote', quoteId: quote.quoteId as string, readToken: quote.readToken as string }, CLIENT_ALL));
		expect(out).toMatchObject({ funded: false, readToken: quote.readToken });
	});

	it('withholds a deposit transaction it cannot verify (the answer does not name the source)', async () => {
		const [quote] = await run(node(quoteParams({ options: { includeCalldata: true } })));
		expect(quote.verifiedDepositTransaction).toBeDefined();
		const [out] = await run(node({ resource: 'order', operation: 'getByQuote', quoteId: quote.quoteId as string }));
		expect(out).toMatchObject({ quoteId: quote.quoteId, withheldTransactions: ['depositTransaction'], funded: false });
		expect(out).not.toHaveProperty('depositTransaction');
	});
});
