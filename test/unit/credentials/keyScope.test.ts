/**
 * Issue 20: the Orchestration keys are attached only to requests under the credential's own Base URL
 * (same scheme, host, port, path prefix; https or loopback). n8n lets an HTTP Request node, or an
 * agent's HTTP tool, use these credential types with any URL: such a request gets no key, and fails
 * with an error that names the credential and the refused host. n8n's `authenticate` receives
 * `url` (httpRequest), legacy `uri` (the HTTP Request node) or `baseURL` + `url` (credential test).
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';
import { OrchestrationClientApi } from '../../../credentials/OrchestrationClientApi.credentials';
import { OrchestrationServerApi } from '../../../credentials/OrchestrationServerApi.credentials';
import { requestUrlOf } from '../../../nodes/shared/secureUrl';

const SERVER_KEY = 'fn_live_0123456789abcdef';
const CLIENT_KEY = 'fnp_live_0123456789abcdef';

const credentials: Array<{ label: string; type: OrchestrationServerApi | OrchestrationClientApi; key: string; extra: ICredentialDataDecryptedObject }> = [
	{ label: 'Orchestration Server Key credential', type: new OrchestrationServerApi(), key: SERVER_KEY, extra: {} },
	{ label: 'Orchestration Client Key credential', type: new OrchestrationClientApi(), key: CLIENT_KEY, extra: { origin: 'https://app.example.com' } },
];

type Options = IHttpRequestOptions & { uri?: string };

describe.each(credentials)('$label', ({ label, type, key, extra }) => {
	const authenticate = (baseUrl: string, options: Partial<Options>) =>
		type.authenticate({ baseUrl, apiKey: key, ...extra }, { method: 'GET', ...options } as IHttpRequestOptions);

	it.each([
		['https://api.example.com', { url: 'https://api.example.com/v1/quote' }],
		['https://api.example.com/', { url: 'https://api.example.com/v1/orders?limit=5' }],
		['https://API.Example.com', { url: 'https://api.example.com:443/v1/quote' }],
		['https://api.example.com/orch', { url: 'https://api.example.com/orch/v1/quote' }],
		['https://api.example.com/orch', { url: 'https://api.example.com/orch' }],
		['https://api.example.com', { uri: 'https://api.example.com/v1/affiliates' }],
		['https://api.example.com', { baseURL: 'https://api.example.com', url: '/v1/affiliates' }],
		['https://api.example.com/orch/', { baseURL: 'https://api.example.com/orch/', url: 'v1/affiliates' }],
		['http://127.0.0.1:8787', { url: 'http://127.0.0.1:8787/v1/quote' }],
		['http://[::1]:8787', { url: 'http://[::1]:8787/v1/quote' }],
	])('attaches the key under its Base URL %s: %j', async (baseUrl, options) => {
		const out = await authenticate(baseUrl, options);
		expect(out.headers?.Authorization).toBe(`Bearer ${key}`);
	});

	it.each([
		['another host', 'https://api.example.com', { url: 'http://evil.example/steal' }, 'http://evil.example'],
		['a look-alike host', 'https://api.example.com', { url: 'https://api.example.com.evil.example/v1/quote' }, 'https://api.example.com.evil.example'],
		['a userinfo trick', 'https://api.example.com', { url: 'https://api.example.com@evil.example/v1' }, 'https://evil.example'],
		['plain http to the same host', 'https://api.example.com', { url: 'http://api.example.com/v1/quote' }, 'http://api.example.com'],
		['another port', 'https://api.example.com', { url: 'https://api.example.com:8443/v1/quote' }, 'https://api.example.com:8443'],
		['another loopback port', 'http://127.0.0.1:8787', { url: 'http://127.0.0.1:9999/headers' }, 'http://127.0.0.1:9999'],
		['another loopback address', 'http://127.0.0.1:8787', { url: 'http://127.0.0.2:8787/v1/quote' }, 'http://127.0.0.2:8787'],
		['a path outside the prefix', 'https://api.example.com/orch', { url: 'https://api.example.com/orchestra/v1' }, 'https://api.example.com'],
		['a dot-dot escape from the prefix', 'https://api.example.com/orch', { url: 'https://api.example.com/orch/../admin' }, 'https://api.example.com'],
		['the legacy uri of the HTTP Request node', 'https://api.example.com', { uri: 'https://evil.example/x' }, 'https://evil.example'],
		['an absolute url past baseURL', 'https://api.example.com', { baseURL: 'https://api.example.com', url: 'https://evil.example/x' }, 'https://evil.example'],
		['a protocol-relative url past baseURL', 'https://api.example.com', { baseURL: 'https://api.example.com', url: '//evil.example/x' }, 'an address that is not a URL'],
		['a foreign baseURL', 'https://api.example.com', { baseURL: 'https://evil.example', url: '/v1/quote' }, 'https://evil.example'],
		['a relative url alone', 'https://api.example.com', { url: '/v1/quote' }, 'an address that is not a URL'],
		['no url at all', 'https://api.example.com', {}, 'no URL'],
	])('refuses %s, naming the credential and the host, before any header is set', async (_what, baseUrl, options, host) => {
		const original = { method: 'GET', headers: { Accept: 'application/json' }, ...options } as Options;
		const error = await authenticate(baseUrl, original).then(
			() => undefined,
			(e: Error) => e,
		);
		expect(error).toBeInstanceOf(Error);
		expect(error!.message).toContain(`${label}: refused to send its key to ${host}`);
		expect(error!.message).toContain(`"Base URL" (${baseUrl.replace(/\/+$/, '')})`);
		expect(error!.message).not.toContain(key);
		// The caller's options were not given the key either.
		expect(original.headers).toEqual({ Accept: 'application/json' });
	});

	it.each(['Host', 'host', 'authorization', 'AUTHORIZATION', 'X-Forwarded-Host', 'Forwarded', 'X-Original-URL', 'Cookie'])(
		'refuses a request under its Base URL that sets %s itself (the key would reach whatever tenant that header routes to)',
		async (header) => {
			const options = { url: 'https://api.example.com/v1/quote', headers: { [header]: 'tenant-b.example.com' } };
			await expect(authenticate('https://api.example.com', options)).rejects.toThrow(new RegExp(`^${label}: refused to add its key to a request that sets "${header}" itself`));
		},
	);

	it('replaces an Authorization header spelled as it spells it (a request repeated after a renewal carries its own)', async () => {
		const out = await authenticate('https://api.example.com', { url: 'https://api.example.com/v1/quote', headers: { Authorization: 'Bearer stale' } });
		expect(out.headers).toEqual({ Authorization: `Bearer ${key}`, ...(extra.origin ? { Origin: extra.origin } : {}) });
	});

	it('adds its key to a request that sets only its own headers', async () => {
		const out = await authenticate('https://api.example.com', { url: 'https://api.example.com/v1/quote', headers: { 'X-Idempotency-Key': 'k', Accept: 'application/json' } });
		expect(out.headers).toMatchObject({ Authorization: `Bearer ${key}`, 'X-Idempotency-Key': 'k' });
	});

	it('never names the path or query of the refused request (they may carry data)', async () => {
		await expect(authenticate('https://api.example.com', { url: 'https://evil.example/steal?token=abc' })).rejects.toThrow(
			/refused to send its key to https:\/\/evil\.example: /,
		);
		await expect(authenticate('https://api.example.com', { url: 'https://evil.example/steal?token=abc' })).rejects.not.toThrow(/steal|token=abc/);
	});

	it('keeps the https-or-loopback rule for the Base URL itself', async () => {
		await expect(authenticate('http://api.example.com', { url: 'http://api.example.com/v1/quote' })).rejects.toThrow(
			`${label}: "Base URL" is refused: it must start with https://`,
		);
	});
});

describe('requestUrlOf resolves a request the way n8n sends it', () => {
	it.each([
		[{ url: 'https://a.example/x' }, 'https://a.example/x'],
		[{ uri: 'https://a.example/x' }, 'https://a.example/x'],
		[{ url: 'https://a.example/x', uri: 'https://b.example/y' }, 'https://a.example/x'],
		[{ baseURL: 'https://a.example/api/', url: '/v1/x' }, 'https://a.example/api/v1/x'],
		[{ baseURL: 'https://a.example/api', url: 'v1/x' }, 'https://a.example/api/v1/x'],
		[{ baseURL: 'https://a.example', url: 'https://b.example/y' }, 'https://b.example/y'],
		[{ baseURL: 'https://a.example', url: '//b.example/y' }, '//b.example/y'],
		[{ baseURL: 'https://a.example' }, 'https://a.example'],
		[{ url: 42 }, ''],
	])('%j -> %s', (options, expected) => {
		expect(requestUrlOf(options)).toBe(expected);
	});
});
