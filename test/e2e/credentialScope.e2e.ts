/**
 * Issue 20 in a real n8n: an HTTP Request node using an Orchestration credential (Predefined
 * Credential Type) with a URL outside the credential's Base URL sends no key. A foreign loopback
 * server records every request it receives; the HTTP Request nodes with the server and the client
 * credential fail, naming the credential and the refused host, and the server sees nothing from
 * them. Controls: the same node without a credential does reach the recorder (so a leak would be
 * seen), and with the credential under its own Base URL the key is sent and the sandbox answers.
 * The recorded requests are written to $TMPDIR/orch-e2e-key-scope.json for the closing note.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { pickSandboxKeys } from '../../scripts/lib/examples';
import { freePort } from '../../scripts/lib/n8n-instance';
import { closeEnv, createEnv, executeWorkflow, type E2eEnv } from './env';
import { CREDS, T, linearWorkflow, type WfNode } from './workflows';

interface Recorded {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
}

const WORKFLOW = 'e2eKeyScope';
let env: E2eEnv;
let recorder: http.Server;
let recorderUrl: string;
const recorded: Recorded[] = [];

function httpNode(name: string, url: string, credential?: 'server' | 'client'): WfNode {
	const type = credential === 'server' ? 'orchestrationServerApi' : 'orchestrationClientApi';
	return {
		name,
		type: T.http,
		parameters: {
			method: 'GET',
			url,
			...(credential ? { authentication: 'predefinedCredentialType', nodeCredentialType: type } : {}),
			options: {},
		},
		...(credential ? { credentials: CREDS[credential] } : {}),
	};
}

beforeAll(async () => {
	recorder = http.createServer((req, res) => {
		recorded.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
		res.setHeader('content-type', 'application/json');
		res.end('{"recorded":true}');
	});
	const port = await freePort();
	await new Promise<void>((resolve) => recorder.listen(port, '127.0.0.1', resolve));
	recorderUrl = `http://127.0.0.1:${port}`;
	env = await createEnv();
	const workflow = linearWorkflow(WORKFLOW, 'E2E key scope', [
		{ name: 'Start', type: T.manual },
		httpNode('No credential to the recorder', `${recorderUrl}/control`),
		httpNode('Server key to the recorder', `${recorderUrl}/steal-server?x=1`, 'server'),
		httpNode('Client key to the recorder', `${recorderUrl}/steal-client`, 'client'),
		httpNode('Server key under its Base URL', `${env.sandbox.orchestrationUrl}/v1/affiliates`, 'server'),
	]);
	// Each node goes on after an error, so one run shows all of them.
	for (const node of workflow.nodes.slice(1)) Object.assign(node, { onError: 'continueRegularOutput' });
	await env.n8n.importWorkflows([workflow]);
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
	await new Promise<void>((resolve) => (recorder ? recorder.close(() => resolve()) : resolve()));
});

describe('Orchestration keys in an HTTP Request node (Predefined Credential Type)', () => {
	it('go only under the credential Base URL: the foreign server receives no key', async () => {
		const run = await executeWorkflow(env, WORKFLOW);
		fs.writeFileSync(path.join(os.tmpdir(), 'orch-e2e-key-scope.json'), `${JSON.stringify({ recorderUrl, recorded, outputs: run.outputs }, null, 2)}\n`);
		if (!run.ok) throw new Error(run.raw.slice(-4000));
		const { server, client } = pickSandboxKeys(env.sandbox);
		const host = recorderUrl;

		// The control reached the recorder: a request carrying a key would have been seen.
		expect(recorded.map((r) => r.url)).toEqual(['/control']);
		expect(recorded[0].headers.authorization).toBeUndefined();
		for (const r of recorded) {
			expect(JSON.stringify(r)).not.toContain(server.key);
			expect(JSON.stringify(r)).not.toContain(client.key);
		}

		const errorOf = (node: string) => JSON.stringify(run.outputs[node]);
		expect(errorOf('Server key to the recorder')).toContain(`Orchestration Server Key credential: refused to send its key to ${host}`);
		expect(errorOf('Client key to the recorder')).toContain(`Orchestration Client Key credential: refused to send its key to ${host}`);
		for (const node of ['Server key to the recorder', 'Client key to the recorder']) {
			expect(errorOf(node)).not.toContain(server.key);
			expect(errorOf(node)).not.toContain(client.key);
		}

		// Under its own Base URL the same node and credential authenticate: the sandbox lists affiliates.
		const own = run.outputs['Server key under its Base URL'];
		expect(own).toHaveLength(1);
		expect(own[0]).not.toHaveProperty('error');
		expect(own[0]).toHaveProperty('affiliates');
	});
});
