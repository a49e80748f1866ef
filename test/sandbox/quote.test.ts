import { QuoteResponseSchema } from '../../sandbox/orchestration/responses';
import { ALL_SCOPES, CHECKOUT, type Client, quoteBody, SERVER, sleep, start } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());

const quote = (body: Record<string, unknown>, key: string | undefined = SERVER) => api.post('/v1/orchestration/quote', body, { key });

describe('quote creation (spec §4.1)', () => {
	it('answers a quote that matches the spec shape, firm for 2 minutes (scaled)', async () => {
		const r = await quote(quoteBody());
		expect(r.status).toBe(200);
		expect(QuoteResponseSchema.safeParse(r.body).success).toBe(true);
		expect(r.body.readToken).toBeUndefined();
		expect(r.body.depositAddress).toMatch(/^0x[0-9a-f]{40}$/);
		expect(r.body.route).toEqual(['USDC', 'BTC']);
		// 120 s / 100, from the moment the sandbox made it (between the request and its answer)
		expect(Date.parse(r.body.expiresAt)).toBeGreaterThanOrEqual(r.sentAt + 1200);
		expect(Date.parse(r.body.expiresAt)).toBeLessThanOrEqual(r.receivedAt + 1200);
	});

	it('computes consistent economics: 100 USDC at $100,000/BTC minus 30 bps', async () => {
		const r = await quote(quoteBody());
		expect(r.body).toMatchObject({ amountIn: '100000000', feeAmount: '300000', feeBps: 30, feeAsset: 'USDC', amountMode: 'exact_in' });
		// (100 - 0.3) USD / 100,000 USD per BTC = 0.000997 BTC = 99,700 sats
		expect(r.body.estimatedOut).toBe('99700');
		expect(BigInt(r.body.totalFeeAmount)).toBe(BigInt(r.body.feeAmount) + BigInt(r.body.roundingFeeAmount));
	});

	it('gives every quote its own deposit address in the source chain format, with memos where needed', async () => {
		const a = await quote(quoteBody());
		const b = await quote(quoteBody());
		expect(a.body.depositAddress).not.toBe(b.body.depositAddress);
		const xrp = await quote(quoteBody({ sourceChain: 'xrp', sourceAsset: 'XRP', amount: '100000000' }));
		expect(xrp.status).toBe(200);
		expect(xrp.body.depositAddress).toMatch(/^r/);
		expect(xrp.body.depositMemo).toMatch(/^[0-9]+$/);
		const btc = await quote(quoteBody({ sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '100000', recipientAddress: '0x1111111111111111111111111111111111111111' }));
		expect(btc.body.depositAddress).toMatch(/^bc1q/);
		expect(btc.body.depositMemo).toBeUndefined();
	});

	it('pins the destination amount under exact_out and computes amountIn', async () => {
		const r = await quote(quoteBody({
			sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC',
			amount: '50000000', amountMode: 'exact_out', recipientAddress: '0x1111111111111111111111111111111111111111',
			refundAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
		}));
		expect(r.status).toBe(200);
		expect(r.body.estimatedOut).toBe('50000000');
		// 50 USD = 50,000 sats before fees; 30 bps on top, rounded up
		expect(r.body.amountIn).toBe('50151');
		expect(BigInt(r.body.amountIn) - BigInt(r.body.feeAmount)).toBe(50000n);
	});

	it('rejects stablecoin exact_out amounts that are not whole cents', async () => {
		const r = await quote(quoteBody({
			sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC',
			amount: '50000001', amountMode: 'exact_out', recipientAddress: '0x1111111111111111111111111111111111111111',
			refundAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
		}));
		expect(r.status).toBe(400);
		expect(r.body.error.code).toBe('invalid_request');
		expect(r.body.error.message).toMatch(/whole cents/);
	});

	it('requires a refund address for exact_out and Lightning destinations (public-notes)', async () => {
		const r = await quote(quoteBody({ destinationChain: 'lightning', destinationAsset: 'BTC', recipientAddress: 'alice@example.com' }));
		expect(r.status).toBe(400);
		expect(r.body.error.message).toMatch(/^refundAddress/);
		const ok = await quote(quoteBody({ destinationChain: 'lightning', destinationAsset: 'BTC', recipientAddress: 'alice@example.com', refundAddress: '0x1111111111111111111111111111111111111111', refundChain: 'base' }));
		expect(ok.status).toBe(200);
		const wrongChain = await quote(quoteBody({ destinationChain: 'lightning', destinationAsset: 'BTC', recipientAddress: 'alice@example.com', refundAddress: '0x1111111111111111111111111111111111111111', refundChain: 'ethereum' }));
		expect(wrongChain.body.error.message).toMatch(/^refundChain/);
	});

	it('names the zod field path of invalid requests', async () => {
		const cases: Array<[Record<string, unknown>, RegExp]> = [
			[quoteBody({ amount: '1.5' }), /^amount:/],
			[quoteBody({ sourceChain: 'Atlantis' }), /^sourceChain:/],
			[quoteBody({ recipientAddress: '' }), /^recipientAddress:/],
			[quoteBody({ slippageBps: 1001 }), /^slippageBps:/],
			[quoteBody({ appFees: Array.from({ length: 17 }, () => ({ recipient: '0x1111111111111111111111111111111111111111', feeBps: 1 })) }), /^appFees:/],
			[quoteBody({ affiliateIds: [] }), /^affiliateIds:/],
		];
		for (const [body, message] of cases) {
			const r = await quote(body);
			expect(r.status).toBe(400);
			expect(r.body.error.code).toBe('invalid_request');
			expect(r.body.error.message).toMatch(message);
		}
	});

	it('ignores unknown top-level fields (spec §4.1, §9)', async () => {
		const r = await quote(quoteBody({ someFutureField: { nested: true }, anotherOne: 5 }));
		expect(r.status).toBe(200);
	});

	it('accepts TON as the alias of ton:GRAM and answers GRAM (spec §2.1)', async () => {
		const r = await quote(quoteBody({ sourceChain: 'ton', sourceAsset: 'TON', amount: '50000000000' }));
		expect(r.status).toBe(200);
		expect(r.body.sourceAsset).toBe('GRAM');
		expect(r.body.route[0]).toBe('GRAM');
		expect(r.body.depositMemo).toMatch(/^sbx-/);
		const key = await quote(quoteBody({ sourceChain: 'base', sourceAsset: 'base:USDC' }));
		expect(key.status).toBe(200);
		const mismatch = await quote(quoteBody({ sourceAsset: 'ethereum:USDC' }));
		expect(mismatch.status).toBe(400);
	});

	it('answers unsupported_route for unknown assets and unreachable destinations', async () => {
		expect((await quote(quoteBody({ sourceAsset: 'XMR' }))).body.error.code).toBe('unsupported_route');
		const noRoute = await quote(quoteBody({ sourceChain: 'bsc', sourceAsset: 'WBNB', amount: '10000000000000000000' }));
		expect(noRoute.body.error.code).toBe('unsupported_route');
	});

	it('refuses calldata for non-EVM sources and builds the deposit transfer for EVM ones', async () => {
		const bad = await quote(quoteBody({ sourceChain: 'solana', sourceAsset: 'SOL', amount: '1000000000', includeCalldata: true }));
		expect(bad.status).toBe(400);
		expect(bad.body.error.code).toBe('calldata_unsupported_source');
		const erc20 = await quote(quoteBody({ includeCalldata: true }));
		expect(erc20.status).toBe(200);
		const tx = erc20.body.depositTransaction;
		expect(tx.to).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
		expect(tx.data).toBe(`0xa9059cbb${erc20.body.depositAddress.slice(2).padStart(64, '0')}${(100000000).toString(16).padStart(64, '0')}`);
		const native = await quote(quoteBody({ sourceAsset: 'ETH', amount: '100000000000000000', includeCalldata: true }));
		expect(native.body.depositTransaction).toMatchObject({ to: native.body.depositAddress, value: '100000000000000000', data: '0x', chainId: 8453 });
	});

	it('enforces the route limits derived from the same catalogue', async () => {
		const small = await quote(quoteBody({ amount: '999999' }));
		expect(small.status).toBe(400);
		expect(small.body.error.message).toMatch(/minimum/);
		const big = await quote(quoteBody({ amount: '1000000000001' }));
		expect(big.body.error.message).toMatch(/maximum/);
	});

	it('offers fixed delivery only to destinations in route.fixedTo', async () => {
		const ok = await quote(quoteBody({ destinationChain: 'spark', destinationAsset: 'BTC', recipientAddress: 'sp1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq', deliveryMode: 'fixed' }));
		expect(ok.status).toBe(200);
		expect(ok.body).toMatchObject({ deliveryMode: 'fixed', lockedMinAmountOut: ok.body.estimatedOut });
		const no = await quote(quoteBody({ deliveryMode: 'fixed' }));
		expect(no.body.error.code).toBe('unsupported_route');
	});

	it('returns a quote-bound read token to client keys only', async () => {
		const r = await quote(quoteBody(), CHECKOUT);
		expect(r.status).toBe(200);
		expect(r.body.readToken).toMatch(/^rt_/);
	});

	it('creates quotes without Authorization (they cannot be submitted)', async () => {
		const r = await api.post('/v1/orchestration/quote', quoteBody());
		expect(r.status).toBe(200);
		expect(r.body.readToken).toBeUndefined();
		const s = await api.post('/v1/orchestration/submit', { quoteId: r.body.quoteId, txHash: '0xabc' }, { key: SERVER });
		expect(s.status).toBe(403);
		expect(s.body.error.code).toBe('forbidden');
	});

	it('adds app fees and affiliate fees to feeBps and rejects unknown affiliates', async () => {
		const fees = await quote(quoteBody({ appFees: [{ recipient: '0x2222222222222222222222222222222222222222', feeBps: 70 }] }));
		expect(fees.body.feeBps).toBe(100);
		expect(fees.body.appFeeAmount).toBe('700000');
		const aff = await quote(quoteBody({ affiliateId: 'aff_sandbox_alpha' }), ALL_SCOPES);
		expect(aff.body.feeBps).toBe(80);
		const unknown = await quote(quoteBody({ affiliateId: 'aff_nobody' }));
		expect(unknown.body.error.code).toBe('unsupported_fee_plan');
		const retired = await quote(quoteBody({ affiliateIds: ['aff_sandbox_retired'] }));
		expect(retired.body.error.code).toBe('unsupported_fee_plan');
		const both = await quote(quoteBody({ affiliateIds: ['aff_sandbox_alpha'], appFees: [{ recipient: 'x', feeBps: 1 }] }));
		expect(both.status).toBe(400);
	});
});

describe('estimate (public-notes): public, no side effects', () => {
	it('prices without creating a quote', async () => {
		const before = (await api.get('/sandbox/quotes')).body.quotes.length;
		const q = new URLSearchParams({ sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'bitcoin', destinationAsset: 'BTC', amount: '100000000', slippageBps: '50' });
		const r = await api.get(`/v1/orchestration/estimate?${q}`);
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({ estimatedOut: '99700', amountIn: '100000000' });
		expect(r.body.quoteId).toBeUndefined();
		expect((await api.get('/sandbox/quotes')).body.quotes.length).toBe(before);
		const bad = await api.get('/v1/orchestration/estimate?sourceChain=base');
		expect(bad.status).toBe(400);
		expect(bad.body.error.code).toBe('invalid_query');
	});
});

describe('offramp (spec §4.2)', () => {
	it('quotes exact-in to lightning:BTC for a $username, and refuses exact_out', async () => {
		const body = { sourceChain: 'base', sourceAsset: 'USDC', amount: '25000000', recipientAddress: '$alice', refundAddress: '0x1111111111111111111111111111111111111111', refundChain: 'base' };
		const ok = await api.post('/v1/orchestration/offramp', body, { key: SERVER });
		expect(ok.status).toBe(200);
		expect(ok.body).toMatchObject({ destinationChain: 'lightning', destinationAsset: 'BTC', amountMode: 'exact_in' });
		const bad = await api.post('/v1/orchestration/offramp', { ...body, amountMode: 'exact_out' }, { key: SERVER });
		expect(bad.status).toBe(400);
	});

	it('needs a refund address on the source chain, as a Lightning destination does on the live service (public-notes)', async () => {
		const body = { sourceChain: 'base', sourceAsset: 'USDC', amount: '25000000', recipientAddress: '$alice' };
		const none = await api.post('/v1/orchestration/offramp', body, { key: SERVER });
		expect([none.status, none.body.error.message]).toEqual([400, 'refundAddress: required for exact_out quotes and Lightning destinations']);
		const elsewhere = await api.post('/v1/orchestration/offramp', { ...body, refundAddress: '0x1111111111111111111111111111111111111111', refundChain: 'ethereum' }, { key: SERVER });
		expect(elsewhere.body.error.message).toMatch(/^refundChain: must be the source chain base/);
	});
});

describe('quote expiry (spec §3)', () => {
	it('refuses to submit an expired quote and creates no order for a deposit to it', async () => {
		const fast = await start({ timeScale: 5000 }); // 2 min -> 24 ms
		try {
			const q = await fast.api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER });
			await sleep(60);
			const s = await fast.api.post('/v1/orchestration/submit', { quoteId: q.body.quoteId, txHash: '0xabc' }, { key: SERVER });
			expect(s.status).toBe(409);
			expect(s.body.error.code).toBe('quote_expired');
			const d = await fast.api.post('/sandbox/deposits', { depositAddress: q.body.depositAddress, amount: q.body.amountIn });
			expect(d.status).toBe(409);
			expect(d.body.error.code).toBe('quote_expired');
			expect((await fast.api.get('/sandbox/orders')).body.orders).toHaveLength(0);
		} finally {
			await fast.sb.close();
		}
	});
});
