/**
 * Route > Get Many against the sandbox over HTTP: one item per asset, the service fields untouched,
 * the limit, the filters, and tokenized equities only for admitted partners.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { clearRoutesCache } from '../../../../nodes/Orchestration/helpers/routes';
import type { Sandbox } from '../../../../sandbox';
import {
	CLIENT_ALL,
	control,
	orchestrationNode,
	run,
	SERVER_KEY,
	reaches,
	routesListing,
	startTestSandbox,
	type RouteEntry,
} from '../../../harness/orchestration';

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
const getAll = (parameters: INodeParameters = {}, key = SERVER_KEY) =>
	run(orchestrationNode({ sb, key, parameters: { resource: 'route', operation: 'getAll', returnAll: true, ...parameters } }));

describe('Route > Get Many', () => {
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
