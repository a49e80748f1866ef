/**
 * route.getAll, route.getLimits and the dropdowns: one cached routes fetch shared by all of them,
 * destinations filtered by what the source reaches in each mode, and the 4,000-entry catalogue.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { clearRoutesCache } from '../../../nodes/n8n/orchestrationClient';
import type { Sandbox } from '../../../sandbox';
import {
	CLIENT_ALL,
	control,
	loadOptions,
	orchestrationNode,
	run,
	SERVER_KEY,
	startTestSandbox,
} from '../../harness/orchestration';

interface Entry {
	id: string;
	chain: string;
	asset: string;
	assetDisplayName: string;
	chainDisplayName: string;
	decimals: number;
	route: { to: 'all' | string[] | { except: string[] }; exactOutTo: string[]; fixedTo: string[] };
}

let sb: Sandbox;
let listing: Entry[];
beforeAll(async () => {
	sb = await startTestSandbox();
	const res = await fetch(`${sb.orchestrationUrl}/v2/orchestration/routes`, { headers: { authorization: `Bearer ${SERVER_KEY}` } });
	listing = ((await res.json()) as { assets: Entry[] }).assets;
});
afterAll(() => sb.close());
beforeEach(async () => {
	clearRoutesCache();
	await control(sb).clearRequests();
});

const routesFetches = async () => (await control(sb).requests({ path: '/v2/orchestration/routes' })).length;
const getAll = (parameters: INodeParameters = {}, key = SERVER_KEY) =>
	run(orchestrationNode({ sb, key, parameters: { resource: 'route', operation: 'getAll', returnAll: true, ...parameters } }));
const reaches = (e: Entry, id: string) =>
	e.route.to === 'all' ? e.id !== id : Array.isArray(e.route.to) ? e.route.to.includes(id) : e.id !== id && !e.route.to.except.includes(id);
const byId = (id: string) => listing.find((e) => e.id === id) as Entry;

describe('route.getAll', () => {
	it('gives one item per asset with the service fields untouched, for server and client keys', async () => {
		expect(await getAll()).toEqual(listing as unknown as IDataObject[]);
		expect((await getAll({}, CLIENT_ALL)).length).toBe(listing.length);
	});

	it('cuts to the limit unless Return All', async () => {
		expect(await getAll({ returnAll: false, limit: 7 })).toEqual(listing.slice(0, 7) as unknown as IDataObject[]);
	});

	it('filters by chain, asset, reachable destination and exact_out / fixed capability', async () => {
		const onBase = await getAll({ filters: { chain: 'base' } });
		expect(onBase.map((e) => e.id)).toEqual(listing.filter((e) => e.chain === 'base').map((e) => e.id));
		const usdc = await getAll({ filters: { asset: 'usdc' } });
		expect(new Set(usdc.map((e) => e.asset))).toEqual(new Set(['USDC']));
		expect(usdc.length).toBe(listing.filter((e) => e.asset === 'USDC').length);
		const toLightning = await getAll({ filters: { reachableDestination: 'lightning:BTC' } });
		expect(toLightning.map((e) => e.id)).toEqual(listing.filter((e) => reaches(e, 'lightning:BTC')).map((e) => e.id));
		expect(toLightning.map((e) => e.id)).not.toContain('bsc:WBNB'); // route.to = []
		const exactOut = await getAll({ filters: { supports: ['exactOut'] } });
		expect(exactOut.map((e) => e.id)).toEqual(listing.filter((e) => e.route.exactOutTo.length > 0).map((e) => e.id));
		const both = await getAll({ filters: { chain: 'solana', supports: ['exactOut', 'fixed'] } });
		expect(both.map((e) => e.id)).toEqual(
			listing.filter((e) => e.chain === 'solana' && e.route.exactOutTo.length > 0 && e.route.fixedTo.length > 0).map((e) => e.id),
		);
		expect(exactOut.length).toBeLessThan(listing.length);
	});

	it('shows tokenized equities only to admitted partners, and only when asked for', async () => {
		await control(sb).config({ tokenizedEquityAdmission: { partner_sandbox_1: true } });
		try {
			const hidden = await getAll({ filters: { chain: 'robinhood' } });
			expect(hidden.map((e) => e.asset)).not.toContain('AAPL');
			const shown = await getAll({ filters: { chain: 'robinhood', includeTokenizedEquities: true } });
			expect(shown.map((e) => e.asset)).toEqual(expect.arrayContaining(['AAPL', 'TSLA', 'NVDA']));
		} finally {
			// Switches merge deeply: the admission is withdrawn explicitly.
			await control(sb).config({ tokenizedEquityAdmission: { partner_sandbox_1: false } });
		}
	});
});

describe('route.getLimits', () => {
	it('passes the route filters and returns the answer untouched', async () => {
		const parameters = {
			resource: 'route',
			operation: 'getLimits',
			filters: { sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'bitcoin', destinationAsset: 'BTC' },
		};
		for (const key of [SERVER_KEY, CLIENT_ALL]) {
			const [out] = await run(orchestrationNode({ sb, key, parameters }));
			expect(out.generatedAt).toEqual(expect.any(String));
			expect(out.routes).toEqual([expect.objectContaining({ sourceChain: 'base', destinationAsset: 'BTC', minAmount: '1000000' })]);
		}
	});
});

describe('dropdowns from the routes listing', () => {
	const load = (method: string, parameters: INodeParameters = {}, key = SERVER_KEY) =>
		loadOptions(orchestrationNode({ sb, key, parameters: { resource: 'quote', operation: 'create', ...parameters } }), method);
	const values = (options: Array<{ value: unknown }>) => options.map((o) => o.value);

	it('lists chains with their display names and assets of the chosen chain', async () => {
		const chains = await load('getSourceChains');
		expect(new Set(values(chains))).toEqual(new Set(listing.map((e) => e.chain)));
		expect(chains.find((c) => c.value === 'base')?.name).toBe(byId('base:USDC').chainDisplayName);
		const assets = await load('getSourceAssets', { sourceChain: 'base' });
		expect(new Set(values(assets))).toEqual(new Set(listing.filter((e) => e.chain === 'base').map((e) => e.asset)));
		expect(assets.find((a) => a.value === 'USDC')).toMatchObject({ name: 'USD Coin (USDC)', description: 'base:USDC' });
	});

	it('offers only destinations the source reaches, per amount and delivery mode', async () => {
		const source = byId('solana:SOL');
		const plain = await load('getDestinationAssets', { sourceChain: 'solana', sourceAsset: 'SOL', destinationChain: 'ethereum' });
		expect(new Set(values(plain))).toEqual(
			new Set((source.route.to as string[]).filter((id) => id.startsWith('ethereum:')).map((id) => id.split(':')[1])),
		);
		const exactOut = await load('getDestinationAssets', { sourceChain: 'solana', sourceAsset: 'SOL', amountMode: 'exact_out' });
		expect(values(exactOut).sort()).toEqual(source.route.exactOutTo.map((id) => id.split(':')[1]).sort());
		const fixed = await load('getDestinationChains', { sourceChain: 'solana', sourceAsset: 'SOL', deliveryMode: 'fixed' });
		expect(new Set(values(fixed))).toEqual(new Set(source.route.fixedTo.map((id) => id.split(':')[0])));
		expect(await load('getDestinationChains', { sourceChain: 'bsc', sourceAsset: 'WBNB' })).toEqual([]);
		// route.to = "all": every chain
		expect((await load('getDestinationChains', { sourceChain: 'ethereum', sourceAsset: 'USDC' })).length).toBe(new Set(listing.map((e) => e.chain)).size);
		// route.to = {except: ["litecoin:LTC"]} (public-notes "Routes listing (v2)"): every chain but the excepted asset's
		expect(byId('base:USDC').route.to).toEqual({ except: ['litecoin:LTC'] });
		const fromBase = values(await load('getDestinationChains', { sourceChain: 'base', sourceAsset: 'USDC' }));
		expect(fromBase).not.toContain('litecoin');
		expect(fromBase.length).toBe(new Set(listing.map((e) => e.chain)).size - 1);
		expect(values(await load('getDestinationAssets', { sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'bitcoin' }))).toEqual(['BTC']);
	});

	it('does not filter on a source given by expression', async () => {
		const all = await load('getDestinationChains', { sourceChain: '={{ $json.chain }}', sourceAsset: 'SOL' });
		expect(all.length).toBe(new Set(listing.map((e) => e.chain)).size);
	});

	it('fixes the Lightning side of onramps and offramps', async () => {
		const onramp = await load('getOnrampDestinationAssets', { destinationChain: 'base' });
		const lightning = byId('lightning:BTC');
		const reachable = listing.map((e) => e.id).filter((id) => reaches(lightning, id));
		expect(new Set(values(onramp))).toEqual(new Set(reachable.filter((id) => id.startsWith('base:')).map((id) => id.split(':')[1])));
		const offramp = await load('getOfframpSourceChains');
		expect(new Set(values(offramp))).toEqual(new Set(listing.filter((e) => reaches(e, 'lightning:BTC')).map((e) => e.chain)));
		const keys = await load('getAssetRoutingKeys');
		expect(keys.length).toBe(listing.length);
		expect(keys.find((k) => k.value === 'base:USDC')?.name).toBe('USD Coin (USDC) on Base');
	});

	it('share one routes fetch per base URL and key for 60 s with route.getAll and the quote amounts', async () => {
		await load('getSourceChains');
		await load('getSourceAssets', { sourceChain: 'base' });
		await load('getDestinationAssets', { sourceChain: 'base', sourceAsset: 'USDC' });
		await getAll();
		await run(
			orchestrationNode({
				sb,
				parameters: {
					resource: 'quote',
					operation: 'create',
					sourceChain: 'base',
					sourceAsset: 'USDC',
					destinationChain: 'bitcoin',
					destinationAsset: 'BTC',
					amountFormat: 'decimal',
					amount: '10',
					recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
				},
			}),
		);
		expect(await routesFetches()).toBe(1);
		await load('getSourceChains', {}, CLIENT_ALL); // another key: the listing is partner-aware
		expect(await routesFetches()).toBe(2);
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => now + 61_000);
		try {
			await load('getSourceChains');
		} finally {
			clock.mockRestore();
		}
		expect(await routesFetches()).toBe(3);
	});
});

describe('the large catalogue (4,000+ entries)', () => {
	beforeAll(() => control(sb).config({ largeCatalogue: true }));
	afterAll(() => control(sb).config({ largeCatalogue: false }));

	// Timings live in `npm run bench` (bench/routes.bench.ts); this checks the results are right.
	it('lists, filters and fills dropdowns from the whole catalogue', async () => {
		const all = await getAll();
		expect(all.length).toBeGreaterThanOrEqual(4000);
		const filtered = await getAll({ filters: { reachableDestination: 'base:USDC', supports: ['exactOut'] } });
		expect(filtered.length).toBeGreaterThan(3000);
		const chains = await loadOptions(orchestrationNode({ sb, parameters: { resource: 'quote', operation: 'create' } }), 'getSourceChains');
		const assets = await loadOptions(
			orchestrationNode({ sb, parameters: { resource: 'quote', operation: 'create', sourceChain: 'ethereum' } }),
			'getSourceAssets',
		);
		const keys = await loadOptions(orchestrationNode({ sb, parameters: { resource: 'route', operation: 'getAll' } }), 'getAssetRoutingKeys');
		expect(chains.length).toBeGreaterThan(10);
		expect(assets.length).toBeGreaterThan(400);
		expect(keys.length).toBe(all.length);
	});
});
