/**
 * Shared pieces of the trigger tests: a harness around the Orchestration Trigger, signing with
 * node:crypto (independent of the code under test), raw HTTP posts with exact bytes and headers,
 * and in-memory request/response objects for cases HTTP cannot carry.
 */
import { createHmac, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { IDataObject, INodeExecutionData, INodeParameters, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { OrchestrationServerApi } from '../../credentials/OrchestrationServerApi.credentials';
import { OrchestrationWebhookSecretApi } from '../../credentials/OrchestrationWebhookSecretApi.credentials';
import { OrchestrationTrigger } from '../../nodes/OrchestrationTrigger/OrchestrationTrigger.node';
import { core, createHarness, executeNode, runWebhook, startWebhookServer, webhookData, type CredentialStore, type NodeHarness, type WebhookRequest, type WebhookResponse, type WebhookServer } from './n8n';
import { useMemoryProcessedStore } from './processedStore';

export const SERVER_KEY = 'fn_sandbox_server_partner1';

let harnessCount = 0;

/**
 * A trigger harness with its own workflow id, so no two tests share a process-local memory. In
 * version 1.1 (the default) an existing endpoint's `webhookSecret` goes into the secret credential,
 * as a user of 1.1 sets it; version 1 keeps it a parameter.
 */
export function triggerHarness(opts: {
	parameters?: INodeParameters;
	baseUrl?: string;
	apiKey?: string;
	staticData?: IDataObject;
	workflowId?: string;
	webhookBaseUrl?: string;
	typeVersion?: number;
	/** Decrypted data of the secret credential as n8n would hand it over (any shape, for attacks). */
	secretCredential?: IDataObject;
	/** Another instance of the node (e.g. loaded in an isolated module registry: another process). */
	nodeType?: OrchestrationTrigger;
}): NodeHarness {
	harnessCount++;
	const { webhookSecret, ...rest } = opts.parameters ?? {};
	const v1 = opts.typeVersion === 1;
	const secretCredential = opts.secretCredential ?? (!v1 && webhookSecret !== undefined ? { secret: webhookSecret } : undefined);
	return createHarness({
		nodeType: opts.nodeType ?? new OrchestrationTrigger(),
		credentialTypes: [new OrchestrationServerApi(), new OrchestrationWebhookSecretApi()],
		credentials: {
			orchestrationServerApi: { baseUrl: opts.baseUrl ?? 'http://127.0.0.1:9', apiKey: opts.apiKey ?? SERVER_KEY },
			...(secretCredential ? { orchestrationWebhookSecretApi: secretCredential } : {}),
		} as CredentialStore,
		parameters: v1 ? (opts.parameters ?? {}) : rest,
		workflowId: opts.workflowId ?? `wf-trigger-${harnessCount}-${randomBytes(4).toString('hex')}`,
		staticData: opts.staticData,
		webhookBaseUrl: opts.webhookBaseUrl,
		typeVersion: opts.typeVersion,
	});
}

/**
 * What n8n does with the items webhook() returned: the run starts at the trigger, whose execute()
 * gets them as input (persisting the accepted keys, shaping the output). Returns the output.
 */
export async function completeRun(
	h: NodeHarness,
	items: INodeExecutionData[],
	mode: boolean | 'webhook' | 'manual' | 'retry' = 'webhook',
): Promise<INodeExecutionData[]> {
	await useMemoryProcessedStore();
	const [out] = await executeNode(h, items, mode === true ? 'manual' : mode === false ? 'webhook' : mode);
	return out;
}

/** The node's webhook served as n8n does, each created execution run through the trigger's execute(). */
export async function serveTrigger(h: NodeHarness, opts: { isTest?: boolean } = {}): Promise<WebhookServer> {
	return await startWebhookServer(h, { ...opts, run: async (items) => await completeRun(h, items, opts.isTest === true) });
}

/** Runs that went past the trigger (the node after it would run). */
export function effectiveRuns(server: WebhookServer): INodeExecutionData[][] {
	return server.outputs.filter((o) => o.length > 0);
}

/** The node's static data as the node sees it (n8n keys it by node name). */
export function nodeStaticData(h: NodeHarness): IDataObject {
	return h.workflow.getStaticData('node', h.node);
}

/** hex(HMAC_SHA256(secret, timestamp + "." + raw_body)), spec §6, computed with node:crypto only. */
export function sign(secret: string, timestamp: string, body: Buffer | string): string {
	return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export function signedHeaders(secret: string, body: Buffer | string, timestampMs = Date.now()): Record<string, string> {
	const timestamp = String(timestampMs);
	return {
		'content-type': 'application/json',
		'x-service-timestamp': timestamp,
		'x-service-signature': sign(secret, timestamp, body),
	};
}

let orderCount = 0;

/** An envelope as spec §6 describes it, with an order snapshot (2.10). */
export function envelope(overrides: { event?: string; id?: string; updatedAt?: string; data?: IDataObject } = {}): IDataObject {
	orderCount++;
	const event = overrides.event ?? 'order.completed';
	return {
		event,
		timestamp: new Date().toISOString(),
		data: {
			id: overrides.id ?? `ord_test_${orderCount}_${randomBytes(3).toString('hex')}`,
			status: event.replace(/^order\./, ''),
			updatedAt: overrides.updatedAt ?? new Date(Date.UTC(2025, 0, 1, 0, 0, orderCount)).toISOString(),
			amountIn: '1000000',
			feeAmount: '3000',
			quoteId: `q_${orderCount}`,
			...(overrides.data ?? {}),
		},
	};
}

export interface HttpAnswer {
	status: number;
	body: string;
	json?: { error?: string; message?: string; ignored?: string; [k: string]: unknown };
}

/** POSTs exact bytes with exact headers (an array value sends the header line several times). */
export function post(url: string, body: Buffer | string, headers: Record<string, string | string[]>): Promise<HttpAnswer> {
	return new Promise((resolve, reject) => {
		const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				let json: HttpAnswer['json'];
				try {
					json = text ? JSON.parse(text) : undefined;
				} catch {
					json = undefined;
				}
				resolve({ status: res.statusCode ?? 0, body: text, json });
			});
		});
		req.on('error', reject);
		req.end(body);
	});
}

/** A response object that records what the node wrote, for runWebhook without a network. */
export interface MemoryResponse {
	res: WebhookResponse;
	answer(): { status: number; body: string; ended: boolean };
}

export function memoryResponse(): MemoryResponse {
	let status = 200;
	let body = '';
	let ended = false;
	const res = {
		statusCode: 200,
		headersSent: false,
		writableEnded: false,
		setHeader() {
			return res;
		},
		status(code: number) {
			status = code;
			res.statusCode = code;
			return res;
		},
		json(value: unknown) {
			body = JSON.stringify(value);
			ended = true;
			res.writableEnded = true;
			return res;
		},
		send(value?: unknown) {
			body = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
			ended = true;
			res.writableEnded = true;
			return res;
		},
		end(value?: unknown) {
			if (typeof value === 'string') body += value;
			ended = true;
			res.writableEnded = true;
			return res;
		},
	};
	return { res: res as unknown as WebhookResponse, answer: () => ({ status, body, ended }) };
}

/** A request object as n8n's webhook server builds it: raw bytes kept, JSON parsed when it parses. */
export function memoryRequest(body: Buffer | string | undefined, headers: Record<string, string | string[]>): WebhookRequest {
	const raw = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
	let parsed: unknown = {};
	try {
		parsed = raw ? JSON.parse(raw.toString('utf8')) : {};
	} catch {
		parsed = {};
	}
	return {
		method: 'POST',
		url: '/webhook',
		headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
		rawBody: raw,
		body: parsed,
		query: {},
		params: {},
	} as unknown as WebhookRequest;
}

/** Runs the node's webhook() on in-memory objects; returns the node's answer and result. */
export async function deliverInMemory(
	h: NodeHarness,
	body: Buffer | string | undefined,
	headers: Record<string, string | string[]>,
	isTest = false,
): Promise<{ status: number; body: string; json?: HttpAnswer['json']; result: IWebhookResponseData }> {
	const mem = memoryResponse();
	const result = await runWebhook(h, memoryRequest(body, headers), mem.res, isTest);
	const { status, body: text, ended } = mem.answer();
	if (!result.noWebhookResponse) return { status: 200, body: '', result };
	if (!ended) throw new Error('the node claimed to answer but wrote nothing');
	return { status, body: text, json: text ? JSON.parse(text) : undefined, result };
}

/** Polls `check` until it returns true or the time is up. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, what = 'condition'): Promise<void> {
	const started = Date.now();
	while (!(await check())) {
		if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** n8n's logger as a node's context sees it (one instance per process, from n8n's container). */
export function n8nLogger(h: NodeHarness): IWebhookFunctions['logger'] {
	return new core.WebhookContext(h.workflow, h.node, h.additionalData, 'webhook', webhookData(h), [], null).logger;
}

/** The trigger as another n8n process loads it: its own module state (no runs seen there), the same workflow. */
export function inOtherProcess(opts: Parameters<typeof triggerHarness>[0]): NodeHarness {
	let Other: typeof OrchestrationTrigger | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		Other = (require('../../nodes/OrchestrationTrigger/OrchestrationTrigger.node') as { OrchestrationTrigger: typeof OrchestrationTrigger }).OrchestrationTrigger;
	});
	return triggerHarness({ ...opts, nodeType: new Other!() });
}
