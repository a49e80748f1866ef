/**
 * Searchable asset pickers (node version 3, issue 22): resource locators (From List / By ID) over the
 * routes listing, searched by name, symbol or routing key, paged, with the route filtering of the
 * dropdowns; versions 1 and 2 keep the plain dropdown. Over HTTP against the sandbox's large catalogue.
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { Orchestration } from '../../../nodes/Orchestration/Orchestration.node';
import { SEARCH_PAGE_SIZE } from '../../../nodes/Orchestration/methods/search';
import { listSearch } from '../../harness/n8n';
import type { Sandbox } from '../../../sandbox';
import { ADDR, control, orchestrationNode, quoteParams, run, startTestSandbox } from '../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
	await control(sb).config({ largeCatalogue: true });
});
afterAll(() => sb.close());

const search = (method: string, parameters: INodeParameters, filter?: string, typeVersion?: number) =>
	listSearch(orchestrationNode({ sb, typeVersion, parameters: { resource: 'quote', operation: 'create', ...parameters } }), method, filter);
const picked = (value: string) => ({ __rl: true, mode: 'list', value });

describe('asset pickers', () => {
	it('are resource locators (From List, By ID) from version 3 on; versions 1 and 2 keep the dropdown', () => {
		const props = new Orchestration().description.properties.filter((p: INodeProperties) => p.name === 'sourceAsset' || p.name === 'destinationAsset');
		const locators = props.filter((p) => p.type === 'resourceLocator');
		// Quote > Create and Quote > Estimate, source and destination each
		expect(locators.map((p) => `${String(p.displayOptions?.show?.operation)}.${p.name}`).sort()).toEqual([
			'create.destinationAsset',
			'create.sourceAsset',
			'estimate.destinationAsset',
			'estimate.sourceAsset',
		]);
		for (const p of locators) {
			expect(p.modes?.map((m) => m.name)).toEqual(['list', 'id']);
			expect(p.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 3 } }]);
		}
		const dropdowns = props.filter((p) => p.type === 'options' && p.displayOptions?.show?.resource?.includes('quote'));
		expect(dropdowns.filter((p) => JSON.stringify(p.displayOptions?.show?.['@version']) === JSON.stringify([{ _cnd: { lt: 3 } }])).length).toBe(4);
	});

	it('search the thousands of source assets by name, symbol or routing key, in pages', async () => {
		const all = await search('searchSourceAssets', {});
		expect(all.results).toHaveLength(SEARCH_PAGE_SIZE);
		expect(all.paginationToken).toBe(String(SEARCH_PAGE_SIZE));
		const usdc = await search('searchSourceAssets', { sourceChain: 'base' }, 'usd coin');
		expect(usdc.results).toEqual([{ name: 'USD Coin (USDC) · base:USDC', value: 'USDC' }]);
		const byKey = await search('searchSourceAssets', { sourceChain: 'base' }, 'BASE:usdc');
		expect(byKey.results.map((r) => r.value)).toEqual(['USDC']);
		expect((await search('searchSourceAssets', { sourceChain: 'base' }, 'no such asset')).results).toEqual([]);
	});

	it('keep the route filtering: destinations only those the picked source reaches in the chosen mode', async () => {
		const small = await startTestSandbox();
		try {
			const h = (parameters: INodeParameters) => orchestrationNode({ sb: small, parameters: { resource: 'quote', operation: 'create', ...parameters } });
			const exactOut = await listSearch(h({ sourceChain: 'solana', sourceAsset: picked('SOL'), amountMode: 'exact_out' }), 'searchDestinationAssets');
			const plain = await listSearch(h({ sourceChain: 'solana', sourceAsset: picked('SOL') }), 'searchDestinationAssets');
			expect(exactOut.results.length).toBeGreaterThan(0);
			expect(exactOut.results.length).toBeLessThan(plain.results.length);
			const onBitcoin = await listSearch(h({ sourceChain: 'base', sourceAsset: picked('USDC'), destinationChain: 'bitcoin' }), 'searchDestinationAssets', 'btc');
			expect(onBitcoin.results).toEqual([{ name: 'Bitcoin (BTC) · bitcoin:BTC', value: 'BTC' }]);
		} finally {
			await small.close();
		}
	});

	it('a picked asset (list or by ID) is sent as its symbol or routing key', async () => {
		await control(sb).clearRequests();
		const params = quoteParams({ sourceAsset: picked('USDC'), destinationAsset: { __rl: true, mode: 'id', value: 'bitcoin:BTC' }, recipientAddress: ADDR.bitcoin });
		const [out] = await run(orchestrationNode({ sb, parameters: params }));
		expect(out.quoteId).toEqual(expect.any(String));
		const [post] = await control(sb).requests({ path: '/v1/orchestration/quote', method: 'POST' });
		expect(post.body).toMatchObject({ sourceAsset: 'USDC', destinationAsset: 'bitcoin:BTC' });
	});
});

describe('affiliate picker (Quote > Create, node version 3)', () => {
	it('lists the partner affiliates with their fee, searched; the picked ID is sent as affiliateId', async () => {
		const found = await search('searchAffiliates', {}, 'beta');
		expect(found.results).toEqual([{ name: 'aff_sandbox_beta (25 bps) · spark:BTC', value: 'aff_sandbox_beta' }]);
		expect((await search('searchAffiliates', {})).results.length).toBeGreaterThan(1);
		await control(sb).clearRequests();
		await run(orchestrationNode({ sb, parameters: quoteParams({ options: { affiliateId: picked('aff_sandbox_beta') } }) }));
		const [post] = await control(sb).requests({ path: '/v1/orchestration/quote', method: 'POST' });
		expect(post.body.affiliateId).toBe('aff_sandbox_beta');
	});

	it('version 2 keeps the plain text field', async () => {
		const options = new Orchestration().description.properties.filter((p: INodeProperties) => p.name === 'options' && p.displayOptions?.show?.operation?.includes('create') && p.displayOptions?.show?.resource?.includes('quote'));
		const affiliate = (p: INodeProperties) => (p.options as INodeProperties[]).find((o) => o.name === 'affiliateId')?.type;
		expect(options.map((p) => [JSON.stringify(p.displayOptions?.show?.['@version']), affiliate(p)])).toEqual([
			[JSON.stringify([{ _cnd: { lt: 3 } }]), 'string'],
			[JSON.stringify([{ _cnd: { gte: 3 } }]), 'resourceLocator'],
		]);
		await control(sb).clearRequests();
		await run(orchestrationNode({ sb, typeVersion: 2, parameters: quoteParams({ options: { affiliateId: 'aff_sandbox_alpha' } }) }));
		expect((await control(sb).requests({ path: '/v1/orchestration/quote', method: 'POST' }))[0].body.affiliateId).toBe('aff_sandbox_alpha');
	});
});
