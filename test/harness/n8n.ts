/**
 * Runs this package's nodes in-process on n8n-core's real execution contexts (ExecuteContext,
 * LoadOptionsContext, HookContext, WebhookContext), with a credentials helper that behaves like
 * n8n's own: generic `authenticate` blocks resolved as expressions, `preAuthentication` for
 * expirable fields (refilled when empty or after a 401), and updated credentials kept.
 * Requests go over real HTTP (n8n-core's request helpers) to the sandbox.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-harness-'));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';

/* eslint-disable @typescript-eslint/no-require-imports */
const core = require('n8n-core') as typeof import('n8n-core');
/* eslint-enable @typescript-eslint/no-require-imports */
import {
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type ICredentials,
	type IDataObject,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeExecutionData,
	type NodeExecutionHint,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypes,
	type IRequestOptionsSimplified,
	type IRunExecutionData,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
	type IWebhookData,
	type INodeListSearchResult,
	type ICredentialTestFunction,
	type INodeCredentialTestResult,
	type IWebhookResponseData,
} from 'n8n-workflow';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type CredentialStore = Record<string, ICredentialDataDecryptedObject>;

/** n8n's CredentialsHelper, reduced to what community nodes use. */
export class TestCredentialsHelper extends ICredentialsHelper {
	/** How often preAuthentication actually ran, per credential type (for re-auth tests). */
	readonly preAuthRuns: Record<string, number> = {};

	constructor(
		private readonly types: ICredentialType[],
		readonly store: CredentialStore,
	) {
		super();
	}

	private type(name: string): ICredentialType {
		const found = this.types.find((t) => t.name === name);
		if (!found) throw new Error(`unknown credential type ${name}`);
		return found;
	}

	getParentTypes(name: string): string[] {
		return this.type(name).extends ?? [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			const resolve = (value: unknown) => {
				if (typeof value !== 'string' || value.charAt(0) !== '=' || !workflow || !node) return value;
				return workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials }, undefined, '');
			};
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, unknown>)) {
					target[outerKey] = target[outerKey] ?? {};
					target[outerKey][String(resolve(key))] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.type(typeName);
		const expirable = type.properties.find((p) => p.type === 'hidden' && p.typeOptions?.expirable === true);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && credentials[expirable.name] !== undefined && !credentialsExpired) {
			return undefined;
		}
		const output = await this.runPreAuthentication(helpers, credentials, typeName);
		if (!output || output[expirable.name] === undefined) return undefined;
		const merged = Object.assign(credentials, output);
		if (node.credentials?.[typeName]) await this.updateCredentials(node.credentials[typeName], typeName, merged);
		return merged;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.type(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		this.preAuthRuns[typeName] = (this.preAuthRuns[typeName] ?? 0) + 1;
		return (await type.preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
	}

	async getCredentials(_nodeCredentials: INodeCredentialsDetails, _type: string): Promise<ICredentials> {
		throw new Error('not used by community nodes');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.store[type];
		if (!data) throw new Error(`no credentials of type ${type} in the test store`);
		// n8n hands out a fresh decrypted copy on every call.
		return { ...data };
	}

	async updateCredentials(_nodeCredentials: INodeCredentialsDetails, type: string, data: ICredentialDataDecryptedObject): Promise<void> {
		this.store[type] = { ...data };
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.type(type).properties;
	}
}

export interface NodeHarnessOptions {
	nodeType: INodeType;
	credentialTypes?: ICredentialType[];
	/** Decrypted credential data by credential type name. */
	credentials?: CredentialStore;
	parameters: INodeParameters;
	nodeName?: string;
	typeVersion?: number;
	workflowId?: string;
	executionId?: string;
	mode?: WorkflowExecuteMode;
	staticData?: IDataObject;
	continueOnFail?: boolean;
	/** The node's Settings > On Error; continueOnFail is the older flag. */
	onError?: INode['onError'];
	webhookBaseUrl?: string;
}

export interface NodeHarness {
	workflow: Workflow;
	node: INode;
	additionalData: IWorkflowExecuteAdditionalData;
	credentialsHelper: TestCredentialsHelper;
}

function nodeTypesFor(nodeType: INodeType): INodeTypes {
	return {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
}

export function createHarness(opts: NodeHarnessOptions): NodeHarness {
	const description = opts.nodeType.description;
	const typeName = `CUSTOM.${description.name}`;
	const node: INode = {
		id: 'node-under-test',
		name: opts.nodeName ?? description.defaults.name ?? description.displayName,
		type: typeName,
		typeVersion: opts.typeVersion ?? (Array.isArray(description.version) ? description.version.at(-1)! : description.version),
		position: [0, 0],
		parameters: opts.parameters,
		continueOnFail: opts.continueOnFail ?? false,
		...(opts.onError ? { onError: opts.onError } : {}),
		credentials: Object.fromEntries(
			Object.keys(opts.credentials ?? {}).map((type) => [type, { id: `cred-${type}`, name: type }]),
		),
	};
	const workflow = new Workflow({
		id: opts.workflowId ?? 'wf-test',
		name: 'harness',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: nodeTypesFor(opts.nodeType),
		staticData: opts.staticData ?? {},
		settings: {},
	});
	// Node parameters are stored with defaults filled in, as n8n does on save.
	node.parameters =
		NodeHelpers.getNodeParameters(description.properties, opts.parameters, true, false, node, description) ??
		opts.parameters;
	const credentialsHelper = new TestCredentialsHelper(opts.credentialTypes ?? [], { ...(opts.credentials ?? {}) });
	const additionalData = {
		credentialsHelper,
		executionId: opts.executionId ?? 'exec-1',
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		webhookBaseUrl: opts.webhookBaseUrl ?? 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		variables: {},
		currentNodeParameters: undefined,
		executeWorkflow: async () => {
			throw new Error('not supported in the harness');
		},
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('not supported in the harness');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
	return { workflow, node, additionalData, credentialsHelper };
}

function emptyRunData(): IRunExecutionData {
	return {
		version: 1,
		startData: {},
		resultData: { runData: {}, pinData: {} },
		executionData: {
			contextData: {},
			nodeExecutionStack: [],
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	} as unknown as IRunExecutionData;
}

/** What a run may pass besides the items: n8n's Stop signal, a list that receives the run's execution hints. */
export interface RunExtras {
	abortSignal?: AbortSignal;
	hints?: NodeExecutionHint[];
}

/** Runs the node's `execute` once on `items`, as n8n does for one run of the node. */
export async function executeNode(
	harness: NodeHarness,
	items: INodeExecutionData[],
	mode: WorkflowExecuteMode = 'manual',
	extras: RunExtras = {},
): Promise<INodeExecutionData[][]> {
	const { workflow, node, additionalData } = harness;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const inputData = { main: [items] };
	const executeData = { node, data: inputData, source: null };
	const ctx = new core.ExecuteContext(
		workflow,
		node,
		additionalData,
		mode,
		emptyRunData(),
		0,
		items,
		inputData,
		executeData,
		[],
		extras.abortSignal,
	);
	if (!nodeType.execute) throw new Error(`${node.type} has no execute()`);
	try {
		const out = await nodeType.execute.call(ctx);
		return (out ?? []) as INodeExecutionData[][];
	} finally {
		extras.hints?.push(...((ctx as unknown as { hints?: NodeExecutionHint[] }).hints ?? []));
	}
}

/** Like executeNode, with n8n's execution cancel signal (Stop) and the execution hints the node added. */
export async function executeNodeWithHints(
	harness: NodeHarness,
	items: INodeExecutionData[],
	abortSignal?: AbortSignal,
): Promise<{ output?: INodeExecutionData[][]; error?: Error; hints: Array<{ message: string; type?: string }> }> {
	const { workflow, node, additionalData } = harness;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const inputData = { main: [items] };
	const ctx = new core.ExecuteContext(workflow, node, additionalData, 'manual', emptyRunData(), 0, items, inputData, { node, data: inputData, source: null }, [], abortSignal);
	if (!nodeType.execute) throw new Error(`${node.type} has no execute()`);
	const hints = (ctx as unknown as { hints: Array<{ message: string; type?: string }> }).hints;
	try {
		return { output: (await nodeType.execute.call(ctx)) as INodeExecutionData[][], hints };
	} catch (error) {
		return { error: error as Error, hints };
	}
}

/** Calls a `methods.loadOptions` function, as the editor does for a dropdown. */
export async function loadOptions(harness: NodeHarness, method: string): Promise<INodePropertyOptions[]> {
	const { workflow, node, additionalData } = harness;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const fn = nodeType.methods?.loadOptions?.[method];
	if (!fn) throw new Error(`no loadOptions method ${method}`);
	(additionalData as unknown as { currentNodeParameters: INodeParameters }).currentNodeParameters = node.parameters;
	const ctx = new core.LoadOptionsContext(workflow, node, additionalData, 'parameters');
	return await fn.call(ctx);
}

/** Calls a `methods.listSearch` function. */
export async function listSearch(harness: NodeHarness, method: string, filter?: string): Promise<INodeListSearchResult> {
	const { workflow, node, additionalData } = harness;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const fn = nodeType.methods?.listSearch?.[method];
	if (!fn) throw new Error(`no listSearch method ${method}`);
	(additionalData as unknown as { currentNodeParameters: INodeParameters }).currentNodeParameters = node.parameters;
	const ctx = new core.LoadOptionsContext(workflow, node, additionalData, 'parameters');
	return await fn.call(ctx, filter);
}

/** Calls a `methods.credentialTest` function with decrypted credential data. */
export async function testCredential(
	harness: NodeHarness,
	method: string,
	credentialType: string,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const { workflow, node } = harness;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const fn = nodeType.methods?.credentialTest?.[method] as ICredentialTestFunction | undefined;
	if (!fn) throw new Error(`no credentialTest method ${method}`);
	const ctx = new core.CredentialTestContext();
	return await fn.call(ctx, { id: 'cred-test', name: credentialType, type: credentialType, data });
}

export function webhookData(harness: NodeHarness, isTest = false): IWebhookData {
	const { workflow, node } = harness;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const description = nodeType.description.webhooks?.[0];
	if (!description) throw new Error('node has no webhook');
	return {
		httpMethod: 'POST',
		node: node.name,
		path: 'webhook',
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: harness.additionalData,
		isTest,
		webhookId: 'harness-webhook-id',
	} as IWebhookData;
}

/** Calls one of `webhookMethods.default.{checkExists,create,delete}` on a HookContext. */
export async function runWebhookMethod(
	harness: NodeHarness,
	method: 'checkExists' | 'create' | 'delete',
	opts: { isTest?: boolean; activation?: 'init' | 'activate' | 'update' | 'manual' } = {},
): Promise<boolean> {
	const { workflow, node, additionalData } = harness;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const fn = nodeType.webhookMethods?.default?.[method];
	if (!fn) throw new Error(`no webhook method ${method}`);
	const ctx = new core.HookContext(
		workflow,
		node,
		additionalData,
		opts.isTest ? 'manual' : 'trigger',
		opts.activation ?? 'activate',
		webhookData(harness, opts.isTest),
	);
	return await fn.call(ctx);
}

/** An Express-like request as n8n hands it to a webhook: parsed body plus the raw bytes. */
export type WebhookRequest = http.IncomingMessage & {
	rawBody: Buffer;
	body: unknown;
	query: Record<string, string>;
	params: Record<string, string>;
};

/** The Express response methods n8n's webhook server offers, on a plain Node response. */
export type WebhookResponse = http.ServerResponse & {
	status(code: number): WebhookResponse;
	json(body: unknown): WebhookResponse;
	send(body?: unknown): WebhookResponse;
};

function expressLike(res: http.ServerResponse): WebhookResponse {
	const r = res as WebhookResponse;
	r.status = (code: number) => {
		r.statusCode = code;
		return r;
	};
	r.json = (body: unknown) => {
		if (!r.headersSent) r.setHeader('content-type', 'application/json');
		r.end(JSON.stringify(body));
		return r;
	};
	r.send = (body?: unknown) => {
		if (body === undefined) r.end();
		else if (typeof body === 'string' || Buffer.isBuffer(body)) r.end(body);
		else r.json(body);
		return r;
	};
	return r;
}

/** Calls the node's `webhook()` on a WebhookContext for one received request. */
export async function runWebhook(
	harness: NodeHarness,
	req: WebhookRequest,
	res: WebhookResponse,
	isTest = false,
): Promise<IWebhookResponseData> {
	const { workflow, node } = harness;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	if (!nodeType.webhook) throw new Error(`${node.type} has no webhook()`);
	const additionalData = { ...harness.additionalData, httpRequest: req, httpResponse: res } as IWorkflowExecuteAdditionalData;
	const ctx = new core.WebhookContext(workflow, node, additionalData, isTest ? 'manual' : 'webhook', webhookData(harness, isTest), [], null);
	return await nodeType.webhook.call(ctx);
}

export interface WebhookServer {
	url: string;
	/** Every execution the node started (what webhook() returned): the items handed to the run. */
	runs: INodeExecutionData[][];
	/** With `run`: what each run's first step output (an empty list: the run stopped at the trigger). */
	outputs: INodeExecutionData[][];
	/** Every answered request: status and body text. */
	answers: Array<{ status: number; body: string }>;
	close(): Promise<void>;
}

/**
 * Serves the node's webhook on a free loopback port the way n8n's webhook server does
 * (raw body kept, JSON parsed when it parses, node-written responses respected), and records
 * the runs the node starts.
 */
export async function startWebhookServer(
	harness: NodeHarness,
	opts: { isTest?: boolean; run?: (items: INodeExecutionData[]) => Promise<INodeExecutionData[]> } = {},
): Promise<WebhookServer> {
	const runs: INodeExecutionData[][] = [];
	const outputs: INodeExecutionData[][] = [];
	const answers: Array<{ status: number; body: string }> = [];
	const server = http.createServer(async (rawReq, rawRes) => {
		const chunks: Buffer[] = [];
		for await (const c of rawReq) chunks.push(c as Buffer);
		const req = rawReq as WebhookRequest;
		req.rawBody = Buffer.concat(chunks);
		try {
			req.body = JSON.parse(req.rawBody.toString('utf8'));
		} catch {
			req.body = {};
		}
		const url = new URL(rawReq.url ?? '/', 'http://localhost');
		req.query = Object.fromEntries(url.searchParams);
		req.params = {};
		const res = expressLike(rawRes);
		let body = '';
		const end = res.end.bind(res);
		res.end = ((chunk?: unknown, ...rest: unknown[]) => {
			if (chunk !== undefined && typeof chunk !== 'function') body += String(chunk);
			answers.push({ status: res.statusCode, body });
			return (end as (...a: unknown[]) => http.ServerResponse)(chunk, ...rest);
		}) as typeof res.end;
		try {
			const result = await runWebhook(harness, req, res, opts.isTest);
			// n8n creates the execution, then answers (responseMode onReceived, responseData noData: an
			// empty 200), then the run's first step is the trigger's execute().
			if (result.workflowData && result.workflowData.length) runs.push(result.workflowData[0]);
			if (!result.noWebhookResponse && !res.writableEnded) {
				if (result.workflowData) res.status(200).end();
				else res.status(200).json(result.webhookResponse ?? { message: 'Workflow was started' });
			}
			if (result.workflowData?.length && opts.run) outputs.push(await opts.run(result.workflowData[0]));
		} catch (error) {
			if (!res.writableEnded) res.status(500).json({ message: (error as Error).message });
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/webhook`,
		runs,
		outputs,
		answers,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

export { core };
