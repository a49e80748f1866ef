/**
 * Bounds and errors of the fourth harvest (public-notes): inline app fees 1–10000 bps each, at most 16,
 * together at most 10000, never with affiliate fields (400 invalid_request); standing-address
 * affiliate overrides 1–9999; amount_too_small / amount_too_large exactly where GET /limits puts the
 * bounds of a route (`limits.exactIn.requestAmount`, `limits.exactOut.requestAmount`, `orderNotionalUsd`).
 */
import type { Sandbox } from '../../sandbox';
import { type Client, freshKey, quoteBody, SERVER, start } from './helpers';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const QUOTE = '/v1/orchestration/quote';
const EVM = '0x2222222222222222222222222222222222222222';
const BTC_ADDR = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const quote = (body: Record<string, unknown>) => api.post(QUOTE, body, { key: SERVER });
const fees = (...bps: number[]) => bps.map((fee) => ({ recipient: EVM, fee }));

describe('inline app fees (public-notes, fourth harvest)', () => {
	it('takes 1 to 10000 bps an entry, at most 16 entries', async () => {
		for (const appFees of [fees(1), fees(...Array<number>(16).fill(1)), [{ recipient: EVM, feeBps: 1 }]]) {
			expect((await quote(quoteBody({ appFees }))).status).toBe(200);
		}
		const refused: Array<[unknown, RegExp]> = [
			[fees(0), /^appFees\[0\]\.fee: .*greater than or equal to 1/],
			[[{ recipient: EVM, feeBps: 0 }], /^appFees\[0\]\.feeBps: .*greater than or equal to 1/],
			[fees(10_001), /^appFees\[0\]\.fee: .*less than or equal to 10000/],
			[fees(...Array<number>(17).fill(1)), /^appFees: .*at most 16/],
		];
		for (const [appFees, message] of refused) {
			const r = await quote(quoteBody({ appFees }));
			expect({ appFees, status: r.status, code: r.body.error.code, message: r.body.error.message }).toEqual({ appFees, status: 400, code: 'invalid_request', message: expect.stringMatching(message) });
		}
	});

	it('refuses entries that add up to more than 10000 bps, and fees that leave nothing to deliver (the sandbox\'s own rule)', async () => {
		const over = await quote(quoteBody({ appFees: fees(5000, 5001) }));
		expect([over.status, over.body.error.code, over.body.error.message]).toEqual([400, 'invalid_request', expect.stringMatching(/^appFees: the fees add up to 10001 bps; at most 10000/)]);
		const all = await quote(quoteBody({ appFees: fees(5000, 5000) }));
		expect([all.status, all.body.error.code, all.body.error.message]).toEqual([400, 'invalid_request', expect.stringMatching(/leave nothing to deliver/)]);
		const most = await quote(quoteBody({ appFees: fees(5000, 4969) }));
		expect(most.status).toBe(200);
		expect(most.body.feeBps).toBe(9999);
		expect(BigInt(most.body.estimatedOut)).toBeGreaterThan(0n);
	});

	it('never goes with affiliate fields', async () => {
		for (const affiliate of [{ affiliateId: 'aff_sandbox_alpha' }, { affiliateIds: ['aff_sandbox_alpha'] }]) {
			const r = await quote(quoteBody({ appFees: fees(10), ...affiliate }));
			expect({ affiliate, status: r.status, code: r.body.error.code, message: r.body.error.message })
				.toEqual({ affiliate, status: 400, code: 'invalid_request', message: expect.stringMatching(/^affiliateIds?: cannot be combined with appFees/) });
		}
		const onramp = await api.post('/v1/orchestration/onramp', { destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: EVM, amount: '25000', appFees: fees(10), affiliateId: 'aff_sandbox_alpha' }, { key: SERVER });
		expect([onramp.status, onramp.body.error.code]).toEqual([400, 'invalid_request']);
	});
});

describe('standing-address affiliate overrides (public-notes: 1–9999 bps)', () => {
	it('takes 1 and 9999, refuses 0 and 10000 naming the field', async () => {
		const put = (ref: string, feeBps: number) => api.call('PUT', `/v1/standing-deposit-addresses/${ref}`,
			{ destination: { chain: 'base', asset: 'USDC', address: EVM }, affiliateIds: [{ affiliateId: 'aff_sandbox_alpha', feeBps }] },
			{ key: SERVER, headers: { 'x-idempotency-key': freshKey() } });
		expect((await put('ovr-1', 1)).status).toBe(200);
		expect((await put('ovr-9999', 9999)).status).toBe(200);
		for (const feeBps of [0, 10_000]) {
			const r = await put(`ovr-${feeBps}`, feeBps);
			expect({ feeBps, status: r.status, code: r.body.error.code, message: r.body.error.message }).toEqual({ feeBps, status: 400, code: 'invalid_request', message: expect.stringMatching(/^affiliateIds\[0\]\.feeBps/) });
		}
	});
});

describe('amount bounds: what GET /limits reports is what the quote enforces', () => {
	const ROUTES: Array<Record<string, string>> = [
		{ sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'bitcoin', destinationAsset: 'BTC', recipientAddress: BTC_ADDR },
		{ sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: EVM },
		// a Lightning leg has a lower maximum
		{ sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'lightning', destinationAsset: 'BTC', recipientAddress: 'alice@example.com', refundAddress: EVM },
	];

	async function limitsOf(route: Record<string, string>) {
		const q = new URLSearchParams({ sourceChain: route.sourceChain, sourceAsset: route.sourceAsset, destinationChain: route.destinationChain, destinationAsset: route.destinationAsset });
		const [entry] = (await api.get(`/v1/orchestration/limits?${q}`)).body.routes;
		return entry.limits;
	}
	const plus = (s: string, n: bigint) => (BigInt(s) + n).toString();

	it.each(ROUTES.map((r) => [`${r.sourceChain}:${r.sourceAsset} -> ${r.destinationChain}:${r.destinationAsset}`, r]))('exact_in on %s: the request amount bounds', async (_name, route) => {
		const limits = await limitsOf(route);
		const { minAmountSmallest, maxAmountSmallest, minUsdCents, maxUsdCents } = limits.exactIn.requestAmount;
		expect([minUsdCents, maxUsdCents]).toEqual([limits.orderNotionalUsd.minCents, limits.orderNotionalUsd.maxCents]);
		const at = async (amount: string) => {
			const r = await quote({ ...route, amount });
			return r.status === 200 ? 200 : r.body.error.code;
		};
		expect([await at(plus(minAmountSmallest, -1n)), await at(minAmountSmallest), await at(maxAmountSmallest), await at(plus(maxAmountSmallest, 1n))])
			.toEqual(['amount_too_small', 200, 200, 'amount_too_large']);
		const estimate = await api.get(`/v1/orchestration/estimate?${new URLSearchParams({ ...route, amount: plus(minAmountSmallest, -1n) })}`);
		expect([estimate.status, estimate.body.error.code, estimate.body.error.message]).toEqual([400, 'amount_too_small', expect.stringMatching(/^amount: below the route minimum/)]);
	});

	it('exact_out: the destination amount bounds of limits.exactOut.requestAmount', async () => {
		const route = { sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: EVM, refundAddress: BTC_ADDR, amountMode: 'exact_out' };
		const limits = await limitsOf(route);
		expect(limits.exactOut).toMatchObject({ supported: true, requestAmount: { leg: 'destination', asset: 'USDC', minAmountSmallest: '1000000', maxAmountSmallest: '1000000000000' } });
		const cent = 10_000n; // whole cents of USDC
		const at = async (amount: string) => {
			const r = await quote({ ...route, amount });
			return r.status === 200 ? 200 : r.body.error.code;
		};
		const { minAmountSmallest: min, maxAmountSmallest: max } = limits.exactOut.requestAmount;
		expect([await at(plus(min, -cent)), await at(min), await at(max), await at(plus(max, cent))]).toEqual(['amount_too_small', 200, 200, 'amount_too_large']);
		// a destination exact_out is not offered to: no request bounds
		expect((await limitsOf({ sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'ethereum', destinationAsset: 'ETH' })).exactOut).toEqual({ supported: false, requestAmount: null });
	});
});
