/**
 * Refunds of deposits held on a paused standing address (public-notes: `POST` with
 * X-Idempotency-Key, `{batchId, refundAddress}` → `{batchId, status: "refund_requested"}`; the path
 * is not shown: `/{ref}/refund`, the package's default guess, and one public client's `/{ref}/resolve`
 * taking `{depositIds, refundAddress}`). The deposits listing then shows the refund.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- answers are plain JSON asserted field by field */
import type { Sandbox } from '../../sandbox';
import { HeldRefundResponseSchema } from '../../sandbox/orchestration/responses';
import { ALL_SCOPES, type Client, freshKey, SERVER, SERVER2, start, waitFor } from './helpers';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(async () => {
	await api.post('/sandbox/config', { autoAdvance: true });
	await api.post('/sandbox/reset');
});

const EVM = '0x1111111111111111111111111111111111111111';
const BTC = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const pay = (depositAddress: string, amount: string, extra: Record<string, unknown> = {}) => api.post('/sandbox/deposits', { depositAddress, amount, ...extra });
const listing = async (ref: string) => (await api.get(`/v1/standing-deposit-addresses/${ref}/deposits`, { key: SERVER })).body.deposits as Array<Record<string, any>>;

/** An instruction paused after one converted payment, with two payments held in one batch. */
async function heldBatch(ref: string) {
	const created = await api.call('PUT', `/v1/standing-deposit-addresses/${ref}`, { destination: { chain: 'base', asset: 'USDC', address: EVM } }, { key: SERVER, headers: { 'x-idempotency-key': freshKey() } });
	const { addresses } = created.body as { addresses: Record<string, string> };
	const converted = await pay(addresses.evm, '2000000');
	const paused = await api.call('PATCH', `/v1/standing-deposit-addresses/${ref}/enabled`, { enabled: false }, { key: SERVER, headers: { 'x-idempotency-key': freshKey() } });
	expect(paused.body.enabled).toBe(false);
	const one = await pay(addresses.evm, '5000000');
	const two = await pay(addresses.evm, '6000000');
	const batchId = one.body.deposit.batchId as string;
	expect(two.body.deposit.batchId).toBe(batchId);
	return { addresses, batchId, converted: converted.body.deposit.id as string, held: [one.body.deposit.id as string, two.body.deposit.id as string] };
}

describe('refund of a held batch (/{ref}/refund)', () => {
	it('answers refund_requested; the listing shows the refund requested, then refunded with a refundTxId', async () => {
		const { batchId, held, converted } = await heldBatch('shop-refund');
		const key = freshKey();
		const r = await api.post('/v1/standing-deposit-addresses/shop-refund/refund', { batchId, refundAddress: EVM }, { key: SERVER, idem: key });
		expect([r.status, r.body]).toEqual([200, { batchId, status: 'refund_requested' }]);
		expect(HeldRefundResponseSchema.safeParse(r.body).success).toBe(true);
		const replay = await api.post('/v1/standing-deposit-addresses/shop-refund/refund', { batchId, refundAddress: EVM }, { key: SERVER, idem: key });
		expect([replay.body, replay.headers.get('x-idempotency-replayed')]).toEqual([r.body, 'true']);

		const done = await waitFor(async () => {
			const list = await listing('shop-refund');
			return list.filter((d) => held.includes(d.id)).every((d) => d.status === 'refunded') ? list : undefined;
		}, 5000, 'the held deposits to be refunded');
		for (const d of done.filter((x) => held.includes(x.id))) {
			expect(d).toMatchObject({ batchId, batchState: 'refunded', status: 'refunded', refundTxId: expect.stringMatching(/^0x[0-9a-f]{64}$/), orderId: null });
		}
		expect(done.find((d) => d.id === converted)).toMatchObject({ status: 'converted', refundTxId: null });
		// refunded already: no second refund
		const again = await api.post('/v1/standing-deposit-addresses/shop-refund/refund', { batchId, refundAddress: EVM }, { key: SERVER });
		expect([again.status, again.body.error.code]).toEqual([400, 'invalid_state']);
	});

	it('shows refund_requested until settled by hand with autoAdvance off; a later held payment opens a new batch', async () => {
		await api.post('/sandbox/config', { autoAdvance: false });
		const { addresses, batchId, held } = await heldBatch('shop-manual');
		await api.post('/v1/standing-deposit-addresses/shop-manual/refund', { batchId, refundAddress: EVM }, { key: SERVER });
		const requested = (await listing('shop-manual')).filter((d) => held.includes(d.id));
		expect(requested.map((d) => [d.status, d.batchState, d.refundTxId])).toEqual([['refund_requested', 'refund_requested', null], ['refund_requested', 'refund_requested', null]]);
		const later = await pay(addresses.evm, '7000000');
		expect(later.body.deposit).toMatchObject({ status: 'held', batchState: 'held' });
		expect(later.body.deposit.batchId).not.toBe(batchId);
		const settled = await api.post(`/sandbox/standing-batches/${batchId}/settle`, { outcome: 'failed' });
		expect(settled.body.deposits.map((d: { status: string }) => d.status)).toEqual(['refund_failed', 'refund_failed']);
		expect((await api.post(`/sandbox/standing-batches/${batchId}/settle`, {})).body.error.code).toBe('invalid_state');
	});

	it('404 for an unknown batch or reference, 400 invalid_state for a batch not held, 400 invalid_address; server keys, an idempotency key', async () => {
		const { batchId, addresses } = await heldBatch('shop-errors');
		const refund = (body: unknown, opts: { key?: string; idem?: string } = { key: SERVER }) => api.post('/v1/standing-deposit-addresses/shop-errors/refund', body, opts);
		expect((await refund({ batchId: 'bat_unknown', refundAddress: EVM })).body.error.code).toBe('not_found');
		expect((await api.post('/v1/standing-deposit-addresses/no-such-ref/refund', { batchId, refundAddress: EVM }, { key: SERVER })).status).toBe(404);
		expect((await api.post('/v1/standing-deposit-addresses/shop-errors/refund', { batchId, refundAddress: EVM }, { key: SERVER2 })).status).toBe(404);
		for (const refundAddress of [BTC, 'not-an-address', '0x000000000000000000000000000000000000dEaD']) {
			const r = await refund({ batchId, refundAddress });
			expect({ refundAddress, status: r.status, code: r.body.error.code }).toEqual({ refundAddress, status: 400, code: 'invalid_address' });
		}
		expect((await refund({ batchId })).body.error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^refundAddress/) });
		expect((await refund({ batchId, refundAddress: EVM }, { key: ALL_SCOPES })).status).toBe(403);
		expect((await refund({ batchId, refundAddress: EVM }, { key: SERVER, idem: '' })).body.error.code).toBe('missing_idempotency_key');
		// a Bitcoin deposit held in the same batch needs a Bitcoin address: one address cannot fit both
		await pay(addresses.bitcoin, '150000');
		expect((await refund({ batchId, refundAddress: EVM })).body.error).toMatchObject({ code: 'invalid_address', message: expect.stringMatching(/bitcoin/) });
	});
});

describe('refund of held deposits by id (/{ref}/resolve, one public client\'s path)', () => {
	it('refunds the named held deposits; the rest of the batch stays held; converted or unknown deposits are refused', async () => {
		const { batchId, held, converted } = await heldBatch('shop-resolve');
		const r = await api.post('/v1/standing-deposit-addresses/shop-resolve/resolve', { depositIds: [held[0]], refundAddress: EVM }, { key: SERVER });
		expect([r.status, r.body]).toEqual([200, { batchId, batchIds: [batchId], depositIds: [held[0]], status: 'refund_requested' }]);
		const list = await waitFor(async () => {
			const l = await listing('shop-resolve');
			return l.find((d) => d.id === held[0])?.status === 'refunded' ? l : undefined;
		});
		expect(list.find((d) => d.id === held[0])?.refundTxId).toMatch(/^0x[0-9a-f]{64}$/);
		expect(list.find((d) => d.id === held[1])).toMatchObject({ status: 'held', batchState: 'held', refundTxId: null });
		const notHeld = await api.post('/v1/standing-deposit-addresses/shop-resolve/resolve', { depositIds: [converted], refundAddress: EVM }, { key: SERVER });
		expect([notHeld.status, notHeld.body.error.code]).toEqual([400, 'invalid_state']);
		expect((await api.post('/v1/standing-deposit-addresses/shop-resolve/resolve', { depositIds: ['dep_unknown'], refundAddress: EVM }, { key: SERVER })).status).toBe(404);
		expect((await api.post('/v1/standing-deposit-addresses/shop-resolve/resolve', { depositIds: [], refundAddress: EVM }, { key: SERVER })).body.error.code).toBe('invalid_request');
		// the batch route refunds what is still held of the batch
		expect((await api.post('/v1/standing-deposit-addresses/shop-resolve/refund', { batchId, refundAddress: EVM }, { key: SERVER })).body).toEqual({ batchId, status: 'refund_requested' });
	});
});
