/**
 * Standing deposit addresses, affiliate management and claims, webhook deletion and recovery
 * subscriptions (public-notes "Standing deposit addresses", "Affiliate management and claims",
 * "Webhooks"), probed over HTTP.
 */
import { createHmac } from 'node:crypto';
import type { Sandbox } from '../../sandbox';
import { ALL_SCOPES, type Client, freshKey, fundedOrder, receiver, SERVER, SERVER2, start, waitFor } from './helpers';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const put = (path: string, body: unknown, key = SERVER, idem: string | null = freshKey()) =>
	api.call('PUT', path, body, { key, headers: idem === null ? {} : { 'x-idempotency-key': idem } });
const del = (path: string, key = SERVER) => api.call('DELETE', path, undefined, { key, headers: { 'x-idempotency-key': freshKey() } });

const instruction = (overrides: Record<string, unknown> = {}) => ({
	destination: { chain: 'base', asset: 'USDC', address: '0x1111111111111111111111111111111111111111' },
	...overrides,
});

describe('standing deposit addresses', () => {
	it('lists destinations, creates an instruction once and returns the identical one for the same body', async () => {
		const dest = await api.get('/v1/standing-deposit-addresses/destinations', { key: SERVER });
		expect(dest.status).toBe(200);
		expect(dest.body.destinations).toContainEqual({ chain: 'base', asset: 'USDC' });
		const first = await put('/v1/standing-deposit-addresses/customer%2F42', instruction());
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({ standingAddressId: expect.stringMatching(/^sda_/), reference: 'customer/42', enabled: true, slippageBps: 50, feeBps: 0 });
		expect(first.body.addresses.evm).toMatch(/^0x[0-9a-f]{40}$/);
		const again = await put('/v1/standing-deposit-addresses/customer%2F42', instruction());
		expect(again.status).toBe(200);
		expect(again.body).toEqual(first.body);
		const read = await api.get('/v1/standing-deposit-addresses/customer%2F42', { key: SERVER });
		expect(read.body).toEqual(first.body);
	});

	it('refuses a changed body with 409 instruction_conflict, unknown fields, bad fees and a missing key', async () => {
		await put('/v1/standing-deposit-addresses/ref-1', instruction());
		const changed = await put('/v1/standing-deposit-addresses/ref-1', instruction({ feeBps: 10 }));
		expect(changed.status).toBe(409);
		expect(changed.body.error.code).toBe('instruction_conflict');
		expect((await put('/v1/standing-deposit-addresses/ref-2', instruction({ label: 'x' }))).status).toBe(400);
		const fees = await put('/v1/standing-deposit-addresses/ref-3', instruction({ feeBps: 9990, affiliateIds: [{ affiliateId: 'aff_sandbox_alpha', feeBps: 10 }] }));
		expect(fees.body.error.code).toBe('unsupported_fee_plan');
		const noKey = await put('/v1/standing-deposit-addresses/ref-4', instruction(), SERVER, null);
		expect(noKey.body.error.code).toBe('missing_idempotency_key');
		expect((await api.get('/v1/standing-deposit-addresses/nothing-here', { key: SERVER })).status).toBe(404);
	});

	it('is server-key only, reads included, and per partner', async () => {
		await put('/v1/standing-deposit-addresses/mine', instruction());
		for (const path of ['/v1/standing-deposit-addresses/destinations', '/v1/standing-deposit-addresses/mine']) {
			const r = await api.get(path, { key: ALL_SCOPES });
			expect([r.status, r.body.error.code]).toEqual([403, 'forbidden']);
		}
		expect((await put('/v1/standing-deposit-addresses/x', instruction(), ALL_SCOPES)).status).toBe(403);
		expect((await api.get('/v1/standing-deposit-addresses/mine', { key: SERVER2 })).status).toBe(404);
	});
});

describe('affiliate management', () => {
	it('creates, updates, disables; lists with includeDisabled and paging', async () => {
		const created = await put('/v1/affiliates/aff_new', { feeBps: 30, payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: '0xabc' });
		expect(created.status).toBe(200);
		expect(created.body.affiliate).toMatchObject({ affiliateId: 'aff_new', feeBps: 30, enabled: true, disabledAt: null });
		const updated = await put('/v1/affiliates/aff_new', { feeBps: 40, payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: '0xabc' });
		expect(updated.body.affiliate.feeBps).toBe(40);
		const lightning = await put('/v1/affiliates/aff_ln', { feeBps: 1, payoutChain: 'lightning', payoutAsset: 'BTC', payoutAddress: 'a@b.c' });
		expect(lightning.body.error.code).toBe('invalid_payout_destination');
		// public-notes "Upsert: feeBps 1..9999, required"
		const noFee = await put('/v1/affiliates/aff_zero', { feeBps: 0, payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: '0xabc' });
		expect([noFee.status, noFee.body.error.code, noFee.body.error.message]).toEqual([400, 'invalid_request', expect.stringMatching(/^feeBps: /)]);
		expect((await del('/v1/affiliates/aff_new')).body).toEqual({ ok: true });
		const enabled = await api.get('/v1/affiliates', { key: SERVER });
		expect(enabled.body.affiliates.map((a: { affiliateId: string }) => a.affiliateId)).toEqual(['aff_sandbox_alpha', 'aff_sandbox_beta']);
		const all = await api.get('/v1/affiliates?includeDisabled=true&limit=2&offset=2', { key: SERVER });
		expect(all.body.affiliates.map((a: { affiliateId: string }) => a.affiliateId)).toEqual(['aff_sandbox_retired', 'aff_new']);
		expect((await api.get('/v1/affiliates?limit=1001', { key: SERVER })).body.error.code).toBe('invalid_query');
		expect((await put('/v1/affiliates/aff_x', { feeBps: 1, payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: '0x' }, ALL_SCOPES)).status).toBe(403);
	});

	it('lists the payout destinations live now: the listed assets but Lightning\'s, each one a profile may name; server key only', async () => {
		const listed = await api.get('/v1/affiliate-dashboard/payout-destinations', { key: SERVER });
		expect(listed.status).toBe(200);
		const destinations = listed.body.destinations as Array<{ chain: string; asset: string }>;
		expect(destinations).toContainEqual({ chain: 'base', asset: 'USDC' });
		expect(destinations.filter((d) => d.chain === 'lightning')).toEqual([]);
		for (const [n, d] of destinations.slice(0, 5).entries()) {
			const profile = await put(`/v1/affiliates/aff_payout_${n}`, { feeBps: 10, payoutChain: d.chain, payoutAsset: d.asset, payoutAddress: '0xabc' });
			expect([d, profile.status]).toEqual([d, 200]);
		}
		const client = await api.get('/v1/affiliate-dashboard/payout-destinations', { key: ALL_SCOPES });
		expect([client.status, client.body.error.code]).toEqual([403, 'forbidden']);
	});

	it('claims the available share once (accrued by control and by completed orders) and lists the claims', async () => {
		const empty = await api.post('/v1/affiliates/aff_sandbox_alpha/claim', undefined, { key: SERVER });
		expect(empty.body.error.code).toBe('invalid_state');
		await api.post('/sandbox/affiliates/aff_sandbox_alpha/accrue', { amount: '2500000' });
		const { orderId } = await fundedOrder(api, {}, { affiliateIds: ['aff_sandbox_alpha'] });
		await waitFor(async () => ((await api.get(`/sandbox/orders/${orderId}`)).body.order.status === 'completed' ? true : undefined), 10_000, 'order completed');
		const claim = await api.post('/v1/affiliates/aff_sandbox_alpha/claim', undefined, { key: SERVER });
		expect(claim.status).toBe(200);
		// 2.5 USDC accrued + 80 % of 50 bps of a 100 USDC order (0.4 USDC), both USDC on base (newer docs: {claim})
		expect(claim.body.claim).toEqual(expect.objectContaining({ affiliateId: 'aff_sandbox_alpha', settlementChain: 'base', settlementAsset: 'USDC', amount: '2900000', status: 'processing' }));
		expect((await api.post('/v1/affiliates/aff_sandbox_alpha/claim', undefined, { key: SERVER })).body.error.code).toBe('invalid_state');
		const list = await api.get('/v1/affiliates/aff_sandbox_alpha/claims?limit=10', { key: SERVER });
		expect(list.body.claims.map((c: { id: string }) => c.id)).toEqual([claim.body.claim.id]);
		await api.post('/sandbox/affiliates/aff_sandbox_alpha/accrue', { amount: '900000' });
		expect((await api.post('/v1/affiliates/aff_sandbox_alpha/claim', undefined, { key: SERVER })).body.error.code).toBe('invalid_state');
	});
});

describe('webhook deletion and recovery subscriptions', () => {
	it('DELETE disables an endpoint: no more deliveries, a second delete is 404', async () => {
		const r = await receiver();
		try {
			const hook = (await api.post('/v1/webhooks', { url: r.url }, { key: SERVER })).body;
			expect((await del(`/v1/webhooks/${hook.webhookId}`, ALL_SCOPES)).status).toBe(403);
			expect((await del(`/v1/webhooks/${hook.webhookId}`)).body).toEqual({ ok: true });
			expect((await del(`/v1/webhooks/${hook.webhookId}`)).status).toBe(404);
			const listed = (await api.get('/sandbox/webhooks')).body.webhooks;
			expect(listed).toEqual([expect.objectContaining({ webhookId: hook.webhookId, disabledAt: expect.any(String) })]);
			await fundedOrder(api);
			await new Promise((resolve) => setTimeout(resolve, 300));
			expect(r.received).toHaveLength(0);
		} finally {
			await r.close();
		}
	});

	it('delivers order.recovery_required, signed with the recovery secret, to recovery subscriptions only', async () => {
		const orders = await receiver();
		const recovery = await receiver();
		try {
			await api.post('/v1/webhooks', { url: orders.url }, { key: SERVER });
			const sub = await api.post('/v1/webhooks/recovery', { url: recovery.url }, { key: SERVER });
			expect(sub.status).toBe(201);
			expect(sub.body).toMatchObject({ webhookId: expect.stringMatching(/^whr_/), secret: expect.stringMatching(/^whsec_/) });
			const { orderId } = await fundedOrder(api, { autoAdvance: false });
			const before = orders.received.length;
			const raised = await api.post(`/sandbox/orders/${orderId}/recovery-required`, { reviewStatus: 'blocked_wallet' });
			expect(raised.status).toBe(202);
			const [got] = await waitFor(() => (recovery.received.length > 0 ? recovery.received : undefined), 5000, 'recovery delivery');
			const ts = got.headers['x-service-timestamp'] as string;
			const expected = createHmac('sha256', sub.body.secret).update(`${ts}.`).update(got.raw).digest('hex');
			expect(got.headers['x-service-signature']).toBe(expected);
			const envelope = JSON.parse(got.raw.toString('utf8'));
			expect(envelope).toMatchObject({ event: 'order.recovery_required', data: { id: orderId, status: 'processing', reviewStatus: 'blocked_wallet' } });
			expect(orders.received.slice(before).some((d) => d.raw.toString().includes('recovery_required'))).toBe(false);
			expect((await del(`/v1/webhooks/recovery/${sub.body.webhookId}`)).body).toEqual({ ok: true });
			expect((await api.post(`/sandbox/orders/${orderId}/recovery-required`, {})).body.deliveries).toEqual([]);
		} finally {
			await orders.close();
			await recovery.close();
		}
	});
});
