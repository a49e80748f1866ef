/**
 * Issue 14, point 12: the control endpoints (GET /sandbox/keys hands out the gateway's private
 * keys) are closed to web pages of other origins; anonymous quotes are no partner's records, and
 * status reads always need a key (public-notes: "Status always needs a key (no anonymous polling)").
 */
import { request as httpRequest } from 'node:http';
import type { Sandbox } from '../../sandbox';
import { CHECKOUT, type Client, client, quoteBody, SERVER, SERVER2, start } from './helpers';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

/** A raw request with exactly these headers (fetch would not let us set Host). */
function raw(base: string, method: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
	const url = new URL(path, base);
	return new Promise((resolve, reject) => {
		const req = httpRequest({ host: url.hostname, port: url.port, method, path: url.pathname + url.search, headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
		});
		req.on('error', reject);
		req.end();
	});
}

describe('control endpoints refuse web pages of other origins', () => {
	it('GET /sandbox/keys from a foreign Origin: 403, no CORS header, no key in the answer', async () => {
		const res = await api.get('/sandbox/keys', { headers: { origin: 'https://evil.example' } });
		expect(res.status).toBe(403);
		expect(res.body.error.code).toBe('forbidden');
		expect(res.headers.get('access-control-allow-origin')).toBeNull();
		expect(res.text).not.toContain('1111111111');
		expect(res.text).not.toContain('fn_sandbox');
	});

	it('refuses the preflight, Sec-Fetch-Site cross-site and same-site, on both ports', async () => {
		for (const base of [sb.orchestrationUrl, sb.gatewayUrl]) {
			const preflight = await raw(base, 'OPTIONS', '/sandbox/keys', { origin: 'https://evil.example', 'access-control-request-method': 'GET' });
			expect(preflight.status).toBe(403);
			expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
			for (const site of ['cross-site', 'same-site']) {
				expect((await client(base).post('/sandbox/reset', undefined, { headers: { 'sec-fetch-site': site } })).status).toBe(403);
			}
		}
		expect((await client(sb.gatewayUrl).get('/sandbox/intents', { headers: { origin: 'http://localhost:5678' } })).status).toBe(403);
	});

	it('refuses a DNS-rebound host name; accepts IP literals and localhost', async () => {
		const { port } = new URL(sb.orchestrationUrl);
		const rebound = await raw(sb.orchestrationUrl, 'GET', '/sandbox/keys', { host: `attacker.example:${port}` });
		expect(rebound.status).toBe(403);
		expect(rebound.text).not.toContain('privateKeys');
		expect((await raw(sb.orchestrationUrl, 'GET', '/sandbox/keys', { host: `localhost:${port}` })).status).toBe(200);
		expect((await raw(sb.orchestrationUrl, 'GET', '/sandbox/keys', { host: `127.0.0.1:${port}` })).status).toBe(200);
	});

	it('local tools still work: no Origin, or the sandbox\'s own origin', async () => {
		expect((await api.get('/sandbox/keys')).status).toBe(200);
		expect((await api.get('/sandbox/keys', { headers: { origin: sb.orchestrationUrl, 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
	});

	it('the service endpoints keep their CORS for browser keys (spec §5)', async () => {
		const ok = await api.post('/v1/orchestration/quote', quoteBody(), { key: 'fnp_sandbox_browser', headers: { origin: 'https://app.sandbox.test' } });
		expect(ok.status).toBe(200);
		expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.sandbox.test');
	});
});

describe('anonymous quotes (created without Authorization) are no partner\'s records', () => {
	async function anonymousFundedQuote() {
		const q = await api.post('/v1/orchestration/quote', quoteBody());
		expect(q.status).toBe(200);
		const d = await api.post('/sandbox/deposits', { depositAddress: q.body.depositAddress, amount: q.body.amountIn, autoAdvance: false });
		expect(d.status).toBe(201);
		return { quoteId: q.body.quoteId as string, orderId: d.body.orderId as string };
	}

	it('no server key reads them by quoteId or order id: 404 not_found, as for another partner\'s quote', async () => {
		const { quoteId, orderId } = await anonymousFundedQuote();
		for (const key of [SERVER, SERVER2]) {
			for (const path of [`/v1/orchestration/status?quoteId=${quoteId}`, `/v1/orchestration/status?id=${orderId}`, `/v1/orchestration/order?quoteId=${quoteId}`]) {
				const res = await api.get(path, { key });
				expect([res.status, res.body.error?.code]).toEqual([404, 'not_found']);
			}
		}
		const client = await api.get(`/v1/orchestration/status?quoteId=${quoteId}`, { key: CHECKOUT });
		expect(client.status).toBe(403); // a client key needs a read token, which no one holds for it
	});

	it('status and order-by-quote always need a key (public-notes: no anonymous polling): keyless reads are 401, the anonymous quote\'s too', async () => {
		const { quoteId, orderId } = await anonymousFundedQuote();
		const own = await api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER });
		const paths = [
			`/v1/orchestration/status?quoteId=${quoteId}`,
			`/v1/orchestration/status?id=${orderId}`,
			`/v1/orchestration/order?quoteId=${quoteId}`,
			`/v1/orchestration/status?quoteId=${own.body.quoteId}`,
			`/v1/orchestration/order?quoteId=${own.body.quoteId}`,
			'/v1/orchestration/status?quoteId=q_unknown',
			`/v1/orchestration/status?txHash=${(await api.get(`/sandbox/orders/${orderId}`)).body.depositTxHash}&sourceChain=base`,
		];
		for (const path of paths) {
			const keyless = await api.get(path);
			expect({ path, answer: [keyless.status, keyless.body.error?.code] }).toEqual({ path, answer: [401, 'auth_required'] });
		}
		// the partner still reads its own quote
		expect((await api.get(`/v1/orchestration/order?quoteId=${own.body.quoteId}`, { key: SERVER })).status).toBe(200);
	});
});
