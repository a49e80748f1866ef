/**
 * Issue 32 in a real n8n 2.41.1: a Base URL (or Gateway URL) that answers with a redirect to
 * another origin. n8n's request helper follows redirects and re-attaches Authorization on a
 * cross-origin redirect by default; the package's requests follow none. Each credential points at
 * a redirector in front of the sandbox; the redirect leads to a recorder on another host name and
 * port, which must receive nothing: not the server key, not the gateway's access token, not the
 * signature of its login. Each node fails naming the redirect, and the run goes on.
 */
import { pickSandboxKeys } from '../../scripts/lib/examples';
import { startRecorder, startRedirector, type Recorder, type Redirector } from '../integration/hostile/servers';
import { closeEnv, createEnv, executeWorkflow, type E2eEnv } from './env';
import { T, linearWorkflow } from './workflows';

const WORKFLOW = 'e2eRedirects';
let env: E2eEnv;
let recorder: Recorder;
const redirectors: Redirector[] = [];

const CREDENTIALS = {
	server: { id: 'e2eRedirectServerKey', name: 'Orchestration behind a redirect' },
	bearer: { id: 'e2eRedirectGatewayBearer', name: 'Gateway redirecting intent lookups' },
	login: { id: 'e2eRedirectGatewayLogin', name: 'Gateway redirecting its verify' },
};

beforeAll(async () => {
	recorder = await startRecorder();
	env = await createEnv();
	const { server, gatewayPrivateKey } = pickSandboxKeys(env.sandbox);
	const all = await startRedirector({ to: recorder.url });
	const bearer = await startRedirector({ upstream: env.sandbox.gatewayUrl, to: recorder.url, redirect: (_m, path) => path.startsWith('/api/v1/intents/') });
	const login = await startRedirector({ upstream: env.sandbox.gatewayUrl, to: recorder.url, redirect: (_m, path) => path === '/api/v1/auth/verify' });
	redirectors.push(all, bearer, login);
	await env.n8n.importCredentials([
		{ ...CREDENTIALS.server, type: 'orchestrationServerApi', data: { baseUrl: all.url, apiKey: server.key } },
		{ ...CREDENTIALS.bearer, type: 'executionGatewayApi', data: { gatewayUrl: bearer.url, privateKey: gatewayPrivateKey, accessToken: '' } },
		{ ...CREDENTIALS.login, type: 'executionGatewayApi', data: { gatewayUrl: login.url, privateKey: gatewayPrivateKey, accessToken: '' } },
	]);
	const intentGet = { resource: 'intent', operation: 'get', submissionId: 'sub-redirected' };
	const workflow = linearWorkflow(WORKFLOW, 'E2E redirects', [
		{ name: 'Start', type: T.manual },
		{
			name: 'Get Status behind a redirect',
			type: T.orchestration,
			parameters: { authentication: 'serverKey', resource: 'order', operation: 'getStatus', id: 'ord_redirected' },
			credentials: { orchestrationServerApi: CREDENTIALS.server },
		},
		{ name: 'Intent lookup redirected', type: T.gateway, parameters: intentGet, credentials: { executionGatewayApi: CREDENTIALS.bearer } },
		{ name: 'Gateway login redirected', type: T.gateway, parameters: intentGet, credentials: { executionGatewayApi: CREDENTIALS.login } },
	]);
	for (const node of workflow.nodes.slice(1)) Object.assign(node, { onError: 'continueRegularOutput' });
	await env.n8n.importWorkflows([workflow]);
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
	for (const r of redirectors) await r.close();
	await recorder?.close();
});

describe('a redirect to another origin in a real n8n', () => {
	it('is followed by no request: every node fails naming it, and the other origin receives nothing', async () => {
		const run = await executeWorkflow(env, WORKFLOW);
		if (!run.ok) throw new Error(run.raw.slice(-4000));
		const [all, bearer, login] = redirectors;
		const { server } = pickSandboxKeys(env.sandbox);
		const errorOf = (node: string) => JSON.stringify(run.outputs[node]);

		// Each redirect was answered once: the preconditions of the attack held.
		expect(all.redirected.map((r) => r.url.split('?')[0])).toEqual(['/v1/orchestration/status']);
		expect(bearer.redirected.map((r) => r.url)).toEqual(['/api/v1/intents/sub-redirected']);
		expect(bearer.passed.map((r) => r.url)).toEqual(['/api/v1/auth/challenge', '/api/v1/auth/verify']);
		expect(login.redirected.map((r) => r.url)).toEqual(['/api/v1/auth/verify']);

		expect(recorder.received).toEqual([]);
		expect(errorOf('Get Status behind a redirect')).toContain(`HTTP 302: the service answered with a redirect to ${recorder.url}, which is not followed`);
		expect(errorOf('Intent lookup redirected')).toContain(`HTTP 302: the service answered with a redirect to ${recorder.url}, which is not followed`);
		expect(errorOf('Gateway login redirected')).toContain(`a redirect (HTTP 307) to ${recorder.url}, which is not followed`);
		expect(JSON.stringify(run.outputs)).not.toContain(server.key);
	});
});
