/**
 * The two credentials: their n8n credential tests over HTTP (valid vs invalid keys, the wrong key
 * kind, browser-mode origins), the headers they send, and the node's checks before any request.
 */
import type { Sandbox } from '../../../sandbox';
import { OrchestrationClientApi } from '../../../credentials/OrchestrationClientApi.credentials';
import { OrchestrationServerApi } from '../../../credentials/OrchestrationServerApi.credentials';
import { testCredentialRequest } from './credentialTester';
import {
	CLIENT_ALL,
	CLIENT_BROWSER,
	CLIENT_NO_SCOPES,
	control,
	orchestrationNode,
	run,
	runError,
	SERVER_KEY,
	serialized,
	startTestSandbox,
} from '../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const server = new OrchestrationServerApi();
const client = new OrchestrationClientApi();

describe('credential descriptions', () => {
	it('keep the public names, a password key field and themed icons', () => {
		expect(server.name).toBe('orchestrationServerApi');
		expect(server.displayName).toBe('Orchestration Server Key API');
		expect(client.name).toBe('orchestrationClientApi');
		expect(client.displayName).toBe('Orchestration Client Key API');
		for (const cred of [server, client]) {
			const byName = Object.fromEntries(cred.properties.map((p) => [p.name, p]));
			expect(byName.baseUrl.required).toBe(true);
			expect(byName.apiKey.typeOptions?.password).toBe(true);
			expect(cred.icon).toEqual({ light: 'file:../icons/orchestration.svg', dark: 'file:../icons/orchestration.dark.svg' });
		}
		// fields are only ever added (stored credentials keep working): Allow Event Stream came last
		expect(client.properties.map((p) => p.name)).toEqual(['baseUrl', 'apiKey', 'origin', 'allowEventStream']);
		expect(server.properties.map((p) => p.name)).toEqual(['baseUrl', 'apiKey', 'allowEventStream']);
	});
});

describe('server key credential test (GET /v1/affiliates, server keys only)', () => {
	const check = (apiKey: string, baseUrl = sb.orchestrationUrl) => testCredentialRequest(server, { baseUrl, apiKey });

	it('accepts a valid server key, with or without a trailing slash on the base URL', async () => {
		expect(await check(SERVER_KEY)).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect((await check(SERVER_KEY, `${sb.orchestrationUrl}//`)).status).toBe('OK');
		const [req] = await control(sb).requests({ path: '/v1/affiliates' });
		expect(req.headers.authorization).toBe('REDACTED');
	});

	it('rejects unknown and disabled keys with the 401 rule', async () => {
		for (const key of ['fn_not_a_real_key', 'fn_sandbox_server_partner1_disabled']) {
			expect(await check(key)).toEqual({ status: 'Error', message: 'The API key is unknown, disabled or revoked' });
		}
	});

	it('rejects a client key before any request, naming the field and never echoing the key', async () => {
		const result = await check(CLIENT_ALL);
		expect(result.status).toBe('Error');
		expect(result.message).toContain('"API Key"');
		expect(result.message).toContain('"fn_"');
		expect(result.message).not.toContain(CLIENT_ALL);
		expect(await control(sb).requests()).toEqual([]);
	});

	it('rejects a key of a pending account when approval is enforced (403 rule)', async () => {
		await control(sb).config({ approvalEnforced: true });
		try {
			const result = await testCredentialRequest(server, { baseUrl: sb.orchestrationUrl, apiKey: 'fn_sandbox_server_pending' });
			expect(result).toEqual({ status: 'Error', message: expect.stringContaining('not approved') });
		} finally {
			await control(sb).config({ approvalEnforced: false });
		}
	});
});

describe('client key credential test (status of a made-up order)', () => {
	const check = (apiKey: string, origin = '') => testCredentialRequest(client, { baseUrl: sb.orchestrationUrl, apiKey, origin });

	it('tells valid keys (whatever their scopes) from invalid ones', async () => {
		expect((await check(CLIENT_ALL)).status).toBe('OK');
		expect((await check(CLIENT_NO_SCOPES)).status).toBe('OK');
		expect((await check('fnp_not_a_real_key')).status).toBe('Error');
		expect((await check('fnp_sandbox_disabled')).status).toBe('Error');
	});

	it('rejects a server key before any request', async () => {
		const result = await check(SERVER_KEY);
		expect(result).toEqual({ status: 'Error', message: expect.stringContaining('"fnp_"') });
		expect(result.message).not.toContain(SERVER_KEY);
		expect(await control(sb).requests()).toEqual([]);
	});

	it('needs an allowed Origin for a browser-mode key, and sends it only when set', async () => {
		expect(await check(CLIENT_BROWSER)).toEqual({ status: 'Error', message: expect.stringContaining('needs an Origin') });
		expect(await check(CLIENT_BROWSER, 'https://evil.example')).toEqual({
			status: 'Error',
			message: expect.stringContaining('not among the key'),
		});
		expect((await check(CLIENT_BROWSER, 'https://app.sandbox.test')).status).toBe('OK');
		const origins = (await control(sb).requests({ path: '/v1/orchestration/status' })).map((r) => r.headers.origin);
		expect(origins).toEqual([undefined, 'https://evil.example', 'https://app.sandbox.test']);
	});
});

describe('the node checks its credential before any request', () => {
	it('refuses a key of the wrong kind with the field named and nothing sent', async () => {
		const h = orchestrationNode({
			sb,
			client: false,
			key: CLIENT_ALL,
			parameters: { resource: 'route', operation: 'getAll' },
		});
		const error = await runError(h);
		expect(error.message).toBe('The "API Key" of the Orchestration Server Key credential must start with "fn_"');
		expect(String(error.description)).toContain('client key');
		expect(serialized(error)).not.toContain(CLIENT_ALL);
		expect(await control(sb).requests()).toEqual([]);
	});

	it('refuses a base URL that is not an http(s) address', async () => {
		const h = orchestrationNode({ sb, baseUrl: 'ftp://nowhere', parameters: { resource: 'route', operation: 'getAll' } });
		expect((await runError(h)).message).toContain('"Base URL"');
	});

	it('sends Bearer and, for a browser-mode client key, the credential Origin', async () => {
		const h = orchestrationNode({
			sb,
			key: CLIENT_BROWSER,
			origin: 'https://app.sandbox.test',
			parameters: { resource: 'route', operation: 'getAll', returnAll: true },
		});
		expect((await run(h)).length).toBeGreaterThan(10);
		const [req] = await control(sb).requests({ path: '/v2/orchestration/routes' });
		expect(req).toMatchObject({ keyType: 'client', headers: { origin: 'https://app.sandbox.test', authorization: 'REDACTED' } });
	});
});
