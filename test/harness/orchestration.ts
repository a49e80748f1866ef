/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * Shared setup of the Orchestration node tests: a time-scaled sandbox, the node on n8n-core's real
 * contexts (test/harness) with the package's credential types, and the sandbox's control endpoints.
 */
import type { IDataObject, INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { OrchestrationClientApi } from '../../credentials/OrchestrationClientApi.credentials';
import { OrchestrationServerApi } from '../../credentials/OrchestrationServerApi.credentials';
import { Orchestration } from '../../nodes/Orchestration/Orchestration.node';
import { clearRoutesCache } from '../../nodes/Orchestration/helpers/routes';
import { startSandbox, type Sandbox, type StartSandboxOptions } from '../../sandbox';
import { createHarness, executeNode, loadOptions, type CredentialStore, type NodeHarness } from './n8n';

export const SERVER_KEY = 'fn_sandbox_server_partner1';
export const SERVER_KEY_PARTNER2 = 'fn_sandbox_server_partner2';
export const CLIENT_ALL = 'fnp_sandbox_all_scopes';
export const CLIENT_CHECKOUT = 'fnp_sandbox_checkout';
export const CLIENT_NO_SCOPES = 'fnp_sandbox_no_scopes';
export const CLIENT_BROWSER = 'fnp_sandbox_browser';
export const CLIENT_ORDERS_QUOTE = 'fnp_sandbox_orders_quote';
export const CLIENT_AFFILIATE = 'fnp_sandbox_affiliate_alpha';

/** Addresses the sandbox accepts for each format. */
export const ADDR = {
	bitcoin: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
	evm: '0x1111111111111111111111111111111111111111',
	solana: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
};

export async function startTestSandbox(opts: StartSandboxOptions = {}): Promise<Sandbox> {
	clearRoutesCache();
	return await startSandbox({ timeScale: 20, quiet: true, ...opts });
}

export interface NodeOptions {
	sb: Sandbox;
	parameters: INodeParameters;
	key?: string;
	client?: boolean;
	origin?: string;
	baseUrl?: string;
	executionId?: string;
	workflowId?: string;
	continueOnFail?: boolean;
	onError?: INode['onError'];
	/** The node's typeVersion; the newest when unset. */
	typeVersion?: number;
}

let executions = 0;

/** The Orchestration node with one credential of the chosen kind; each harness is a new execution unless told. */
export function orchestrationNode(opts: NodeOptions): NodeHarness {
	const client = opts.client ?? (opts.key ?? SERVER_KEY).startsWith('fnp_');
	const baseUrl = opts.baseUrl ?? opts.sb.orchestrationUrl;
	const credentials: CredentialStore = client
		? { orchestrationClientApi: { baseUrl, apiKey: opts.key ?? CLIENT_ALL, origin: opts.origin ?? '' } }
		: { orchestrationServerApi: { baseUrl, apiKey: opts.key ?? SERVER_KEY } };
	return createHarness({
		nodeType: new Orchestration(),
		credentialTypes: [new OrchestrationServerApi(), new OrchestrationClientApi()],
		credentials,
		parameters: { authentication: client ? 'clientKey' : 'serverKey', ...opts.parameters },
		executionId: opts.executionId ?? `exec-${process.pid}-${++executions}`,
		workflowId: opts.workflowId,
		continueOnFail: opts.continueOnFail,
		onError: opts.onError,
		typeVersion: opts.typeVersion,
	});
}

export const items = (n = 1, json: (i: number) => IDataObject = () => ({})): INodeExecutionData[] =>
	Array.from({ length: n }, (_, i) => ({ json: json(i) }));

/** Runs the node and returns the first output's JSON. */
export async function run(h: NodeHarness, input: INodeExecutionData[] = items()): Promise<IDataObject[]> {
	const [out] = await executeNode(h, input);
	return out.map((i) => i.json);
}

/** Runs the node expecting it to fail; returns the error. */
export async function runError(h: NodeHarness, input: INodeExecutionData[] = items()): Promise<Error & IDataObject> {
	try {
		await executeNode(h, input);
	} catch (error) {
		return error as Error & IDataObject;
	}
	throw new Error('the node did not fail');
}

export { executeNode, loadOptions };

/** The sandbox's control endpoints. */
export function control(sb: Sandbox) {
	const url = sb.orchestrationUrl;
	const call = async (method: string, path: string, body?: unknown): Promise<any> => {
		const res = await fetch(url + path, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (res.status >= 400) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
		return text ? JSON.parse(text) : undefined;
	};
	return {
		requests: async (query: Record<string, string> = {}): Promise<any[]> =>
			(await call('GET', `/sandbox/requests?${new URLSearchParams(query)}`)).requests,
		clearRequests: () => call('DELETE', '/sandbox/requests'),
		quotes: async (query: Record<string, string> = {}): Promise<any[]> =>
			(await call('GET', `/sandbox/quotes?${new URLSearchParams(query)}`)).quotes,
		fault: (rule: Record<string, unknown>) => call('POST', '/sandbox/faults', rule),
		clearFaults: () => call('DELETE', '/sandbox/faults'),
		config: (switches: Record<string, unknown>) => call('POST', '/sandbox/config', switches),
		deposit: (body: Record<string, unknown>) => call('POST', '/sandbox/deposits', body),
		advance: (orderId: string, status: string) => call('POST', `/sandbox/orders/${orderId}/advance`, { status }),
		reset: () => call('POST', '/sandbox/reset'),
		/** Adds to an affiliate's claimable balance (USDC; aff_sandbox_alpha on Base by default). */
		accrue: (amount: string, chain = 'base', affiliateId = 'aff_sandbox_alpha') =>
			call('POST', `/sandbox/affiliates/${affiliateId}/accrue`, { amount, chain, asset: 'USDC' }),
		settleClaim: (claimId: string, outcome: string) => call('POST', `/sandbox/claims/${claimId}/settle`, { outcome }),
		/** The sandbox's record of an order ({order, ...}). */
		order: (orderId: string) => call('GET', `/sandbox/orders/${orderId}`),
		/** Waits (5 s at most) until an order reaches `status`; its record then. */
		async untilOrder(orderId: string, status: string): Promise<any> {
			for (const deadline = Date.now() + 5000; ; await new Promise((r) => setTimeout(r, 20))) {
				const record = await call('GET', `/sandbox/orders/${orderId}`);
				if (record.order.status === status) return record;
				if (Date.now() > deadline) throw new Error(`order ${orderId} did not reach ${status} (it is ${record.order.status})`);
			}
		},
	};
}

/** Quote > Create run by the node (quoteParams) with `key`; its output. */
export async function createQuote(sb: Sandbox, key = SERVER_KEY): Promise<IDataObject> {
	const [out] = await run(orchestrationNode({ sb, key, parameters: quoteParams() }));
	return out;
}

/** Order > Submit run by the node for the quote in its input item (a made-up transaction hash); its output. */
export async function submitQuote(sb: Sandbox, quote: IDataObject, key = SERVER_KEY): Promise<IDataObject> {
	const parameters = { resource: 'order', operation: 'submit', quoteId: '={{ $json.quoteId }}', txHash: `0x${'ab'.repeat(32)}` };
	const [out] = await run(orchestrationNode({ sb, key, parameters }), [{ json: quote }]);
	return out;
}

/** A standing deposit address made by the node (Create or Get, USDC on Base); its deposit addresses by chain. */
export async function standingAddress(sb: Sandbox, reference: string): Promise<Record<string, string>> {
	const parameters = { resource: 'standingAddress', operation: 'createOrGet', reference, destinationChain: 'base', destinationAsset: 'USDC', destinationAddress: ADDR.evm };
	const [created] = await run(orchestrationNode({ sb, parameters }));
	return created.addresses as Record<string, string>;
}

/** An entry of the routes listing (GET /v2/orchestration/routes). */
export interface RouteEntry {
	id: string;
	chain: string;
	asset: string;
	assetDisplayName: string;
	chainDisplayName: string;
	decimals: number;
	route: { to: 'all' | string[] | { except: string[] }; exactOutTo: string[]; fixedTo: string[] };
}

/** The sandbox's routes listing, read as a server key reads it. */
export async function routesListing(sb: Sandbox): Promise<RouteEntry[]> {
	const res = await fetch(`${sb.orchestrationUrl}/v2/orchestration/routes`, { headers: { authorization: `Bearer ${SERVER_KEY}` } });
	return ((await res.json()) as { assets: RouteEntry[] }).assets;
}

/** Whether an entry's route set reaches the asset `id` (all, a list, or all but an except list). */
export const reaches = (e: RouteEntry, id: string): boolean =>
	e.route.to === 'all' ? e.id !== id : Array.isArray(e.route.to) ? e.route.to.includes(id) : e.id !== id && !e.route.to.except.includes(id);

/** Parameters of a quote.create for 100 USDC on Base to BTC on Bitcoin. */
export function quoteParams(overrides: INodeParameters = {}): INodeParameters {
	return {
		resource: 'quote',
		operation: 'create',
		sourceChain: 'base',
		sourceAsset: 'USDC',
		destinationChain: 'bitcoin',
		destinationAsset: 'BTC',
		// version 2 nodes default to Decimal; these tests speak smallest units
		amountFormat: 'smallestUnit',
		amount: '100000000',
		recipientAddress: ADDR.bitcoin,
		...overrides,
	};
}

/** Every string in a value (JSON of outputs and errors), to search for secrets. */
export function serialized(value: unknown): string {
	const seen = new WeakSet<object>();
	return JSON.stringify(value, (_k, v) => {
		if (v instanceof Error) {
			return { ...v, message: v.message, stack: v.stack, description: (v as any).description, cause: (v as any).cause };
		}
		if (typeof v === 'object' && v !== null) {
			if (seen.has(v)) return undefined;
			seen.add(v);
		}
		return v;
	});
}
