import * as nodeLists from '../../nodes/shared/orchestration/enums';
import { ASSET_SYMBOLS, CHAINS, TOKENIZED_EQUITIES } from '../../sandbox/orchestration/spec';
import { LimitsResponseSchema, RoutesResponseSchema } from '../../sandbox/orchestration/responses';
import { type Client, quoteBody, SERVER, SERVER2, start } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

interface Entry {
	id: string;
	chain: string;
	asset: string;
	decimals: number;
	contractAddress: string | null;
	chainId: string | null;
	route: { to: 'all' | string[] | { except: string[] }; exactOutTo: string[]; fixedTo: string[] };
}

/** The ids a route.to reaches: "all" and {except} relative to the listing (public-notes "Routes listing (v2)"). */
function reachedIds(a: Entry, ids: Set<string>): string[] {
	const to = a.route.to;
	if (Array.isArray(to)) return to;
	const except = new Set(to === 'all' ? [] : to.except);
	return [...ids].filter((id) => id !== a.id && !except.has(id));
}

const equities = new Set<string>(TOKENIZED_EQUITIES);
const listing = async (path = '/v2/orchestration/routes', key?: string): Promise<Entry[]> => {
	const r = await api.get(path, { key });
	expect(r.status).toBe(200);
	expect(RoutesResponseSchema.safeParse(r.body).success).toBe(true);
	return r.body.assets;
};

describe('routes v2 (spec §2.3, §4.3)', () => {
	it('lists every chain of §2.1 as the sandbox reads it (and stellar, a chain the service added) and every non-equity asset, with ids <chain>:<asset>', async () => {
		const assets = await listing();
		expect(new Set(assets.map((a) => a.chain))).toEqual(new Set([...CHAINS, 'stellar']));
		const symbols = new Set(assets.map((a) => a.asset));
		for (const s of ASSET_SYMBOLS) expect({ s, listed: symbols.has(s) }).toEqual({ s, listed: !equities.has(s) });
		for (const a of assets) expect(a.id).toBe(`${a.chain}:${a.asset}`);
	});

	it('has the right decimals, contract addresses and chain ids', async () => {
		const byId = new Map((await listing()).map((a) => [a.id, a]));
		const decimals: Record<string, number> = {
			'bitcoin:BTC': 8, 'spark:BTC': 8, 'lightning:BTC': 8, 'ethereum:ETH': 18, 'base:USDC': 6, 'ethereum:USDT': 6,
			'solana:SOL': 9, 'monero:XMR': 12, 'zcash:ZEC': 8, 'litecoin:LTC': 8, 'xrp:XRP': 6, 'tron:TRX': 6, 'ton:GRAM': 9, 'bsc:USDT': 18,
		};
		for (const [id, d] of Object.entries(decimals)) expect({ id, d: byId.get(id)?.decimals }).toEqual({ id, d });
		expect(byId.get('ethereum:ETH')?.contractAddress).toBeNull();
		expect(byId.get('ethereum:USDC')?.contractAddress).toBe('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48');
		expect(byId.get('ethereum:ETH')?.chainId).toBe('eip155:1');
		expect(byId.get('lightning:BTC')?.chainId).toBeNull();
		expect(byId.get('ton:GRAM')).toBeDefined();
		expect([...byId.values()].some((a) => a.asset === 'TON')).toBe(false);
	});

	it('uses every form of route.to ("all", {except}, lists, empty) with exactOutTo and fixedTo inside it', async () => {
		const assets = await listing();
		const ids = new Set(assets.map((a) => a.id));
		expect(assets.some((a) => a.route.to === 'all')).toBe(true);
		// the docs' example entry: base:USDC reaches everything but litecoin:LTC
		expect(assets.find((a) => a.id === 'base:USDC')?.route.to).toEqual({ except: ['litecoin:LTC'] });
		expect(assets.some((a) => Array.isArray(a.route.to) && a.route.to.length === 0)).toBe(true);
		expect(assets.filter((a) => Array.isArray(a.route.to) && a.route.to.length > 0).length).toBeGreaterThan(assets.length / 2);
		expect(assets.some((a) => a.route.fixedTo.length === 0 && reachedIds(a, ids).length !== 0)).toBe(true);
		for (const a of assets) {
			const to = reachedIds(a, ids);
			for (const list of [to, a.route.exactOutTo, a.route.fixedTo]) {
				for (const target of list) expect(ids.has(target)).toBe(true);
			}
			for (const t of [...a.route.exactOutTo, ...a.route.fixedTo]) expect(to).toContain(t);
		}
	});

	it('shows tokenized equities only in v2, only to admitted partners', async () => {
		const hasEquity = (assets: Entry[]) => assets.some((a) => equities.has(a.asset));
		const reach = (assets: Entry[]) => assets.flatMap((a) => (Array.isArray(a.route.to) ? a.route.to : [])).some((t) => t.startsWith('robinhood:') && equities.has(t.split(':')[1]));
		expect(hasEquity(await listing('/v2/orchestration/routes', SERVER))).toBe(false);
		await api.post('/sandbox/config', { tokenizedEquityAdmission: { partner_sandbox_1: true } });
		const admitted = await listing('/v2/orchestration/routes', SERVER);
		expect(hasEquity(admitted)).toBe(true);
		expect(reach(admitted)).toBe(true);
		expect(admitted.find((a) => a.id === 'robinhood:AAPL')?.decimals).toBe(18);
		for (const [path, key] of [['/v1/orchestration/routes', SERVER], ['/v2/orchestration/routes', SERVER2], ['/v2/orchestration/routes', undefined]] as const) {
			const assets = await listing(path, key);
			expect({ path, key, equity: hasEquity(assets) || reach(assets) }).toEqual({ path, key, equity: false });
		}
		const quote = (key: string) => api.post('/v1/orchestration/quote', quoteBody({ sourceChain: 'ethereum', destinationChain: 'robinhood', destinationAsset: 'AAPL', recipientAddress: '0x1111111111111111111111111111111111111111' }), { key });
		expect((await quote(SERVER)).status).toBe(200);
		expect((await quote(SERVER2)).body.error.code).toBe('unsupported_route');
	});

	it('serves at least 4,000 entries with the large-catalogue switch', async () => {
		expect((await listing()).length).toBeLessThan(200);
		await api.post('/sandbox/config', { largeCatalogue: true });
		const large = await listing();
		expect(large.length).toBeGreaterThanOrEqual(4000);
		expect(new Set(large.map((a) => a.id)).size).toBe(large.length);
	});
});

describe('limits (public-notes)', () => {
	it('derives min and max per route from the catalogue, with filters', async () => {
		const r = await api.get('/v1/orchestration/limits?sourceChain=base&sourceAsset=USDC&destinationChain=bitcoin');
		expect(r.status).toBe(200);
		expect(LimitsResponseSchema.safeParse(r.body).success).toBe(true);
		expect(r.body.routes).toEqual([
			{
				sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'bitcoin', destinationAsset: 'BTC', minAmount: '1000000', maxAmount: '1000000000000', decimals: 6, exactOut: true, fixed: false,
				exactOutEligible: true, fixedEligible: false,
				source: { chain: 'base', asset: 'USDC', contractAddress: expect.stringMatching(/^0x/), decimals: 6, chainId: 'eip155:8453' },
				destination: { chain: 'bitcoin', asset: 'BTC', contractAddress: null, decimals: 8, chainId: expect.stringMatching(/^bip122:/) },
				limits: {
					orderNotionalUsd: { minCents: '100', maxCents: '100000000' },
					exactIn: { supported: true, requestAmount: { leg: 'source', chain: 'base', asset: 'USDC', minAmountSmallest: '1000000', maxAmountSmallest: '1000000000000', minUsdCents: '100', maxUsdCents: '100000000' } },
					exactOut: { supported: true, requestAmount: { leg: 'destination', chain: 'bitcoin', asset: 'BTC', minAmountSmallest: '1000', maxAmountSmallest: '1000000000', minUsdCents: '100', maxUsdCents: '100000000' } },
					fiatUsd: null,
				},
			},
		]);
		// {except}: base:USDC has no route to litecoin:LTC, and a quote for it is refused
		expect((await api.get('/v1/orchestration/limits?sourceChain=base&sourceAsset=USDC&destinationChain=litecoin')).body.routes).toEqual([]);
		const ltc = await api.post('/v1/orchestration/quote', quoteBody({ destinationChain: 'litecoin', destinationAsset: 'LTC', recipientAddress: 'ltc1qexampleexampleexampleexample0000000' }), { key: SERVER });
		expect(ltc.body.error?.code).toBe('unsupported_route');
		const all = await api.get('/v1/orchestration/limits');
		expect(all.body.routes.length).toBeGreaterThan(500);
		const ton = await api.get('/v1/orchestration/limits?sourceAsset=TON&destinationAsset=spark:BTC');
		expect(ton.body.routes).toHaveLength(1);
		expect(ton.body.routes[0]).toMatchObject({ sourceAsset: 'GRAM', destinationChain: 'spark' });
	});
});

/**
 * Not the oracle: the sandbox keeps its own reading of spec 2.1 (sandbox/orchestration/spec.ts) and
 * the nodes theirs (nodes/shared/orchestration/enums.ts). Where both readings must name the same
 * values, this says so; a difference means one of them misread the spec, and the spec decides.
 */
describe('cross-check: sandbox and nodes agree', () => {
	it('on spec 2.1\'s chains, asset symbols and tokenized equities', () => {
		expect([...nodeLists.CHAINS].sort()).toEqual([...CHAINS].sort());
		expect([...nodeLists.ASSET_SYMBOLS].sort()).toEqual([...ASSET_SYMBOLS].sort());
		expect([...nodeLists.TOKENIZED_EQUITY_SYMBOLS].sort()).toEqual([...TOKENIZED_EQUITIES].sort());
	});

	it('the sandbox\'s listing offers every chain and non-equity symbol the nodes list', async () => {
		const assets = await listing();
		const chains = new Set(assets.map((a) => a.chain));
		const symbols = new Set(assets.map((a) => a.asset));
		for (const c of nodeLists.CHAINS) expect({ c, listed: chains.has(c) }).toEqual({ c, listed: true });
		const nodeEquities = new Set<string>(nodeLists.TOKENIZED_EQUITY_SYMBOLS);
		for (const s of nodeLists.ASSET_SYMBOLS) expect({ s, listed: symbols.has(s) }).toEqual({ s, listed: !nodeEquities.has(s) });
	});
});
