/**
 * Issue 14, point 12: the control endpoints (GET /sandbox/keys hands out the gateway's private
 * keys) are closed to web pages of other origins; anonymous quotes are no partner's records, and
 * status reads always need a key (public-notes: "Status always needs a key (no anonymous polling)").
 */
import { request as httpRequest } from 'node:http';
import Fastify from 'fastify';
import type { Sandbox } from '../../sandbox';
import { guardControlEndpoints, normalisedPath } from '../../sandbox/control-guard';
import { CHECKOUT, type Client, client, quoteBody, receiver, SERVER, SERVER2, start, waitFor } from './helpers';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

/** A raw request with exactly this request target and these headers (fetch would normalise the path and not let us set Host). */
function raw(base: string, method: string, target: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
	const { hostname, port } = new URL(base);
	return new Promise((resolve, reject) => {
		const req = httpRequest({ host: hostname, port, method, path: target, headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
		});
		req.on('error', reject);
		req.end(body);
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

/**
 * Issue 40: the guard judged the raw path, so `/%73andbox/keys` (which the router routes to
 * /sandbox/keys) answered every key with CORS for any origin. Each spelling below reads as a control
 * path; each must be refused to a hostile page however the router treats it.
 */
const EVIL = { origin: 'https://evil.example' };
/** Spellings of `/sandbox/<rest>` a router may route (some only with other router settings). */
function spellings(rest: string, port: string): Record<string, string> {
	return {
		'percent-encoded': `/%73andbox/${rest}`,
		'percent-encoded, upper-case hex': `/%73%61%4E%44box/${rest}`,
		'double-encoded': `/%2573andbox/${rest}`,
		'encoded slash': `/sandbox%2F${rest}`,
		'mixed case': `/SandBox/${rest}`,
		'encoded upper case': `/%53ANDBOX/${rest}`,
		'trailing slash, encoded': `/%73andbox/${rest}/`,
		'duplicate slashes': `//sandbox//${rest}`,
		'dot segments': `/x/../sandbox/./${rest}`,
		'encoded dot segments': `/%2e/x/%2e%2e/%73andbox/${rest}`,
		'; parameters': `/sandbox;jsessionid=1/${rest};x=1`,
		'absolute-form target': `http://127.0.0.1:${port}/sandbox/${rest}`,
		'absolute-form, encoded': `http://127.0.0.1:${port}/%73andbox/${rest}`,
	};
}

function expectRefused(res: { status: number; headers: Record<string, unknown>; text: string }, what: string): void {
	expect({ what, status: res.status, cors: res.headers['access-control-allow-origin'] }).toEqual({ what, status: 403, cors: undefined });
	if (!what.includes('HEAD')) expect(res.text).toContain('"forbidden"');
	expect(res.text).not.toContain('fn_sandbox');
	expect(res.text).not.toContain('1111111111');
}

describe('the guard judges the path as a router reads it (issue 40)', () => {
	it.each(Object.entries(spellings('keys', 'PORT')))('%s: GET, HEAD, preflight and Sec-Fetch-Site of %s from a hostile page: 403, no CORS, no key, on both ports', async (name, spelt) => {
		for (const base of [sb.orchestrationUrl, sb.gatewayUrl]) {
			const target = spelt.replace('PORT', new URL(base).port);
			expectRefused(await raw(base, 'GET', target, EVIL), `${base} GET ${name} ${target}`);
			expectRefused(await raw(base, 'HEAD', target, EVIL), `${base} HEAD ${name} ${target}`);
			expectRefused(await raw(base, 'OPTIONS', target, { ...EVIL, 'access-control-request-method': 'GET' }), `${base} OPTIONS ${name} ${target}`);
			expectRefused(await raw(base, 'GET', target, { 'sec-fetch-site': 'cross-site' }), `${base} Sec-Fetch-Site ${name} ${target}`);
		}
	});

	it('the gateway\'s own control endpoints, encoded: 403 to a hostile page, and its state does not change', async () => {
		const gw = sb.gatewayUrl;
		const { port } = new URL(gw);
		for (const [name, target] of Object.entries(spellings('gateway/config', port))) {
			expectRefused(await raw(gw, 'GET', target, EVIL), `GET ${name} ${target}`);
			expectRefused(await raw(gw, 'POST', target, { ...EVIL, 'content-type': 'application/json' }, '{"paused":true}'), `POST ${name} ${target}`);
		}
		for (const [name, target] of Object.entries(spellings('intents', port))) expectRefused(await raw(gw, 'GET', target, EVIL), `GET ${name} ${target}`);
		for (const [name, target] of Object.entries(spellings('tokens/expire', port))) expectRefused(await raw(gw, 'POST', target, EVIL), `POST ${name} ${target}`);
		expect((await client(gw).get('/sandbox/gateway/config')).body.paused).toBe(false);
	});

	it('POST <spelling of /sandbox/reset> from a hostile page does not reset: the quote stays', async () => {
		const q = await api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER });
		expect(q.status).toBe(200);
		for (const [name, target] of Object.entries(spellings('reset', new URL(sb.orchestrationUrl).port))) {
			expectRefused(await raw(sb.orchestrationUrl, 'POST', target, EVIL), `POST ${name} ${target}`);
		}
		expect((await api.get('/sandbox/quotes')).body.quotes.map((x: { quoteId: string }) => x.quoteId)).toEqual([q.body.quoteId]);
	});

	it('POST <spelling of a delivery, deposit or redelivery endpoint> from a hostile page signs and sends nothing', async () => {
		const rec = await receiver();
		try {
			const hook = await api.post('/sandbox/webhooks', { url: rec.url, secret: 'whsec_control_test' });
			expect(hook.status).toBe(201);
			const sent = await api.post(`/sandbox/webhooks/${hook.body.webhookId}/deliveries`, { rawBody: '{"event":"order.processing"}' });
			expect(sent.status).toBe(202);
			await waitFor(() => (rec.received.length === 1 ? true : undefined), 5000, 'the harness\'s own delivery');
			const q = await api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER });
			const port = new URL(sb.orchestrationUrl).port;
			const json = { ...EVIL, 'content-type': 'application/json' };
			for (const [name, target] of Object.entries(spellings(`webhooks/${hook.body.webhookId}/deliveries`, port))) {
				expectRefused(await raw(sb.orchestrationUrl, 'POST', target, json, '{"rawBody":"{\\"evil\\":1}"}'), `deliveries ${name} ${target}`);
			}
			for (const [name, target] of Object.entries(spellings(`deliveries/${sent.body.deliveryId}/redeliver`, port))) {
				expectRefused(await raw(sb.orchestrationUrl, 'POST', target, json, '{}'), `redeliver ${name} ${target}`);
			}
			for (const [name, target] of Object.entries(spellings('deposits', port))) {
				const body = JSON.stringify({ depositAddress: q.body.depositAddress, amount: q.body.amountIn });
				expectRefused(await raw(sb.orchestrationUrl, 'POST', target, json, body), `deposits ${name} ${target}`);
			}
			for (const [name, target] of Object.entries(spellings('webhooks', port))) {
				expectRefused(await raw(sb.orchestrationUrl, 'POST', target, json, JSON.stringify({ url: rec.url, secret: 'chosen' })), `webhooks ${name} ${target}`);
			}
			expect(rec.received).toHaveLength(1);
			expect((await api.get('/sandbox/deliveries')).body.deliveries).toHaveLength(1);
			expect((await api.get('/sandbox/orders')).body.orders).toEqual([]);
			expect((await api.get('/sandbox/webhooks')).body.webhooks).toHaveLength(1);
		} finally {
			await rec.close();
		}
	});

	it('local tools still reach what the router routes: no Origin, or the sandbox\'s own', async () => {
		const own = { origin: sb.orchestrationUrl };
		expect((await raw(sb.orchestrationUrl, 'GET', '/%73andbox/keys', {})).status).toBe(200);
		expect((await raw(sb.orchestrationUrl, 'GET', '/%73andbox/keys', own)).status).toBe(200);
		expect((await raw(sb.orchestrationUrl, 'GET', '/sandbox/keys', own)).headers['access-control-allow-origin']).toBeUndefined();
		expect((await raw(sb.gatewayUrl, 'GET', '/%73andbox/gateway/config', {})).status).toBe(200);
		// a path no route takes is still the router's 404, not a refusal
		expect((await raw(sb.orchestrationUrl, 'GET', '/SandBox/keys', {})).status).toBe(404);
		// service paths that only look alike are not control paths
		expect((await raw(sb.orchestrationUrl, 'GET', '/v1/orchestration/routes', EVIL)).headers['access-control-allow-origin']).toBe('https://evil.example');
	});

	it('control requests are not written to the request log, however spelt', async () => {
		expect((await raw(sb.orchestrationUrl, 'GET', '/%73andbox/keys', {})).status).toBe(200);
		expect((await api.get('/sandbox/requests')).body.requests).toEqual([]);
	});

	it('normalisedPath reads every spelling as /sandbox/<rest>', () => {
		for (const [name, target] of Object.entries(spellings('keys', '8787'))) expect({ name, path: normalisedPath(target) }).toEqual({ name, path: '/sandbox/keys' });
		expect(normalisedPath('/%E2%80%AE%zz/../v1/x?y=/sandbox')).toBe('/v1/x');
		expect(normalisedPath('/sandboxes/keys')).toBe('/sandboxes/keys');
	});

	it('every /sandbox route carries the guard as its own hook (the route itself, whatever URL reaches it), and no service route does', () => {
		for (const app of [sb.orchestration.app, sb.gateway.app]) {
			const routes = routesWithHooks(app.printRoutes({ commonPrefix: false, includeHooks: true }));
			const control = routes.filter((r) => r.path.startsWith('/sandbox/'));
			expect(control.length).toBeGreaterThan(5);
			for (const r of routes) expect({ route: r.label, guarded: r.hooks.includes('refuseCrossOrigin()') }).toEqual({ route: r.label, guarded: r.path.startsWith('/sandbox/') });
		}
	});

	it('a route registered under /sandbox keeps its own hooks and is flagged; a looser router\'s spellings are refused too', async () => {
		const app = Fastify();
		guardControlEndpoints(app);
		const seen: string[] = [];
		app.get('/sandbox/probe', { onRequest: async () => void seen.push('own hook') }, async (request) => ({ flag: request.routeOptions.config }));
		app.get('/public', async (request) => ({ flag: request.routeOptions.config }));
		// a router that ignores case and trailing slashes still lands on the flagged route
		const loose = Fastify({ routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true } });
		guardControlEndpoints(loose);
		loose.get('/sandbox/probe', async () => ({ reached: true }));
		await app.listen({ port: 0, host: '127.0.0.1' });
		await loose.listen({ port: 0, host: '127.0.0.1' });
		try {
			const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
			const mine = await raw(base, 'GET', '/sandbox/probe', {});
			expect(JSON.parse(mine.text).flag).toMatchObject({ sandboxControl: true });
			expect(seen).toEqual(['own hook']);
			expect(JSON.parse((await raw(base, 'GET', '/public', {})).text).flag.sandboxControl).toBeUndefined();
			expectRefused(await raw(base, 'GET', '/%73andbox/probe', EVIL), 'strict router');
			expect(seen).toEqual(['own hook']);
			const looseBase = `http://127.0.0.1:${(loose.server.address() as { port: number }).port}`;
			expect((await raw(looseBase, 'GET', '//SANDBOX//probe/', {})).status).toBe(200); // the loose router routes it
			expectRefused(await raw(looseBase, 'GET', '//SANDBOX//probe/', EVIL), 'loose router');
		} finally {
			await app.close();
			await loose.close();
		}
	});
});

/** The routes of printRoutes({commonPrefix: false, includeHooks: true}), with full paths and their onRequest hooks. */
function routesWithHooks(tree: string): { path: string; label: string; hooks: string }[] {
	const routes: { path: string; label: string; hooks: string }[] = [];
	const stack: string[] = [];
	for (const line of tree.split('\n')) {
		const hook = /^[│ ]*• \(onRequest\) (.*)$/.exec(line);
		if (hook) {
			routes[routes.length - 1].hooks = hook[1];
			continue;
		}
		const node = /^([│ ]*)(?:[├└]── )?(\S+) \(([A-Z, ]+)\)$/.exec(line);
		if (!node) continue;
		const glyph = /[├└]── /.test(line);
		const depth = node[1].length / 4 - (glyph ? 0 : 1);
		const path = (depth > 0 ? stack[depth - 1] : '') + node[2];
		stack[depth] = path;
		routes.push({ path, label: `${path} (${node[3]})`, hooks: '' });
	}
	return routes;
}

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
