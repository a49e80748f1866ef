/**
 * A redirect never carries a key away. Each Base URL below is a real server that answers some or
 * all requests with a redirect (302 for GET, 307 for POST, which keeps the body) to another host
 * name and port, where a recorder keeps everything it receives. n8n's request helper follows
 * redirects and re-attaches Authorization on a cross-origin redirect by default: the package turns
 * following off for every request it sends, so a redirect is a clear error and the recorder
 * receives nothing: no key, no token, no signature.
 */
import type { INodeParameters } from 'n8n-workflow';
import { ExecutionGatewayApi } from '../../../credentials/ExecutionGatewayApi.credentials';
import { OrchestrationClientApi } from '../../../credentials/OrchestrationClientApi.credentials';
import { OrchestrationServerApi } from '../../../credentials/OrchestrationServerApi.credentials';
import { clearPacers } from '../../../nodes/n8n/pacing';
import { clearNetworkInfoCache } from '../../../nodes/ExecutionGateway/helpers/gateway';
import { clearRoutesCache } from '../../../nodes/Orchestration/helpers/routes';
import type { Sandbox } from '../../../sandbox';
import { executeNodeWithHints, loadOptions, runWebhookMethod } from '../../harness/n8n';
import { credentialData, gatewayHarness, run as runGateway, runCredentialTest, runError as gatewayError } from '../../harness/gateway';
import { testCredentialRequest } from '../orchestration/credentialTester';
import { CLIENT_ALL, control, orchestrationNode, quoteParams, run, runError, SERVER_KEY, serialized, startTestSandbox } from '../../harness/orchestration';
import { triggerHarness } from '../../harness/trigger';
import { startRecorder, startRedirector, type Recorder, type Redirector } from './servers';

let sb: Sandbox;
let recorder: Recorder;
const opened: Redirector[] = [];

beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
	recorder = await startRecorder();
});
afterAll(async () => {
	await recorder.close();
	await sb.close();
});
beforeEach(() => {
	recorder.received.length = 0;
	clearPacers();
	clearRoutesCache();
	clearNetworkInfoCache();
});
afterEach(async () => {
	for (const r of opened.splice(0)) await r.close();
});

async function redirector(upstream: string | undefined, redirect?: (method: string, path: string) => boolean): Promise<Redirector> {
	const r = await startRedirector({ upstream, to: recorder.url, redirect });
	opened.push(r);
	return r;
}

/** Nothing reached the other origin, and nothing that did could have carried a secret. */
function expectNothingArrived(...secrets: string[]): void {
	for (const secret of secrets) expect(recorder.text()).not.toContain(secret);
	expect(recorder.received).toEqual([]);
}

const REDIRECT_ERROR = /redirect/i;

describe('Orchestration requests', () => {
	it('Get Status (GET, server key): the 302 is an error naming the redirect; the key never arrives', async () => {
		const r = await redirector(undefined);
		const error = await runError(orchestrationNode({ sb, baseUrl: r.url, parameters: { resource: 'order', operation: 'getStatus', id: 'ord_redirected' } }));
		expect(error.message).toMatch(/HTTP 302/);
		expect(`${error.message} ${String(error.description)}`).toMatch(REDIRECT_ERROR);
		expect(error.message).toContain(recorder.url);
		// Asked once: a redirect is an answer, not a failure to retry.
		expect(r.redirected).toHaveLength(1);
		expectNothingArrived(SERVER_KEY);
		expect(serialized(error)).not.toContain(SERVER_KEY);
	});

	it('Quote > Create (POST with its body, 307): the key and the body never arrive', async () => {
		const r = await redirector(sb.orchestrationUrl, (method) => method === 'POST');
		const error = await runError(orchestrationNode({ sb, baseUrl: r.url, parameters: quoteParams() }));
		expect(error.message).toMatch(/HTTP 307/);
		expect(r.redirected.map((x) => x.url)).toEqual(['/v1/orchestration/quote']);
		expectNothingArrived(SERVER_KEY);
	});

	it('a client key (Bearer and Origin): nothing arrives', async () => {
		const r = await redirector(sb.orchestrationUrl, (method) => method === 'POST');
		const error = await runError(orchestrationNode({ sb, key: CLIENT_ALL, origin: 'https://shop.example', baseUrl: r.url, parameters: quoteParams() }));
		expect(error.message).toMatch(/HTTP 307/);
		expectNothingArrived(CLIENT_ALL);
	});

	it('a dropdown (load options) reading the routes: nothing arrives', async () => {
		const r = await redirector(undefined);
		await expect(loadOptions(orchestrationNode({ sb, baseUrl: r.url, parameters: { resource: 'quote', operation: 'create' } }), 'getSourceChains')).rejects.toThrow(
			REDIRECT_ERROR,
		);
		expect(r.redirected.length).toBeGreaterThanOrEqual(1);
		expectNothingArrived(SERVER_KEY);
	});

	it('the trigger registering its endpoint (activation): nothing arrives', async () => {
		const r = await redirector(undefined);
		const h = triggerHarness({ baseUrl: r.url, parameters: { events: ['order.completed'] } });
		await expect(runWebhookMethod(h, 'checkExists').then(async (exists) => exists || (await runWebhookMethod(h, 'create')))).rejects.toThrow(REDIRECT_ERROR);
		expect(r.redirected.length).toBeGreaterThanOrEqual(1);
		expectNothingArrived(SERVER_KEY);
	});

	it('a redirect within the same origin but out of the Base URL is not followed either', async () => {
		const inner = await redirector(undefined);
		// The redirect points at the redirector itself, on another path: a second request would show up there.
		const sameOrigin = await startRedirector({ to: inner.url });
		opened.push(sameOrigin);
		const error = await runError(orchestrationNode({ sb, baseUrl: `${sameOrigin.url}`, parameters: { resource: 'order', operation: 'getStatus', id: 'ord_same' } }));
		expect(error.message).toMatch(/HTTP 302/);
		expect(sameOrigin.redirected).toHaveLength(1);
		expect(inner.redirected).toHaveLength(0);
	});

	it('the event stream (server key in its query): not followed, the wait falls back to polling', async () => {
		const [q] = await run(orchestrationNode({ sb, parameters: quoteParams() }));
		const { orderId } = await control(sb).deposit({ depositAddress: q.depositAddress, amount: q.amountIn });
		const r = await redirector(sb.orchestrationUrl, (_method, path) => path.startsWith('/v1/sse/'));
		const out = await executeNodeWithHints(
			orchestrationNode({
				sb,
				baseUrl: r.url,
				parameters: { resource: 'order', operation: 'getStatus', id: orderId, waitUntilFinal: true, followBy: 'stream', pollIntervalSeconds: 3, waitTimeoutSeconds: 1, onTimeout: 'returnLastState' },
			}),
			[{ json: {} }],
		);
		expect(out.error).toBeUndefined();
		expect(r.redirected.map((x) => x.url.split('?')[0])).toEqual([`/v1/sse/operations/${orderId}`]);
		expect(String(out.output![0][0].json.waitFallback)).toMatch(/HTTP 302/);
		expectNothingArrived(SERVER_KEY);
		expect(serialized(out)).not.toContain(SERVER_KEY);
	});
});

describe('credential tests', () => {
	it('Orchestration Server Key: the test fails naming the redirect; the key never arrives', async () => {
		const r = await redirector(undefined);
		const result = await testCredentialRequest(new OrchestrationServerApi(), { baseUrl: r.url, apiKey: SERVER_KEY });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(REDIRECT_ERROR);
		expect(r.redirected).toHaveLength(1);
		expectNothingArrived(SERVER_KEY);
	});

	it('Orchestration Client Key: the same', async () => {
		const r = await redirector(undefined);
		const result = await testCredentialRequest(new OrchestrationClientApi(), { baseUrl: r.url, apiKey: CLIENT_ALL, origin: '' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(REDIRECT_ERROR);
		expectNothingArrived(CLIENT_ALL);
	});

	it('Execution Gateway: authentication passes, the test request is redirected: the token never arrives', async () => {
		const r = await redirector(sb.gatewayUrl, (_m, path) => path === '/api/v1/network/info');
		const result = await runCredentialTest(credentialData(r.url, sb.keys.gateway.privateKeys[0]));
		expect(result.status).toBe('Error');
		expect(r.passed.map((x) => x.url)).toEqual(['/api/v1/auth/challenge', '/api/v1/auth/verify']);
		const token = String(result.harness.credentialsHelper.store.executionGatewayApi.accessToken);
		expect(token.length).toBeGreaterThan(10);
		expectNothingArrived(token);
	});
});

describe('Execution Gateway requests', () => {
	const getIntent: INodeParameters = { resource: 'intent', operation: 'get', submissionId: 'sub-redirected' };

	it.each([['/api/v1/auth/challenge'], ['/api/v1/auth/verify']])('authentication: %s redirected (307, body kept): nothing arrives, the item fails', async (path) => {
		const r = await redirector(sb.gatewayUrl, (_m, p) => p === path);
		const error = await gatewayError(gatewayHarness({ url: r.url, signerKey: sb.keys.gateway.privateKeys[0] }, getIntent));
		expect(error.message).toMatch(REDIRECT_ERROR);
		expect(r.redirected.map((x) => x.url)).toEqual([path]);
		expect(recorder.received).toEqual([]);
	});

	it('a bearer call (intent lookup) redirected: the access token never arrives', async () => {
		const r = await redirector(sb.gatewayUrl, (_m, p) => p.startsWith('/api/v1/intents/'));
		const h = gatewayHarness({ url: r.url, signerKey: sb.keys.gateway.privateKeys[0] }, getIntent);
		const error = await gatewayError(h);
		expect(error.message).toMatch(/HTTP 302/);
		const token = String(h.credentialsHelper.store.executionGatewayApi.accessToken);
		expect(token.length).toBeGreaterThan(10);
		expectNothingArrived(token);
	});

	it('Network Info (public) redirected: not followed either', async () => {
		const r = await redirector(undefined);
		const error = await gatewayError(gatewayHarness({ url: r.url, signerKey: sb.keys.gateway.privateKeys[0] }, { resource: 'network', operation: 'getInfo' }));
		expect(error.message).toMatch(/HTTP 302/);
		expect(recorder.received).toEqual([]);
	});

	it('(control) without a redirect the same credential works through the pass-through', async () => {
		const r = await redirector(sb.gatewayUrl, () => false);
		const [info] = await runGateway(gatewayHarness({ url: r.url, signerKey: sb.keys.gateway.privateKeys[0] }, { resource: 'network', operation: 'getInfo' }));
		expect(info.execution).toBeDefined();
		void ExecutionGatewayApi;
	});
});
