/**
 * The routes listing and the quote answers of the corpus (routes.json, quote-answers.json) through
 * the nodes' own readers: RouteAssetSchema and RoutesCatalogue (service.ts), routeSets.ts, and the
 * quote output of Quote > Create / Create Offramp / Order > Create Onramp (quotePlan.ts quoteOutput),
 * without the sandbox.
 */
import { RoutesCatalogue } from '../../../nodes/shared/orchestration/routesCatalogue';
import type { RouteAsset } from '../../../nodes/shared/orchestration/responseSchemas';
import { RouteAssetSchema } from '../../../nodes/shared/orchestration/responseSchemas';
import { reachableHas, reachableIdsOf, type RouteSet } from '../../../nodes/shared/orchestration/routeSets';
import { quoteOutput } from '../../../nodes/shared/orchestration/quotePlan';
import { catalogue, fixture, formattedOf, type Json } from './corpus';

interface RoutesFixture {
	docsEntry: { asShown: Json; completed: { entry: Json } };
	routeSets: Array<{ name: string; set: unknown; reaches: string[]; misses: string[] }>;
	listing: { body: { assets: Json[] } };
}

interface QuoteExample {
	name: string;
	sides: { source: string; destination: string };
	body: Json;
	formatted: Json;
	notFormatted?: string[];
	depositMemoRequired: boolean;
}

const routes = fixture<RoutesFixture>('routes.json');
const quotes = fixture<{ examples: QuoteExample[]; onramp: Array<{ name: string; body: Json }>; submit: Array<{ name: string; body: Json }> }>('quote-answers.json');

describe('the routes listing', () => {
	test("the docs' entry, completed with the members spec 2.3 lists, is a route asset the nodes keep", () => {
		expect(RouteAssetSchema.safeParse(routes.docsEntry.completed.entry).success).toBe(true);
		// as shown, the docs elide chain and asset ("..."), which spec 2.3 lists: such an entry is skipped, not fatal
		const only = new RoutesCatalogue([routes.docsEntry.asShown]);
		expect({ size: only.size, skipped: only.skipped }).toEqual({ size: 0, skipped: 1 });
	});

	test("the docs' entry reaches what its three sets say", () => {
		const cat = catalogue();
		const usdc = cat.byRoutingKey('base:USDC') as RouteAsset;
		expect(cat.reaches(usdc, 'litecoin:LTC')).toBe(false);
		expect(cat.reaches(usdc, 'bitcoin:BTC')).toBe(true);
		expect(cat.reaches(usdc, 'base:USDC')).toBe(false);
		expect(cat.reaches(usdc, 'lightning:BTC', 'exactOutTo')).toBe(true);
		expect(cat.reaches(usdc, 'bitcoin:BTC', 'exactOutTo')).toBe(false);
		expect(cat.reachable(usdc, 'fixedTo').map((a) => a.id)).toEqual(['bitcoin:BTC', 'lightning:BTC', 'spark:BTC', 'spark:USDB']);
	});

	test.each(routes.routeSets.map((s) => [s.name, s] as const))('route set %s', (_name, s) => {
		const ids = reachableIdsOf(s.set as RouteSet);
		for (const id of s.reaches) expect(reachableHas(ids, id)).toBe(true);
		for (const id of s.misses) expect(reachableHas(ids, id)).toBe(false);
	});

	test('every entry of the listing is kept, a chain beyond spec 2.1 included', () => {
		const cat = catalogue();
		expect({ size: cat.size, skipped: cat.skipped }).toEqual({ size: routes.listing.body.assets.length, skipped: 0 });
		expect(cat.chains().map((c) => c.chain)).toContain('stellar');
		expect(cat.reaches(cat.byRoutingKey('stellar:XLM') as RouteAsset, 'base:USDC')).toBe(true);
	});
});

describe('quote answers', () => {
	const cases = quotes.examples.map((e) => [e.name, e] as const);
	const sidesOf = (e: { sides: { source: string; destination: string } }) => {
		const cat = catalogue();
		return { catalogue: cat, source: cat.byRoutingKey(e.sides.source), destination: cat.byRoutingKey(e.sides.destination) };
	};

	test.each(cases)('%s: every member kept, amounts formatted in the asset they count in', (_name, e) => {
		const out = quoteOutput(e.body, sidesOf(e), Date.parse('2025-06-01T12:00:00.000Z')) as Json;
		for (const [member, value] of Object.entries(e.body)) expect(out[member]).toEqual(value);
		expect(formattedOf(out)).toEqual(e.formatted);
		for (const member of e.notFormatted ?? []) expect(out[`${member}Formatted`]).toBeUndefined();
		expect(out.depositMemoRequired).toBe(e.depositMemoRequired);
	});

	test("a deposit link for each documented source (the docs' bare chainId 8453 included)", () => {
		const links = Object.fromEntries(quotes.examples.map((e) => [e.name, (quoteOutput(e.body, sidesOf(e)) as Json).paymentUri]));
		expect(links).toEqual({
			'exact_in, variable: the spec\'s fields only':
				'ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x3f5CE5FBFe3E9af3971dD833D26bA9b5C936f0bE&uint256=100000000',
			// an XRP deposit needs its memo, and no standard link carries one
			'a deposit that needs a memo, for a client key (readToken)': null,
			'fixed delivery with every optional live field':
				'ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c&uint256=50000000',
			'a price lock that asks for approval': 'bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.002',
			'exact_out to Lightning':
				'ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x3f5CE5FBFe3E9af3971dD833D26bA9b5C936f0bE&uint256=100301000',
		});
	});

	test('an onramp answer: the BOLT11 invoice as a link, amounts on both sides; its fee fields name no asset', () => {
		const cat = catalogue();
		const [onramp] = quotes.onramp;
		const out = quoteOutput(onramp.body, { catalogue: cat, source: cat.byRoutingKey('lightning:BTC'), destination: cat.byRoutingKey('base:USDC') }) as Json;
		for (const [member, value] of Object.entries(onramp.body)) expect(out[member]).toEqual(value);
		expect(formattedOf(out)).toEqual({ amountIn: '0.00025', estimatedOut: '24.925' });
		expect(out.paymentUri).toBe(`lightning:${onramp.body.depositAddress as string}`);
	});
});
