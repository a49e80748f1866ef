import { AccumulationAddressSchema, AffiliateListSchema, LiquidationAddressListSchema, LiquidationAddressSchema, ReindexResultSchema, SyncResultSchema } from '../../sandbox/orchestration/responses';
import { ALL_SCOPES, type Client, SERVER, SERVER2, start } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

describe('deprecated accumulation addresses (spec §2.4, §2.8, §4.4)', () => {
	it('syncs with a server key and reports the enabled addresses', async () => {
		const r = await api.post('/v1/accumulation-addresses/sync', undefined, { key: SERVER });
		expect(r.status).toBe(200);
		expect(r.headers.get('deprecation')).toBe('true');
		expect(SyncResultSchema.safeParse(r.body).success).toBe(true);
		expect(r.body).toEqual({ ok: true, enabledCount: 1, solanaAddressCount: 0, errors: [] });
		const other = await api.post('/v1/accumulation-addresses/sync', undefined, { key: SERVER2 });
		expect(other.body.enabledCount).toBe(0);
	});

	it('reindexes by id or deposit address, for server keys and client keys with accumulation:create', async () => {
		for (const [id, key] of [['acc_sandbox_usdc_base', SERVER], ['0x00000000000000000000000000000000acc0ba5e', 'fnp_sandbox_accumulation_create']]) {
			const r = await api.post(`/v1/accumulation-addresses/${id}/reindex`, undefined, { key });
			expect(r.status).toBe(200);
			expect(ReindexResultSchema.safeParse(r.body).success).toBe(true);
			expect(r.body).toMatchObject({ ok: true, accumulationAddressId: 'acc_sandbox_usdc_base', sourceChain: 'base', sourceAsset: 'USDC' });
			expect(r.body.relay).toMatchObject({ checkedCurrencies: 1, failedCurrencies: 0 });
		}
		expect((await api.post('/v1/accumulation-addresses/acc_sandbox_usdc_base/reindex', undefined, { key: 'fnp_sandbox_liquidation_create' })).body.error.code).toBe('scope_required');
		expect((await api.post('/v1/accumulation-addresses/acc_nope/reindex', undefined, { key: SERVER })).status).toBe(404);
		expect((await api.post('/v1/accumulation-addresses/acc_sandbox_usdc_base/reindex', undefined, { key: SERVER2 })).status).toBe(404);
		expect((await api.post('/v1/accumulation-addresses/acc_sandbox_sol_usdb/reindex', undefined, { key: SERVER })).body.error.code).toBe('invalid_state');
	});

	it('gets one address with its subscriptions', async () => {
		const r = await api.get('/v1/accumulation-addresses/acc_sandbox_usdc_base', { key: SERVER });
		expect(r.status).toBe(200);
		expect(AccumulationAddressSchema.safeParse(r.body).success).toBe(true);
		expect(r.body).toMatchObject({ destinationAsset: 'BTC', enabled: true, disabledAt: null, appFees: [] });
		expect(r.body.subscriptions[0]).toMatchObject({ status: 'pending', chain: 'base' });
		const disabled = await api.get('/v1/accumulation-addresses/acc_sandbox_sol_usdb', { key: SERVER });
		expect(disabled.body).toMatchObject({ enabled: false, destinationAsset: 'USDB' });
		expect(typeof disabled.body.disabledAt).toBe('string');
		expect((await api.get('/v1/accumulation-addresses/acc_nope', { key: SERVER })).status).toBe(404);
	});

	it('creates addresses under accumulation:create, with app fees for server keys only', async () => {
		const body = { label: 'new', sourceChain: 'solana', sourceAsset: 'SOL', destinationAsset: 'USDB', recipientSparkAddress: 'sp1recipient' };
		const client = await api.post('/v1/accumulation-addresses', body, { key: 'fnp_sandbox_accumulation_create' });
		expect(client.status).toBe(201);
		expect(AccumulationAddressSchema.safeParse(client.body).success).toBe(true);
		expect(client.body.depositAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{44}$/);
		const server = await api.post('/v1/accumulation-addresses', { ...body, appFees: [{ recipient: 'sp1fee', feeBps: 20 }] }, { key: SERVER });
		expect(server.body).toMatchObject({ feeBps: 50, appFees: [{ recipient: 'sp1fee', feeBps: 20 }] });
		expect((await api.post('/v1/accumulation-addresses', body, { key: 'fnp_sandbox_orders_quote' })).body.error.code).toBe('scope_required');
		expect((await api.post('/v1/accumulation-addresses', { ...body, destinationAsset: 'ETH' }, { key: SERVER })).status).toBe(400);
		expect((await api.get(`/v1/accumulation-addresses/${client.body.accumulationAddressId}`, { key: SERVER })).status).toBe(200);
	});

	it('checks affiliate fee inputs of address creation: 400, never a 500 or a text feeBps', async () => {
		const body = { sourceChain: 'solana', sourceAsset: 'SOL', destinationAsset: 'USDB', recipientSparkAddress: 'sp1recipient' };
		const liq = { destination: { chain: 'base', asset: 'USDC', address: '0x1111111111111111111111111111111111111111' } };
		for (const bad of [{ affiliateIds: 'aff_sandbox_alpha' }, { affiliateIds: [{ affiliateId: 'aff_sandbox_alpha', feeBps: 'x' }] }, { affiliateId: 7 }]) {
			const a = await api.post('/v1/accumulation-addresses', { ...body, ...bad }, { key: SERVER });
			expect([a.status, a.body.error?.code]).toEqual([400, 'invalid_request']);
			const l = await api.post('/v1/liquidation-addresses', { ...liq, ...bad }, { key: SERVER });
			expect([l.status, l.body.error?.code]).toEqual([400, 'invalid_request']);
		}
		const ok = await api.post('/v1/accumulation-addresses', { ...body, affiliateIds: [{ affiliateId: 'aff_sandbox_alpha', feeBps: 10 }] }, { key: SERVER });
		expect(ok.body).toMatchObject({ feeBps: 40, appFees: [{ feeBps: 10, affiliateId: 'aff_sandbox_alpha' }] });
	});
});

describe('deprecated liquidation addresses (spec §2.5, §4.4)', () => {
	it('lists and gets liquidation addresses with a server key', async () => {
		const list = await api.get('/v1/liquidation-addresses', { key: SERVER });
		expect(LiquidationAddressListSchema.safeParse(list.body).success).toBe(true);
		expect(list.body.liquidationAddresses).toHaveLength(1);
		const one = await api.get('/v1/liquidation-addresses/liq_sandbox_btc_usdc', { key: SERVER });
		expect(LiquidationAddressSchema.safeParse(one.body).success).toBe(true);
		expect(one.body.destination).toEqual({ chain: 'base', asset: 'USDC', address: '0x00000000000000000000000000000000d0d0cafe' });
		expect((await api.get('/v1/liquidation-addresses', { key: SERVER2 })).body.liquidationAddresses).toEqual([]);
		expect((await api.get('/v1/liquidation-addresses/liq_sandbox_btc_usdc', { key: SERVER2 })).status).toBe(404);
	});

	it('creates under liquidation:create', async () => {
		const body = { destination: { chain: 'base', asset: 'USDC', address: '0x1111111111111111111111111111111111111111' } };
		const r = await api.post('/v1/liquidation-addresses', body, { key: 'fnp_sandbox_liquidation_create' });
		expect(r.status).toBe(201);
		expect(r.body.l1DepositAddress).toMatch(/^bc1q/);
		expect(r.body.sparkAddress).toMatch(/^sp1/);
		expect((await api.post('/v1/liquidation-addresses', body, { key: 'fnp_sandbox_accumulation_create' })).body.error.code).toBe('scope_required');
	});
});

describe('affiliates (spec §2.7, §4.5)', () => {
	it('lists every affiliate for server keys and only the pinned one for an affiliates:read client key', async () => {
		// public-notes: includeDisabled defaults to false
		const server = await api.get('/v1/affiliates?includeDisabled=true', { key: SERVER });
		expect(AffiliateListSchema.safeParse(server.body).success).toBe(true);
		expect(server.body.affiliates.map((a: { affiliateId: string }) => a.affiliateId)).toEqual(['aff_sandbox_alpha', 'aff_sandbox_beta', 'aff_sandbox_retired']);
		const pinned = await api.get('/v1/affiliates', { key: 'fnp_sandbox_affiliate_alpha' });
		expect(pinned.body.affiliates).toEqual([expect.objectContaining({ affiliateId: 'aff_sandbox_alpha', feeBps: 50, enabled: true, disabledAt: null })]);
		expect((await api.get('/v1/affiliates', { key: ALL_SCOPES })).body.error.code).toBe('forbidden');
		expect((await api.get('/v1/affiliates', { key: SERVER2 })).body.affiliates).toEqual([]);
	});
});
