/** The example workflows and the sandbox credentials they use (npm start and the e2e suite). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './n8n-instance';

/** The owner account `npm start` creates (a local, sandbox-only login). */
export const OWNER = {
	email: 'owner@sandbox.local',
	password: 'Sandbox-Owner-1',
	firstName: 'Sandbox',
	lastName: 'Owner',
};

export const CREDENTIAL_IDS = {
	server: 'orchSandboxServerKey',
	client: 'orchSandboxClientKey',
	gateway: 'gatewaySandboxKeypair',
} as const;

export const CREDENTIAL_NAMES = {
	server: 'Orchestration sandbox (server key)',
	client: 'Orchestration sandbox (client key)',
	gateway: 'Execution Gateway sandbox keypair',
} as const;

export interface Example {
	file: string;
	workflow: { id: string; name: string; nodes: Array<{ type: string; name: string; parameters: Record<string, unknown> }>; [k: string]: unknown };
}

export function loadExamples(dir = path.join(REPO_ROOT, 'examples')): Example[] {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) }));
}

interface SeedKey {
	key: string;
	type: 'server' | 'client';
	partnerId: string;
	scopes: string[];
	originMode: string;
	accountStatus: string;
	disabled: boolean;
}

interface SandboxLike {
	orchestrationUrl: string;
	gatewayUrl: string;
	keys: { orchestration: { keys: SeedKey[] }; gateway: { privateKeys: string[] } };
}

/** Picks an approved, enabled server key and an all-scope server-origin client key of one partner. */
export function pickSandboxKeys(sandbox: SandboxLike): { server: SeedKey; client: SeedKey; gatewayPrivateKey: string } {
	const usable = sandbox.keys.orchestration.keys.filter((k) => !k.disabled && k.accountStatus === 'approved');
	const server = usable.find((k) => k.type === 'server');
	if (!server) throw new Error('the sandbox seeds no approved server key');
	const client = usable
		.filter((k) => k.type === 'client' && k.partnerId === server.partnerId && k.originMode !== 'browser')
		.sort((a, b) => b.scopes.length - a.scopes.length)[0];
	if (!client) throw new Error('the sandbox seeds no usable client key');
	const gatewayPrivateKey = sandbox.keys.gateway.privateKeys[0];
	return { server, client, gatewayPrivateKey };
}

/** n8n import:credentials entries (plain data; n8n encrypts on import). */
export function sandboxCredentials(sandbox: SandboxLike) {
	const { server, client, gatewayPrivateKey } = pickSandboxKeys(sandbox);
	return [
		{
			id: CREDENTIAL_IDS.server,
			name: CREDENTIAL_NAMES.server,
			type: 'orchestrationServerApi',
			data: { baseUrl: sandbox.orchestrationUrl, apiKey: server.key },
		},
		{
			id: CREDENTIAL_IDS.client,
			name: CREDENTIAL_NAMES.client,
			type: 'orchestrationClientApi',
			data: { baseUrl: sandbox.orchestrationUrl, apiKey: client.key, origin: '' },
		},
		{
			id: CREDENTIAL_IDS.gateway,
			name: CREDENTIAL_NAMES.gateway,
			type: 'executionGatewayApi',
			data: { gatewayUrl: sandbox.gatewayUrl, privateKey: gatewayPrivateKey, accessToken: '' },
		},
	];
}

/** The examples call the sandbox at its default ports; point them at the running sandbox instead. */
export const DEFAULT_SANDBOX_URLS = { orchestration: 'http://127.0.0.1:8787', gateway: 'http://127.0.0.1:8788' };

export function forSandbox<T>(workflow: T, sandbox: { orchestrationUrl: string; gatewayUrl: string }): T {
	const text = JSON.stringify(workflow)
		.split(DEFAULT_SANDBOX_URLS.orchestration)
		.join(sandbox.orchestrationUrl)
		.split(DEFAULT_SANDBOX_URLS.gateway)
		.join(sandbox.gatewayUrl);
	return JSON.parse(text) as T;
}

/** Where example 3 appends its ledger rows (allowed through N8N_RESTRICT_FILE_ACCESS_TO). */
export const LEDGER_DIR = '/tmp/n8n-orchestration';
