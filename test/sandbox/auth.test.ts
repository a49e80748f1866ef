import { ALL_SCOPES, CHECKOUT, CLIENT2, type Client, quoteBody, SERVER, SERVER2, start } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

const QUOTE = '/v1/orchestration/quote';
const expectError = (r: { status: number; body: { error: { code: string; message: string } } }, status: number, code: string) => {
	expect({ status: r.status, code: r.body.error?.code }).toEqual({ status, code });
	expect(typeof r.body.error.message).toBe('string');
};

describe('keys (spec §5, §7)', () => {
	it('answers 401 for missing, unknown and disabled keys, without echoing the key', async () => {
		expectError(await api.get('/v1/orchestration/status?id=x'), 401, 'auth_required');
		const unknown = await api.get('/v1/orchestration/status?id=x', { key: 'fn_not_a_real_key_123' });
		expectError(unknown, 401, 'unauthorized');
		expect(unknown.text).not.toContain('fn_not_a_real_key_123');
		expectError(await api.post(QUOTE, quoteBody(), { key: 'fn_sandbox_server_partner1_disabled' }), 401, 'unauthorized');
		expectError(await api.post(QUOTE, quoteBody(), { key: 'fnp_sandbox_disabled' }), 401, 'unauthorized');
	});

	it('answers scope_required when a client key lacks the scope', async () => {
		expectError(await api.post(QUOTE, quoteBody(), { key: 'fnp_sandbox_no_scopes' }), 403, 'scope_required');
		expectError(await api.post(QUOTE, quoteBody(), { key: 'fnp_sandbox_orders_read' }), 403, 'scope_required');
		expect((await api.post(QUOTE, quoteBody(), { key: 'fnp_sandbox_orders_quote' })).status).toBe(200);
		expectError(await api.post('/v1/orchestration/submit', { quoteId: 'q' }, { key: 'fnp_sandbox_orders_quote' }), 403, 'scope_required');
		expectError(await api.post('/v1/orchestration/onramp', {}, { key: CHECKOUT }), 403, 'scope_required');
		expectError(await api.get('/v1/orchestration/status?id=x', { key: 'fnp_sandbox_orders_quote' }), 403, 'scope_required');
		expectError(await api.get('/v1/sse/operations/x?token=fnp_sandbox_orders_read'), 403, 'scope_required');
		expectError(await api.get('/v1/affiliates', { key: CHECKOUT }), 403, 'scope_required');
	});

	it('answers forbidden on endpoints no client key can reach', async () => {
		expectError(await api.post('/v1/webhooks', { url: 'http://127.0.0.1:1/x' }, { key: ALL_SCOPES }), 403, 'forbidden');
		expectError(await api.post('/v1/accumulation-addresses/sync', undefined, { key: ALL_SCOPES }), 403, 'forbidden');
		expectError(await api.get('/v1/liquidation-addresses', { key: ALL_SCOPES }), 403, 'forbidden');
		expectError(await api.get('/v1/accumulation-addresses/acc_sandbox_usdc_base', { key: ALL_SCOPES }), 403, 'forbidden');
		// affiliates:read without an affiliate pin is not enough
		expectError(await api.get('/v1/affiliates', { key: ALL_SCOPES }), 403, 'forbidden');
	});

	it('checks Origin per origin mode', async () => {
		const origin = (o?: string) => (o ? { origin: o } : undefined);
		const q = (key: string, o?: string) => api.post(QUOTE, quoteBody(), { key, headers: origin(o) });
		expectError(await q('fnp_sandbox_browser'), 403, 'origin_required');
		expectError(await q('fnp_sandbox_browser', 'https://evil.test'), 403, 'origin_not_allowed');
		const ok = await q('fnp_sandbox_browser', 'https://app.sandbox.test');
		expect(ok.status).toBe(200);
		expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.sandbox.test');
		expect((await q('fnp_sandbox_browser_any_origin', 'https://anything.test')).status).toBe(200);
		expectError(await q('fnp_sandbox_browser_any_origin'), 403, 'origin_required');
		expect((await q('fnp_sandbox_both')).status).toBe(200);
		expectError(await q('fnp_sandbox_both', 'https://evil.test'), 403, 'origin_not_allowed');
		expect((await q('fnp_sandbox_checkout', 'https://evil.test')).status).toBe(200); // server mode ignores Origin
	});

	it('answers 403 for pending and rejected accounts only while approval is enforced', async () => {
		expect((await api.post(QUOTE, quoteBody(), { key: 'fn_sandbox_server_pending' })).status).toBe(200);
		await api.post('/sandbox/config', { approvalEnforced: true });
		expectError(await api.post(QUOTE, quoteBody(), { key: 'fn_sandbox_server_pending' }), 403, 'account_pending_approval');
		expectError(await api.post(QUOTE, quoteBody(), { key: 'fnp_sandbox_pending' }), 403, 'account_pending_approval');
		expectError(await api.get('/v1/liquidation-addresses', { key: 'fn_sandbox_server_rejected' }), 403, 'account_rejected');
		expect((await api.post(QUOTE, quoteBody(), { key: SERVER })).status).toBe(200);
	});

	it('rejects client-key fee fields, but accepts a registered affiliateId', async () => {
		const fees = [{ recipient: '0x2222222222222222222222222222222222222222', feeBps: 10 }];
		expectError(await api.post(QUOTE, quoteBody({ appFees: fees }), { key: CHECKOUT }), 403, 'client_key_fee_fields_forbidden');
		expectError(await api.post(QUOTE, quoteBody({ affiliateIds: [{ affiliateId: 'aff_sandbox_alpha', feeBps: 5 }] }), { key: CHECKOUT }), 403, 'client_key_fee_fields_forbidden');
		expectError(await api.post('/v1/orchestration/onramp', { destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: '0x2222222222222222222222222222222222222222', amount: '100000', appFees: fees }, { key: ALL_SCOPES }), 403, 'client_key_fee_fields_forbidden');
		expectError(await api.post('/v1/accumulation-addresses', { sourceChain: 'base', sourceAsset: 'USDC', destinationAsset: 'BTC', recipientSparkAddress: 'sp1x', appFees: fees }, { key: ALL_SCOPES }), 403, 'client_key_fee_fields_forbidden');
		expect((await api.post(QUOTE, quoteBody({ affiliateId: 'aff_sandbox_alpha' }), { key: CHECKOUT })).status).toBe(200);
		expect((await api.post(QUOTE, quoteBody({ affiliateIds: ['aff_sandbox_alpha'] }), { key: CHECKOUT })).status).toBe(200);
		expect((await api.post(QUOTE, quoteBody({ appFees: fees }), { key: SERVER })).status).toBe(200);
	});

	it('requires the browser verification token on submit and onramp when switched on', async () => {
		const q = await api.post(QUOTE, quoteBody(), { key: CHECKOUT });
		await api.post('/sandbox/config', { turnstile: { enabled: true } });
		const submit = (headers?: Record<string, string>) => api.post('/v1/orchestration/submit', { quoteId: q.body.quoteId, txHash: '0xabc' }, { key: CHECKOUT, headers });
		expectError(await submit(), 403, 'turnstile_required');
		expectError(await submit({ 'cf-turnstile-response': 'wrong' }), 403, 'turnstile_failed');
		expectError(await api.post('/v1/orchestration/onramp', {}, { key: ALL_SCOPES }), 403, 'turnstile_required');
		const ok = await submit({ 'cf-turnstile-response': 'sandbox-turnstile-pass' });
		expect(ok.status).toBe(200);
		expect(ok.body.readToken).toMatch(/^rt_/);
	});
});

describe('submit ownership (spec §4.6)', () => {
	it('lets only the creating partner submit a quote', async () => {
		const q = await api.post(QUOTE, quoteBody(), { key: SERVER });
		const other = await api.post('/v1/orchestration/submit', { quoteId: q.body.quoteId, txHash: '0xabc' }, { key: SERVER2 });
		expectError(other, 403, 'forbidden');
		expectError(await api.post('/v1/orchestration/submit', { quoteId: q.body.quoteId, txHash: '0xabc' }, { key: CLIENT2 }), 403, 'forbidden');
		const mine = await api.post('/v1/orchestration/submit', { quoteId: q.body.quoteId, txHash: '0xabc' }, { key: CHECKOUT });
		expect(mine.status).toBe(200);
		expect(mine.body).toMatchObject({ status: 'processing', quoteId: q.body.quoteId });
		expect(mine.body.readToken).toMatch(/^rt_/);
		expectError(await api.post('/v1/orchestration/submit', { quoteId: 'q_missing', txHash: '0xabc' }, { key: SERVER }), 404, 'not_found');
	});

	it('needs the source reference of the quote\'s source chain (public-notes)', async () => {
		const q = await api.post(QUOTE, quoteBody({ sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '100000', recipientAddress: '0x1111111111111111111111111111111111111111' }), { key: SERVER });
		const r = await api.post('/v1/orchestration/submit', { quoteId: q.body.quoteId, txHash: '0xabc' }, { key: SERVER });
		expectError(r, 400, 'invalid_request');
		expect(r.body.error.message).toMatch(/bitcoinTxid, bitcoinVout/);
		const ok = await api.post('/v1/orchestration/submit', { quoteId: q.body.quoteId, bitcoinTxid: 'ab'.repeat(32), bitcoinVout: 0 }, { key: SERVER });
		expect(ok.status).toBe(200);
		expect(ok.body.readToken).toBeUndefined();
	});
});

describe('read tokens (spec §5)', () => {
	it('binds tokens to the partner, the issuing key and one identifier', async () => {
		const q = await api.post(QUOTE, quoteBody(), { key: CHECKOUT });
		const quoteToken = q.body.readToken as string;
		const s = await api.post('/v1/orchestration/submit', { quoteId: q.body.quoteId, txHash: '0xabc' }, { key: CHECKOUT });
		const orderToken = s.body.readToken as string;
		const status = (query: string, key: string, headers?: Record<string, string>) => api.get(`/v1/orchestration/status?${query}`, { key, headers });
		expectError(await status(`id=${s.body.orderId}`, CHECKOUT), 403, 'read_token_required');
		expect((await status(`id=${s.body.orderId}`, CHECKOUT, { 'x-read-token': orderToken })).status).toBe(200);
		expect((await status(`id=${s.body.orderId}&readToken=${orderToken}`, CHECKOUT)).status).toBe(200);
		expect((await status(`quoteId=${q.body.quoteId}&readToken=${quoteToken}`, CHECKOUT)).status).toBe(200);
		// the quote token covers the quote and its order
		expect((await status(`id=${s.body.orderId}&readToken=${quoteToken}`, CHECKOUT)).status).toBe(200);
		// another key of the same partner, another identifier, a made-up token
		expectError(await status(`id=${s.body.orderId}&readToken=${orderToken}`, ALL_SCOPES), 403, 'invalid_read_token');
		const q2 = await api.post(QUOTE, quoteBody(), { key: CHECKOUT });
		expectError(await status(`quoteId=${q2.body.quoteId}&readToken=${quoteToken}`, CHECKOUT), 403, 'invalid_read_token');
		expectError(await status(`id=${s.body.orderId}&readToken=rt_forged`, CHECKOUT), 403, 'invalid_read_token');
		// server keys need none
		expect((await status(`id=${s.body.orderId}`, SERVER)).status).toBe(200);
		// other partners do not see the order
		expectError(await status(`id=${s.body.orderId}`, SERVER2), 404, 'not_found');
	});

	it('rejects a quote-bound token on the stream and tokens of another partner', async () => {
		const q = await api.post(QUOTE, quoteBody(), { key: CHECKOUT });
		const s = await api.post('/v1/orchestration/submit', { quoteId: q.body.quoteId, txHash: '0xabc' }, { key: CHECKOUT });
		expectError(await api.get(`/v1/sse/operations/${s.body.orderId}?token=${CHECKOUT}`), 403, 'read_token_required');
		expectError(await api.get(`/v1/sse/operations/${s.body.orderId}?token=${CHECKOUT}&readToken=${q.body.readToken}`), 403, 'invalid_read_token');
		expectError(await api.get(`/v1/sse/operations/${s.body.orderId}?token=${CLIENT2}&readToken=${s.body.readToken}`), 403, 'invalid_read_token');
	});

	it('expires tokens after 24 hours (scaled)', async () => {
		const fast = await start({ timeScale: 43_200 }); // 24 h -> 2 s: room for a loaded machine before the first read
		try {
			const q = await fast.api.post(QUOTE, quoteBody(), { key: CHECKOUT });
			const read = () => fast.api.get(`/v1/orchestration/order?quoteId=${q.body.quoteId}&readToken=${q.body.readToken}`, { key: CHECKOUT });
			const fresh = await read();
			expect(fresh.status).toBe(200);
			expect(fresh.body).toMatchObject({ quoteId: q.body.quoteId, order: null });
			await new Promise((r) => setTimeout(r, q.receivedAt + 2100 - Date.now()));
			const late = await read();
			expectError(late, 403, 'invalid_read_token');
			expect(late.body.error.message).toMatch(/expired/);
		} finally {
			await fast.sb.close();
		}
	});
});
