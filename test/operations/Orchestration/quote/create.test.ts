/**
 * Quote > Create against the sandbox over HTTP: the answer with its expiry, memo flag and formatted
 * amounts, exact decimal conversion, one quote per item however often n8n retries it, bad input
 * refused before any request (naming the field and the item), and no secret in outputs or errors.
 */
import type { INodeExecutionData, INodeParameters, IRunExecutionData } from 'n8n-workflow';
import { Orchestration } from '../../../../nodes/Orchestration/Orchestration.node';
import { core } from '../../../harness/n8n';
import type { Sandbox } from '../../../../sandbox';
import {
	ADDR,
	CLIENT_ALL,
	control,
	items,
	orchestrationNode,
	quoteParams,
	run,
	runError,
	SERVER_KEY,
	serialized,
	startTestSandbox,
} from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const emptyRunData = (): IRunExecutionData =>
	({
		version: 1,
		startData: {},
		resultData: { runData: {}, pinData: {} },
		executionData: { contextData: {}, nodeExecutionStack: [], metadata: {}, waitingExecution: {}, waitingExecutionSource: {} },
	}) as unknown as IRunExecutionData;

const quotePosts = async () => await control(sb).requests({ path: '/v1/orchestration/quote', method: 'POST' });

describe('Quote > Create', () => {
	it('with a server key: the quote untouched plus expiry, memo flag and formatted amounts', async () => {
		const started = Date.now();
		const [out] = await run(orchestrationNode({ sb, parameters: quoteParams() }));
		const finished = Date.now();
		expect(out).toMatchObject({
			amountIn: '100000000',
			amountInFormatted: '100',
			estimatedOut: '99700',
			estimatedOutFormatted: '0.000997',
			feeAmount: '300000',
			feeAmountFormatted: '0.3',
			totalFeeAmountFormatted: expect.any(String),
			feeAsset: 'USDC',
			depositMemoRequired: false,
		});
		expect(out.quoteId).toEqual(expect.any(String));
		expect(out.readToken).toBeUndefined();
		// Formatted fields sit right after the field they format.
		const keys = Object.keys(out);
		expect(keys[keys.indexOf('amountIn') + 1]).toBe('amountInFormatted');
		expect(keys[keys.indexOf('estimatedOut') + 1]).toBe('estimatedOutFormatted');
		// the seconds left when the node made the item: between what was left after the run and before it
		const expiresAt = Date.parse(out.expiresAt as string);
		expect(out.secondsUntilExpiry).toBeGreaterThanOrEqual(Math.floor((expiresAt - finished) / 1000));
		expect(out.secondsUntilExpiry).toBeLessThanOrEqual(Math.ceil((expiresAt - started) / 1000));
		const [post] = await quotePosts();
		expect(post.body).toEqual({
			sourceChain: 'base',
			sourceAsset: 'USDC',
			destinationChain: 'bitcoin',
			destinationAsset: 'BTC',
			amount: '100000000',
			recipientAddress: ADDR.bitcoin,
			amountMode: 'exact_in',
			deliveryMode: 'variable',
		});
		expect(post.idempotencyKey).toMatch(/^n8n-[0-9a-f]{64}$/);
	});

	it('with a client key: returns the quote-bound read token', async () => {
		const [out] = await run(orchestrationNode({ sb, key: CLIENT_ALL, parameters: quoteParams() }));
		expect(out.readToken).toEqual(expect.any(String));
		expect(out.amountInFormatted).toBe('100');
		expect((await quotePosts())[0].keyType).toBe('client');
	});

	it('flags a deposit that needs a memo (XRP) and passes the memo on', async () => {
		const [out] = await run(orchestrationNode({ sb, parameters: quoteParams({ sourceChain: 'xrp', sourceAsset: 'XRP' }) }));
		expect(out.depositMemoRequired).toBe(true);
		expect(out.depositMemo).toMatch(/^[0-9]+$/);
	});

	it('converts decimal amounts exactly with the asset decimals, both ways', async () => {
		const usdc = await run(
			orchestrationNode({ sb, parameters: quoteParams({ amountFormat: 'decimal', amount: '100.000001' }) }),
		);
		expect(usdc[0]).toMatchObject({ amountIn: '100000001', amountInFormatted: '100.000001' });
		const btc = await run(
			orchestrationNode({
				sb,
				parameters: quoteParams({
					sourceChain: 'bitcoin',
					sourceAsset: 'BTC',
					destinationChain: 'base',
					destinationAsset: 'USDC',
					recipientAddress: ADDR.evm,
					amountFormat: 'decimal',
					amount: '1.5',
				}),
			}),
		);
		expect(btc[0]).toMatchObject({ amountIn: '150000000', amountInFormatted: '1.5' });
		// 1.5 BTC at $100,000 minus 30 bps = 149,550 USDC exactly
		expect(btc[0]).toMatchObject({ estimatedOut: '149550000000', estimatedOutFormatted: '149550' });
		expect((await quotePosts()).map((r) => r.body.amount)).toEqual(['100000001', '150000000']);
	});

	it('sends 0.000001 USDC as 1 smallest unit (the service then refuses it as below the route minimum)', async () => {
		const error = await runError(orchestrationNode({ sb, parameters: quoteParams({ amountFormat: 'decimal', amount: '0.000001' }) }));
		expect(error.message).toContain('amount');
		expect((await quotePosts()).map((r) => r.body.amount)).toEqual(['1']);
	});

	it('uses the destination decimals for an exact_out decimal amount and checks whole cents first', async () => {
		const base = {
			sourceChain: 'bitcoin',
			sourceAsset: 'BTC',
			destinationChain: 'base',
			destinationAsset: 'USDC',
			recipientAddress: ADDR.evm,
			amountMode: 'exact_out',
			amountFormat: 'decimal',
			refundAddress: ADDR.bitcoin,
		};
		const [out] = await run(orchestrationNode({ sb, parameters: quoteParams({ ...base, amount: '25.5' }) }));
		expect(out).toMatchObject({ estimatedOut: '25500000', estimatedOutFormatted: '25.5', amountMode: 'exact_out' });
		const error = await runError(orchestrationNode({ sb, parameters: quoteParams({ ...base, amount: '25.505' }) }));
		expect(error.message).toMatch(/^Invalid "amount" in item 0: .*whole number of cents/);
		expect((await quotePosts()).length).toBe(1);
	});

	it('refuses more decimals than the asset has, before the quote is requested', async () => {
		const error = await runError(orchestrationNode({ sb, parameters: quoteParams({ amountFormat: 'decimal', amount: '1.0000001' }) }));
		expect(error.message).toBe('Invalid "amount" in item 0: amount "1.0000001" has 7 decimal places but base:USDC allows 6');
		expect(await quotePosts()).toEqual([]);
	});
});

describe('Quote > Create: decimal amounts of the live routes listing', () => {
	it('a Decimal amount of an asset whose route set is {except: [...]} keeps its decimals', async () => {
		const [quote] = await run(orchestrationNode({ sb, parameters: quoteParams({ amountFormat: 'decimal', amount: '100.5' }) }));
		expect(quote.amountIn).toBe('100500000');
		const [sent] = await control(sb).requests({ path: '/v1/orchestration/quote' });
		expect(sent.body.amount).toBe('100500000');
	});
});

describe('Quote > Create: idempotency (money never moves twice)', () => {
	it('a loop (the node run again in the same execution) gets new keys; a retry of either run reuses its own', async () => {
		const h = orchestrationNode({ sb, executionId: 'exec-loop-1', parameters: quoteParams() });
		// n8n's run index: 0 for the first pass of a loop, 1 for the next; Retry On Fail keeps it.
		const runAt = async (runIndex: number) => {
			const input = items();
			const inputData = { main: [input] };
			const ctx = new core.ExecuteContext(h.workflow, h.node, h.additionalData, 'manual', emptyRunData(), runIndex, input, inputData, { node: h.node, data: inputData, source: null }, []);
			const [out] = (await new Orchestration().execute.call(ctx)) as INodeExecutionData[][];
			return out[0].json;
		};
		const first = await runAt(0);
		const second = await runAt(1);
		const retried = await runAt(1);
		expect(second.quoteId).not.toBe(first.quoteId);
		expect(retried.quoteId).toBe(second.quoteId);
		const keys = (await quotePosts()).map((p) => p.idempotencyKey);
		expect(keys[1]).not.toBe(keys[0]);
		expect(keys[2]).toBe(keys[1]);
	});

	it('a retried run of the same item (same execution) replays the first quote: one quote in the sandbox', async () => {
		const h = orchestrationNode({ sb, executionId: 'exec-retry-1', parameters: quoteParams() });
		const [first] = await run(h);
		const [second] = await run(h);
		expect(second.quoteId).toBe(first.quoteId);
		const posts = await quotePosts();
		expect(posts).toHaveLength(2);
		expect(posts[1].idempotencyKey).toBe(posts[0].idempotencyKey);
		expect(posts.map((p) => p.replayed)).toEqual([false, true]);
		expect(await control(sb).quotes({ idempotencyKey: posts[0].idempotencyKey })).toHaveLength(1);
	});

	it('a new execution gets a new key and a new quote', async () => {
		const [a] = await run(orchestrationNode({ sb, executionId: 'exec-a', parameters: quoteParams() }));
		const [b] = await run(orchestrationNode({ sb, executionId: 'exec-b', parameters: quoteParams() }));
		expect(a.quoteId).not.toBe(b.quoteId);
		const keys = (await quotePosts()).map((p) => p.idempotencyKey);
		expect(new Set(keys).size).toBe(2);
	});

	it('the transport retries a 503 with the same key: one quote', async () => {
		await control(sb).fault({ path: '/v1/orchestration/quote', mode: 'status', status: 503, times: 1 });
		const [out] = await run(orchestrationNode({ sb, executionId: 'exec-503', parameters: quoteParams() }));
		const posts = await quotePosts();
		expect(posts.map((p) => p.status)).toEqual([503, 200]);
		expect(posts[1].idempotencyKey).toBe(posts[0].idempotencyKey);
		const quotes = await control(sb).quotes({ idempotencyKey: posts[0].idempotencyKey });
		expect(quotes.map((q) => q.quoteId)).toEqual([out.quoteId]);
	});

	it('an explicit key (e.g. a payout id) dedupes across executions', async () => {
		const params = quoteParams({ options: { idempotencyKey: 'payout-2024-0001' } });
		const [a] = await run(orchestrationNode({ sb, executionId: 'exec-x', parameters: params }));
		const [b] = await run(orchestrationNode({ sb, executionId: 'exec-y', parameters: params }));
		expect(b.quoteId).toBe(a.quoteId);
		expect((await quotePosts()).map((p) => p.idempotencyKey)).toEqual(['payout-2024-0001', 'payout-2024-0001']);
	});

	it('an explicit key outside printable ASCII is refused before any request', async () => {
		const error = await runError(orchestrationNode({ sb, parameters: quoteParams({ options: { idempotencyKey: 'payout\u00e9' } }) }));
		expect(error.message).toMatch(/^Invalid "idempotencyKey" in item 0: has a character outside printable ASCII/);
		expect(await control(sb).requests()).toEqual([]);
	});
});

describe('Quote > Create: bad input is rejected before any request, naming the field and the item', () => {
	const rejects = async (parameters: INodeParameters, message: RegExp, key = SERVER_KEY) => {
		const error = await runError(orchestrationNode({ sb, key, parameters: quoteParams(parameters) }));
		expect(error.message).toMatch(message);
		expect(await control(sb).requests()).toEqual([]);
		return error;
	};

	it('an unknown chain: not a chain name, or not one the routes listing offers', async () => {
		await rejects({ sourceChain: 'Narnia Land' }, /^Invalid "sourceChain" in item 0: "Narnia Land" is not a chain name/);
		await rejects({ sourceChain: 'narnia' }, /^Invalid "sourceChain" in item 0: "narnia" is not a chain the routes listing offers \(GET \/v2\/orchestration\/routes lists \d+: arbitrum, arc, /);
	});

	it('an unknown asset: not an asset input, or not one the routes listing offers on the chain', async () => {
		await rejects({ destinationAsset: 'NO PE' }, /^Invalid "destinationAsset" in item 0: must be an asset symbol/);
		await rejects({ destinationAsset: 'NOPE' }, /^Invalid "destinationAsset" in item 0: "NOPE" is not an asset the routes listing offers on bitcoin \(GET \/v2\/orchestration\/routes lists there: bitcoin:BTC\)$/);
	});

	it('malformed amounts in both formats', async () => {
		await rejects({ amount: '12abc' }, /^Invalid "amount" in item 0: "12abc" must be a whole number of smallest units/);
		await rejects({ amount: '1.5' }, /^Invalid "amount" in item 0: .*set "Amount Format" to Decimal/);
		await rejects({ amountFormat: 'decimal', amount: '1.2.3' }, /^Invalid "amount" in item 0: amount "1.2.3" has more than one decimal point/);
		await rejects({ amountFormat: 'decimal', amount: '-5' }, /^Invalid "amount" in item 0: .*must not have a sign/);
	});

	it('too many fee entries (more than 16 app fees)', async () => {
		const fee = Array.from({ length: 17 }, (_, i) => ({ recipient: `0x${String(i).padStart(40, '0')}`, feeBps: 1 }));
		await rejects({ options: { appFees: { fee } } }, /^Invalid "appFees" in item 0: Array must contain at most 16 element\(s\)/);
	});

	it('app fees together with affiliate ids', async () => {
		await rejects(
			{
				options: {
					appFees: { fee: [{ recipient: ADDR.evm, feeBps: 10 }] },
					affiliateIds: { affiliate: [{ affiliateId: 'aff_sandbox_alpha' }] },
				},
			},
			/^Invalid "affiliateIds" in item 0: cannot be combined with appFees/,
		);
	});

	it('a client key sending fee fields (app fees, affiliate fee overrides, or either in the raw JSON)', async () => {
		await rejects({ options: { appFees: { fee: [{ recipient: ADDR.evm, feeBps: 10 }] } } }, /^Invalid "appFees" in item 0: client keys cannot send fee fields/, CLIENT_ALL);
		await rejects(
			{ options: { affiliateIds: { affiliate: [{ affiliateId: 'aff_sandbox_alpha', feeBps: '20' }] } } },
			/^Invalid "affiliateIds" in item 0: client keys cannot send affiliate fee overrides/,
			CLIENT_ALL,
		);
		await rejects(
			{ options: { additionalFields: JSON.stringify({ appFees: [{ recipient: ADDR.evm, feeBps: 5 }] }) } },
			/^Invalid "appFees" in item 0: client keys cannot send fee fields/,
			CLIENT_ALL,
		);
	});

	it('names the failing item among several (continue on fail keeps the others)', async () => {
		const h = orchestrationNode({ sb, continueOnFail: true, parameters: quoteParams({ amount: '={{ $json.amount }}' }) });
		const out = await run(h, items(3, (i) => ({ amount: i === 2 ? '12x' : '100000000' })));
		expect(out[0].quoteId).toEqual(expect.any(String));
		expect(out[1].quoteId).toEqual(expect.any(String));
		expect(out[2].error).toMatch(/^Invalid "amount" in item 2:/);
	});
});

describe('Quote > Create: secrets', () => {
	it('never appear in outputs or errors', async () => {
		const ok = await run(orchestrationNode({ sb, key: CLIENT_ALL, parameters: quoteParams() }));
		const failed = await runError(orchestrationNode({ sb, key: CLIENT_ALL, parameters: quoteParams({ destinationChain: 'base' }) }));
		for (const text of [serialized(ok), serialized(failed)]) {
			expect(text).not.toContain(CLIENT_ALL);
			expect(text).not.toContain(SERVER_KEY);
		}
	});
});
