/**
 * What the public notes add to standing deposit addresses and affiliate claims, probed over HTTP:
 * a payment to a standing address becomes a deposit and an order with `quoteId` null (reported by
 * the partner webhooks), listed newest first with `nextOffset`; pause holds deposits instead of
 * converting them, resume converts again; a claim takes the optional body, answers `{claim}`, is
 * read back one by one and moves from `processing` to paid (`txHash`) or failed over the clock; the
 * claims list filters by settlement chain and asset and answers `nextOffset`.
 */
import type { Sandbox } from '../../sandbox';
import { ALL_SCOPES, type Client, freshKey, receiver, SERVER, SERVER2, start, waitFor } from './helpers';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(async () => {
	await api.post('/sandbox/config', { autoAdvance: true, claimOutcome: 'paid' });
	await api.post('/sandbox/reset');
});

const EVM = '0x1111111111111111111111111111111111111111';
const put = (path: string, body: unknown, key = SERVER) => api.call('PUT', path, body, { key, headers: { 'x-idempotency-key': freshKey() } });
const patch = (path: string, body: unknown, key = SERVER, idem = freshKey()) => api.call('PATCH', path, body, { key, headers: { 'x-idempotency-key': idem } });
const pay = (depositAddress: string, amount: string, extra: Record<string, unknown> = {}) => api.post('/sandbox/deposits', { depositAddress, amount, ...extra });

async function instruction(ref: string): Promise<{ standingAddressId: string; addresses: Record<string, string> }> {
	const r = await put(`/v1/standing-deposit-addresses/${encodeURIComponent(ref)}`, { destination: { chain: 'base', asset: 'USDC', address: EVM } });
	expect(r.status).toBe(200);
	return r.body;
}

describe('deposits on a standing address', () => {
	it('a payment becomes a deposit and an order with quoteId null, reported by the partner webhook', async () => {
		const hook = await receiver();
		try {
			await api.post('/v1/webhooks', { url: hook.url }, { key: SERVER });
			const { addresses } = await instruction('shop/1');
			const paid = await pay(addresses.bitcoin, '150000', { senderAddress: 'bc1qsender' });
			expect(paid.status).toBe(201);
			expect(paid.body).toMatchObject({ reference: 'shop/1', sourceChain: 'bitcoin', order: { quoteId: null, sourceChain: 'bitcoin', destinationChain: 'base', recipientAddress: EVM } });
			const orderId = paid.body.orderId as string;
			expect(paid.body.deposit).toMatchObject({
				id: expect.stringMatching(/^dep_/), chain: 'bitcoin', asset: 'BTC', amount: '150000', sourceTxId: paid.body.txHash, sourceTxIndex: 0,
				senderAddress: 'bc1qsender', status: 'converted', orderId, quoteId: null, batchId: null, refundTxId: null, zeroconfOffer: null,
			});
			const events = await waitFor(() => {
				const bodies = hook.received.map((r) => JSON.parse(r.raw.toString()) as { event: string; data: { id: string; quoteId: unknown } });
				return bodies.some((b) => b.event === 'order.completed') ? bodies : undefined;
			}, 10_000, 'order.completed delivered');
			expect(events.every((e) => e.data.id === orderId && e.data.quoteId === null)).toBe(true);
			expect(events[0].event).toBe('order.processing');
		} finally {
			await hook.close();
		}
	});

	it('lists deposits newest first with limit/offset and nextOffset (null on the last page)', async () => {
		const { addresses } = await instruction('list-1');
		for (const amount of ['1000000', '2000000', '3000000']) expect((await pay(addresses.evm, amount)).status).toBe(201);
		const first = await api.get('/v1/standing-deposit-addresses/list-1/deposits?limit=2', { key: SERVER });
		expect(first.status).toBe(200);
		expect(first.body.deposits.map((d: { amount: string }) => d.amount)).toEqual(['3000000', '2000000']);
		expect(first.body.nextOffset).toBe(2);
		const second = await api.get('/v1/standing-deposit-addresses/list-1/deposits?limit=2&offset=2', { key: SERVER });
		expect(second.body).toMatchObject({ deposits: [expect.objectContaining({ amount: '1000000', chain: 'base', asset: 'USDC' })], nextOffset: null });
		expect((await api.get('/v1/standing-deposit-addresses/list-1/deposits?limit=0', { key: SERVER })).body.error.code).toBe('invalid_query');
		expect((await api.get('/v1/standing-deposit-addresses/nothing/deposits', { key: SERVER })).status).toBe(404);
		expect((await api.get('/v1/standing-deposit-addresses/list-1/deposits', { key: SERVER2 })).status).toBe(404);
		expect((await api.get('/v1/standing-deposit-addresses/list-1/deposits', { key: ALL_SCOPES })).body.error.code).toBe('forbidden');
	});

	it('a chain of another address family or an unknown asset is refused by the control call', async () => {
		const { addresses } = await instruction('families');
		expect((await pay(addresses.evm, '1', { sourceChain: 'solana', sourceAsset: 'USDC' })).status).toBe(400);
		expect((await pay(addresses.evm, '1', { sourceChain: 'ethereum', sourceAsset: 'NOPE' })).status).toBe(400);
		expect((await pay(addresses.evm, '1000000', { sourceChain: 'ethereum', sourceAsset: 'USDT' })).body.deposit).toMatchObject({ chain: 'ethereum', asset: 'USDT' });
	});

	it('pause holds deposits (no order), resume converts again; PATCH replays per idempotency key', async () => {
		const { standingAddressId, addresses } = await instruction('pause-1');
		const idem = freshKey();
		const paused = await patch('/v1/standing-deposit-addresses/pause-1/enabled', { enabled: false }, SERVER, idem);
		expect(paused.status).toBe(200);
		expect(paused.body).toEqual({ standingAddressId, enabled: false });
		const replayed = await patch('/v1/standing-deposit-addresses/pause-1/enabled', { enabled: false }, SERVER, idem);
		expect(replayed.headers.get('x-idempotency-replayed')).toBe('true');
		expect((await api.get('/v1/standing-deposit-addresses/pause-1', { key: SERVER })).body.enabled).toBe(false);
		const ordersBefore = (await api.get('/sandbox/orders')).body.orders.length;
		const held = await pay(addresses.evm, '5000000');
		expect(held.body).toMatchObject({ orderId: null, order: null, deposit: { status: 'held', code: 'standing_address_paused', batchState: 'held', orderId: null, batchId: expect.stringMatching(/^bat_/) } });
		const heldAgain = await pay(addresses.evm, '6000000');
		expect(heldAgain.body.deposit.batchId).toBe(held.body.deposit.batchId);
		expect((await api.get('/sandbox/orders')).body.orders).toHaveLength(ordersBefore);

		expect((await patch('/v1/standing-deposit-addresses/pause-1/enabled', { enabled: true })).body).toEqual({ standingAddressId, enabled: true });
		const converted = await pay(addresses.evm, '7000000');
		expect(converted.body.deposit).toMatchObject({ status: 'converted', orderId: expect.stringMatching(/^ord_/) });
		const list = (await api.get('/v1/standing-deposit-addresses/pause-1/deposits', { key: SERVER })).body.deposits;
		expect(list.map((d: { status: string }) => d.status)).toEqual(['converted', 'held', 'held']);
	});

	it('PATCH needs a key, a boolean, a known reference and a server key', async () => {
		await instruction('pause-2');
		expect((await api.call('PATCH', '/v1/standing-deposit-addresses/pause-2/enabled', { enabled: false }, { key: SERVER })).body.error.code).toBe('missing_idempotency_key');
		expect((await patch('/v1/standing-deposit-addresses/pause-2/enabled', { enabled: 'no' })).status).toBe(400);
		expect((await patch('/v1/standing-deposit-addresses/pause-2/enabled', { enabled: false, extra: 1 })).status).toBe(400);
		expect((await patch('/v1/standing-deposit-addresses/missing/enabled', { enabled: false })).status).toBe(404);
		expect((await patch('/v1/standing-deposit-addresses/pause-2/enabled', { enabled: false }, ALL_SCOPES)).body.error.code).toBe('forbidden');
	});
});

describe('affiliate claims (newer docs)', () => {
	const accrue = (amount: string, extra: Record<string, unknown> = {}) => api.post('/sandbox/affiliates/aff_sandbox_alpha/accrue', { amount, ...extra });
	const claim = (body?: unknown, key = SERVER) => api.post('/v1/affiliates/aff_sandbox_alpha/claim', body, { key });

	it('answers {claim} in processing, pays it over the clock with a txHash, and reads it back', async () => {
		await accrue('2500000');
		const created = await claim();
		expect(created.status).toBe(200);
		expect(created.body.claim).toMatchObject({
			id: expect.stringMatching(/^clm_/), affiliateId: 'aff_sandbox_alpha', amount: '2500000', settlementChain: 'base', settlementAsset: 'USDC',
			payoutChain: 'base', payoutAsset: 'USDC', status: 'processing', txHash: null, errorMessage: null, attempts: 0, completedAt: null,
		});
		const id = created.body.claim.id as string;
		const paid = await waitFor(async () => {
			const r = await api.get(`/v1/affiliates/aff_sandbox_alpha/claims/${id}`, { key: SERVER });
			return r.body.claim.txHash ? r.body.claim : undefined;
		}, 5000, 'the claim paid');
		expect(paid).toMatchObject({ status: 'completed', attempts: 1, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), completedAt: expect.any(String) });
		expect((await api.get('/v1/affiliates/aff_sandbox_alpha/claims/clm_nope', { key: SERVER })).status).toBe(404);
		expect((await api.get(`/v1/affiliates/aff_sandbox_beta/claims/${id}`, { key: SERVER })).status).toBe(404);
		expect((await api.get(`/v1/affiliates/aff_sandbox_alpha/claims/${id}`, { key: ALL_SCOPES })).status).toBe(403);
	});

	it('the optional body picks the settlement balance and the payout destination; several balances need the pair', async () => {
		await accrue('2000000');
		await accrue('3000000', { chain: 'solana', asset: 'USDC' });
		const several = await claim();
		expect([several.status, several.body.error.code]).toEqual([400, 'invalid_request']);
		expect(several.body.error.message).toMatch(/base:USDC, solana:USDC/);
		expect((await claim({ settlementChain: 'solana' })).body.error.code).toBe('invalid_request');
		const solana = await claim({ settlementChain: 'solana', settlementAsset: 'USDC', payoutChain: 'ethereum', payoutAsset: 'USDT', payoutAddress: EVM });
		expect(solana.body.claim).toMatchObject({ amount: '3000000', settlementChain: 'solana', payoutChain: 'ethereum', payoutAsset: 'USDT', payoutAddress: EVM, operationId: expect.stringMatching(/^op_/) });
		// only the base balance is left: no pair needed now
		expect((await claim()).body.claim).toMatchObject({ amount: '2000000', settlementChain: 'base', operationId: null });
		expect((await claim({ settlementChain: 'solana', settlementAsset: 'USDC' })).body.error.code).toBe('invalid_state');
	});

	it('refuses a Lightning payout, a chain change without an address, unknown members and a disabled affiliate', async () => {
		await accrue('2000000');
		expect((await claim({ payoutChain: 'lightning', payoutAsset: 'BTC', payoutAddress: 'a@b.c' })).body.error.code).toBe('invalid_payout_destination');
		expect((await claim({ payoutChain: 'ethereum', payoutAsset: 'USDC' })).body.error.code).toBe('invalid_request');
		expect((await claim({ memo: 'x' })).status).toBe(400);
		await api.call('DELETE', '/v1/affiliates/aff_sandbox_alpha', undefined, { key: SERVER, headers: { 'x-idempotency-key': freshKey() } });
		const disabled = await claim();
		expect(disabled.body.error).toMatchObject({ code: 'invalid_state', message: expect.stringMatching(/disabled/) });
	});

	it('a failed claim ends with errorMessage and gives its balance back; a retried attempt keeps processing, then pays', async () => {
		await api.post('/sandbox/config', { claimOutcome: 'failed' });
		await accrue('2000000');
		const failing = (await claim()).body.claim;
		const failed = await waitFor(async () => {
			const c = (await api.get(`/v1/affiliates/aff_sandbox_alpha/claims/${failing.id}`, { key: SERVER })).body.claim;
			return c.status === 'failed' ? c : undefined;
		}, 5000, 'the claim failed');
		expect(failed).toMatchObject({ txHash: null, errorMessage: expect.any(String), nextAttemptAt: null, attempts: 1 });

		await api.post('/sandbox/config', { claimOutcome: 'retry' });
		const retried = (await claim()).body.claim;
		expect(retried.amount).toBe('2000000');
		const attempt = await waitFor(async () => {
			const c = (await api.get(`/v1/affiliates/aff_sandbox_alpha/claims/${retried.id}`, { key: SERVER })).body.claim;
			return c.attempts >= 1 ? c : undefined;
		}, 5000, 'a first attempt');
		expect(attempt).toMatchObject({ status: 'processing', txHash: null, errorMessage: expect.stringMatching(/retrying/), nextAttemptAt: expect.any(String) });
		const paid = await waitFor(async () => {
			const c = (await api.get(`/v1/affiliates/aff_sandbox_alpha/claims/${retried.id}`, { key: SERVER })).body.claim;
			return c.txHash ? c : undefined;
		}, 5000, 'the retried claim paid');
		expect(paid).toMatchObject({ status: 'completed', attempts: 2, errorMessage: null, nextAttemptAt: null });
	});

	it('with autoAdvance off a claim stays processing until settled by hand', async () => {
		await api.post('/sandbox/config', { autoAdvance: false });
		await accrue('2000000');
		const { id } = (await claim()).body.claim;
		await new Promise((r) => setTimeout(r, 400));
		expect((await api.get(`/v1/affiliates/aff_sandbox_alpha/claims/${id}`, { key: SERVER })).body.claim.status).toBe('processing');
		expect((await api.post(`/sandbox/claims/${id}/settle`, { outcome: 'paid' })).body.claim).toMatchObject({ status: 'completed', txHash: expect.any(String) });
		expect((await api.post(`/sandbox/claims/${id}/settle`, { outcome: 'paid' })).status).toBe(400);
	});

	it('lists claims newest first, filtered by settlement chain and asset, with nextOffset', async () => {
		await api.post('/sandbox/config', { autoAdvance: false });
		const ids: string[] = [];
		for (const [chain, amount] of [['base', '2000000'], ['solana', '2100000'], ['base', '2200000']]) {
			await accrue(amount, { chain, asset: 'USDC' });
			ids.push((await claim({ settlementChain: chain, settlementAsset: 'USDC' })).body.claim.id);
		}
		const all = await api.get('/v1/affiliates/aff_sandbox_alpha/claims?limit=2', { key: SERVER });
		expect(all.body.claims.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
		expect(all.body.nextOffset).toBe(2);
		const rest = await api.get('/v1/affiliates/aff_sandbox_alpha/claims?limit=2&offset=2', { key: SERVER });
		expect(rest.body).toMatchObject({ claims: [expect.objectContaining({ id: ids[0] })], nextOffset: null });
		const base = await api.get('/v1/affiliates/aff_sandbox_alpha/claims?settlementChain=base&settlementAsset=USDC', { key: SERVER });
		expect(base.body).toEqual({ claims: [expect.objectContaining({ id: ids[2] }), expect.objectContaining({ id: ids[0] })], nextOffset: null });
	});
});
