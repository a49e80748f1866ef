/** Issue 14 point 1: the orchestration keys travel only over https (loopback excepted), refused before any request. */
import { OrchestrationClientApi } from '../../../credentials/OrchestrationClientApi.credentials';
import { OrchestrationServerApi } from '../../../credentials/OrchestrationServerApi.credentials';
import type { Sandbox } from '../../../sandbox';
import { testCredentialRequest } from './credentialTester';
import { CLIENT_ALL, control, orchestrationNode, run, runError, SERVER_KEY, serialized, startTestSandbox } from '../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const REASON =
	'"Base URL" is refused: it must start with https:// (plain http:// is allowed only for loopback addresses: localhost, 127.0.0.0/8, ::1), so keys and tokens never travel unencrypted';

describe('https for the orchestration base URL', () => {
	it.each([
		['server', new OrchestrationServerApi(), SERVER_KEY, 'Orchestration Server Key credential'],
		['client', new OrchestrationClientApi(), CLIENT_ALL, 'Orchestration Client Key credential'],
	])('the %s key credential test says why it refuses http://', async (_kind, credential, apiKey, name) => {
		const result = await testCredentialRequest(credential, { baseUrl: 'http://api.example.com', apiKey, origin: '' });
		expect(result).toEqual({ status: 'Error', message: `${name}: ${REASON}` });
		expect(result.message).not.toContain(apiKey);
	});

	it('the node refuses an http:// base URL before any keyed request, and never sends the key', async () => {
		const h = orchestrationNode({ sb, key: SERVER_KEY, client: false, baseUrl: 'http://api.example.com', parameters: { resource: 'affiliate', operation: 'getAll' } });
		const error = await runError(h);
		expect(error.message).toContain(REASON);
		expect(error.message).not.toMatch(/ENOTFOUND|EAI_AGAIN/);
		expect(serialized(error)).not.toContain(SERVER_KEY);
	});

	it('loopback over http works (the sandbox), by name too', async () => {
		const baseUrl = sb.orchestrationUrl.replace('127.0.0.1', 'localhost');
		expect(await testCredentialRequest(new OrchestrationServerApi(), { baseUrl, apiKey: SERVER_KEY })).toEqual({ status: 'OK', message: 'Connection successful!' });
		const out = await run(orchestrationNode({ sb, key: SERVER_KEY, client: false, baseUrl, parameters: { resource: 'affiliate', operation: 'getAll' } }));
		expect(out.length).toBeGreaterThan(0);
	});
});
