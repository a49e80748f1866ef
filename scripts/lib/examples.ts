/** The example workflows and the sandbox credentials they use (npm start and the e2e suite). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DataTables } from './dataTables';
import { endedExecution, errorOf } from './executions';
import { REPO_ROOT, type N8nInstance } from './n8n-instance';

/** The owner account `npm start` creates; its password is made per clone (startSecrets.ts). */
export const OWNER_PROFILE = {
	email: 'owner@sandbox.local',
	firstName: 'Sandbox',
	lastName: 'Owner',
};

/** The owner of a throwaway n8n in a temporary folder (benchmarks). */
export const OWNER = { ...OWNER_PROFILE, password: 'Sandbox-Owner-1' };

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

/** Example 8 (n8n's Error Trigger to Slack): every other example names it in `settings.errorWorkflow`. */
export const ERROR_WORKFLOW = 'exFailureAlerts';

/** The Data Tables of the examples (example 0 creates them; examples 1, 3 and 7 use them by name). */
export const PAYOUT_TABLES = { schedule: 'payout_schedule', ledger: 'payout_ledger' } as const;
export const TABLES_WORKFLOW = 'exPayoutTables';

interface WfNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, unknown>;
	[k: string]: unknown;
}
interface Wf {
	nodes: WfNode[];
	connections: Record<string, { main: Array<Array<{ node: string; type: string; index: number }>> }>;
}

const WALLET_CREDENTIAL = 'httpHeaderAuth';

/**
 * The examples' wallet hand-offs (a request to your custody system) and the sandbox stand-in of
 * each: the deposit of a quote paid through the sandbox's deposit endpoint, a Spark transfer to
 * the gateway registered with the gateway's deposit oracle (its id derived from the payout
 * reference, so a repeated hand-off registers the same transfer).
 */
const WALLET_STAND_INS: Record<string, { name: string; url: (s: SandboxUrls) => string; body: string; note: string }> = {
	'Hand off to wallet': {
		name: 'Wallet stand-in: pays the deposit (sandbox)',
		url: (s) => `${s.orchestrationUrl}/sandbox/deposits`,
		body: "={{ JSON.stringify({ depositAddress: $('Quote').first().json.depositAddress, amount: $('Quote').first().json.amountIn }) }}",
		note: 'Sandbox stand-in for "Hand off to wallet": pays the quote\'s deposit address from a simulated wallet. In production the example sends the transfer to your custody system.',
	},
	'Hand off Spark transfer to wallet': {
		name: 'Wallet stand-in: Spark transfer (sandbox)',
		url: (s) => `${s.gatewayUrl}/sandbox/transfers`,
		body: "={{ JSON.stringify({ sparkTransferId: $('One payout').first().json.payoutId.hash('md5'), assetType: 'btc', amount: $('One payout').first().json.amountSats }) }}",
		note: 'Sandbox stand-in for "Hand off Spark transfer to wallet": registers a Spark transfer with the gateway\'s deposit oracle. In production your wallet makes the transfer and answers its sparkTransferId.',
	},
};

interface SandboxUrls {
	orchestrationUrl: string;
	gatewayUrl: string;
}

/** Renames a node and every connection to or from it. */
function renameNode<T extends Wf>(workflow: T, from: string, to: string): T {
	const connections: Wf['connections'] = {};
	for (const [source, c] of Object.entries(workflow.connections)) {
		connections[source === from ? to : source] = {
			main: c.main.map((out) => out.map((t) => (t.node === from ? { ...t, node: to } : t))),
		};
	}
	return { ...workflow, nodes: workflow.nodes.map((n) => (n.name === from ? { ...n, name: to } : n)), connections };
}

/**
 * The workflow with its wallet hand-offs replaced by labelled sandbox stand-ins (npm start and the
 * end-to-end suites: there is no custody system here). Every request with the wallet credential
 * must have a stand-in, so no hand-off is left pointing at the placeholder URL.
 */
export function withWalletStandIns<T extends Wf>(workflow: T, sandbox: SandboxUrls): T {
	let out = workflow;
	for (const node of workflow.nodes) {
		if (!node.credentials || !(WALLET_CREDENTIAL in node.credentials)) continue;
		const standIn = WALLET_STAND_INS[node.name];
		if (!standIn) throw new Error(`no sandbox stand-in for the wallet hand-off "${node.name}"`);
		out = renameNode(out, node.name, standIn.name);
		out = {
			...out,
			nodes: out.nodes.map((n) =>
				n.name !== standIn.name
					? n
					: {
							...n,
							credentials: undefined,
							notes: standIn.note,
							notesInFlow: true,
							parameters: { method: 'POST', url: standIn.url(sandbox), sendBody: true, specifyBody: 'json', jsonBody: standIn.body, options: {} },
						},
			),
		};
	}
	return out;
}

/** The workflow with values of its "Settings" node replaced (wait times, channels, references). */
export function withSettings<T extends Wf>(workflow: T, values: Record<string, unknown>, nodeName = 'Settings'): T {
	const node = workflow.nodes.find((n) => n.name === nodeName);
	if (!node) throw new Error(`the workflow has no node "${nodeName}"`);
	const assignments = (node.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> }).assignments;
	for (const name of Object.keys(values)) {
		if (!assignments.some((a) => a.name === name)) throw new Error(`"${nodeName}" has no value ${name}`);
	}
	const replaced = assignments.map((a) => (a.name in values ? { ...a, value: values[a.name] } : a));
	return {
		...workflow,
		nodes: workflow.nodes.map((n) => (n === node ? { ...n, parameters: { ...n.parameters, assignments: { assignments: replaced } } } : n)),
	};
}

/** Payouts `npm start` puts in an empty schedule: one through a quote, one through the gateway (sandbox addresses). */
export const SAMPLE_PAYOUTS = [
	{
		payoutKey: 'rent-alice',
		enabled: true,
		every: 'week',
		method: 'quote',
		amount: '125.50',
		sourceChain: 'bitcoin',
		sourceAsset: 'BTC',
		destinationChain: 'base',
		destinationAsset: 'USDC',
		recipient: '0x1111111111111111111111111111111111111111',
		refundAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
		zeroconf: false,
		note: 'sandbox sample',
	},
	{
		payoutKey: 'gateway-carol',
		enabled: true,
		every: 'month',
		method: 'gateway',
		amount: '0.00025',
		sourceChain: 'spark',
		sourceAsset: 'BTC',
		destinationChain: '',
		destinationAsset: 'BTC',
		recipient: '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23',
		refundAddress: '',
		zeroconf: false,
		note: 'sandbox sample: a deposit on the gateway execution chain',
	},
];

/**
 * Creates the payout tables the way a user does: runs example 0 (Data table > Create, reusing
 * existing tables) in the running n8n, then adds `schedule` rows when the schedule is empty.
 * Through the Data Table node itself, because `n8n execute` does not load n8n's Data Table
 * module; the rows through the public API.
 */
export async function setUpPayoutTables(n8n: N8nInstance, cookie: string, apiKey: string, schedule: Array<Record<string, unknown>> = []): Promise<DataTables> {
	const run = await endedExecution(n8n, apiKey, await n8n.runManually(cookie, TABLES_WORKFLOW, 'Run now'), 120_000);
	if (run.status !== 'success') throw new Error(`example 0 (the payout tables) failed: ${errorOf(run) ?? run.status}`);
	const tables = new DataTables(n8n, apiKey);
	if ((await tables.rows(PAYOUT_TABLES.schedule)).length === 0) await tables.insert(PAYOUT_TABLES.schedule, schedule);
	return tables;
}
