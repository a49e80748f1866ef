/** The harness itself: n8n-core's contexts run a node, authenticate and re-authenticate after a 401. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ICredentialType, IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { createHarness, executeNode } from './n8n';

const probeCredential: ICredentialType = {
	name: 'probeApi',
	displayName: 'Probe',
	properties: [
		{ displayName: 'Session', name: 'session', type: 'hidden', typeOptions: { expirable: true }, default: '' },
		{ displayName: 'Key', name: 'key', type: 'string', default: '' },
	],
	async preAuthentication(this, credentials) {
		const res = (await this.helpers.httpRequest({ method: 'POST', url: `${credentials.url}/login`, json: true })) as { session: string };
		return { session: res.session };
	},
	authenticate: { type: 'generic', properties: { headers: { Authorization: '=Bearer {{$credentials.session}}', 'X-Key': '={{$credentials.key}}' } } },
};

class ProbeNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Probe',
		name: 'probe',
		group: ['transform'],
		version: 1,
		description: 'probe',
		defaults: { name: 'Probe' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'probeApi', required: true }],
		properties: [{ displayName: 'Path', name: 'path', type: 'string', default: '/data' }],
	};
	async execute(this: IExecuteFunctions) {
		const items = this.getInputData();
		const out = [];
		for (let i = 0; i < items.length; i++) {
			const creds = await this.getCredentials('probeApi');
			const body = await this.helpers.httpRequestWithAuthentication.call(this, 'probeApi', {
				method: 'GET',
				url: `${creds.url}${this.getNodeParameter('path', i)}`,
				json: true,
			});
			out.push({ json: body, pairedItem: { item: i } });
		}
		return [out];
	}
}

describe('n8n-core harness', () => {
	let server: http.Server;
	let url: string;
	let sessions = 0;
	let valid = '';
	beforeAll(async () => {
		server = http.createServer((req, res) => {
			if (req.url === '/login') {
				valid = `s${++sessions}`;
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify({ session: valid }));
				return;
			}
			if (req.headers.authorization !== `Bearer ${valid}`) {
				res.statusCode = 401;
				res.end('{"error":{"code":"unauthorized","message":"expired"}}');
				return;
			}
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ ok: true, key: req.headers['x-key'] }));
		});
		await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(() => new Promise<void>((r) => server.close(() => r())));

	it('runs execute with generic authentication and preAuthentication over real HTTP', async () => {
		const h = createHarness({
			nodeType: new ProbeNode(),
			credentialTypes: [probeCredential],
			credentials: { probeApi: { url, key: 'k1', session: '' } },
			parameters: {},
		});
		const [out] = await executeNode(h, [{ json: {} }, { json: {} }]);
		expect(out.map((i) => i.json)).toEqual([{ ok: true, key: 'k1' }, { ok: true, key: 'k1' }]);
		expect(h.credentialsHelper.preAuthRuns.probeApi).toBe(1);
		// The server forgets the session: the next request gets 401, n8n re-authenticates once and retries.
		valid = 'rotated';
		const [again] = await executeNode(h, [{ json: {} }]);
		expect(again[0].json).toEqual({ ok: true, key: 'k1' });
		expect(h.credentialsHelper.preAuthRuns.probeApi).toBe(2);
		expect(h.credentialsHelper.store.probeApi.session).toBe(valid);
	});
});
