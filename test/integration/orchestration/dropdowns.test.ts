/**
 * The dropdowns from the routes listing: one cached routes fetch shared by them, Route > Get Many and
 * the quote amounts, destinations filtered by what the source reaches in each mode, and the
 * 4,000-entry catalogue (Route > Get Many and Get Limits alone: test/operations/Orchestration/route).
 */
import type { INodeParameters } from 'n8n-workflow';
import { clearRoutesCache } from '../../../nodes/Orchestration/helpers/routes';
import type { Sandbox } from '../../../sandbox';
import {
	CLIENT_ALL,
	control,
	loadOptions,
	orchestrationNode,
	run,
	SERVER_KEY,
	reaches,
	routesListing,
	startTestSandbox,
	type RouteEntry,
} from '../../harness/orchestration';

let sb: Sandbox;
let listing: RouteEntry[];
beforeAll(async () => {
	sb = await startTestSandbox();
	listing = await routesListing(sb);
});
afterAll(() => sb.close());
beforeEach(async () => {
	clearRoutesCache();
	await control(sb).clearRequests();
});

const routesFetches = async () => (await control(sb).requests({ path: '/v2/orchestration/routes' })).length;
const getAll = (parameters: INodeParameters = {}, key = SERVER_KEY) =>
	run(orchestrationNode({ sb, key, parameters: { resource: 'route', operation: 'getAll', returnAll: true, ...parameters } }));
const byId = (id: string) => listing.find((e) => e.id === id) as RouteEntry;

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
