/**
 * Shared setup for the Execution Gateway node tests: the sandbox's gateway behind a recording
 * proxy (so tests see the exact bytes on the wire and can prove nothing was sent), the node in the
 * n8n-core harness, and independent checks built on node:crypto (OpenSSL), never the code under test.
 */
import { createECDH, createHash, createPublicKey, ECDH, randomBytes, verify } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRunExecutionData,
} from 'n8n-workflow';

import { ExecutionGatewayApi } from '../../credentials/ExecutionGatewayApi.credentials';
import { ExecutionGateway } from '../../nodes/ExecutionGateway/ExecutionGateway.node';
import { signEip1559 } from '../../nodes/shared/gateway/eip1559';
import { startSandbox, type Sandbox, type StartSandboxOptions } from '../../sandbox';
import { core, createHarness, executeNode, type NodeHarness } from './n8n';

export const CREDENTIAL = 'executionGatewayApi';
/** Sandbox time runs 50x faster: the lifecycle takes ~0.2 s, a token still lives 18 s. */
export const TIME_SCALE = 50;

export interface RecordedRequest {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	body: string;
	/** Date.now() when the whole request had arrived. */
	at: number;
	status?: number;
	/** The answer's body text, once it has been sent back. */
	response?: string;
	/** Order in which answers came back (0 first). */
	answeredAs?: number;
}

export interface RecordingProxy {
	url: string;
	requests: RecordedRequest[];
	/** Most requests the proxy had in flight at once since the last reset. */
	maxInFlight: number;
	/** Clears the recorded requests and the in-flight maximum. */
	reset(): void;
	/** Requests to one path (query ignored), optionally of one method. */
	to(path: string, method?: string): RecordedRequest[];
	close(): Promise<void>;
}

/** A pass-through HTTP proxy that records every request it forwards to `target`. */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
	const requests: RecordedRequest[] = [];
	const upstream = new URL(target);
	let inFlight = 0;
	let answered = 0;
	const stats = { maxInFlight: 0 };
	const server = http.createServer(async (req, res) => {
		inFlight++;
		stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
		res.on('close', () => inFlight--);
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const body = Buffer.concat(chunks);
		const record: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: body.toString('utf8'), at: Date.now() };
		requests.push(record);
		const forward = http.request(
			{ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
			async (up) => {
				const answer: Buffer[] = [];
				for await (const c of up) answer.push(c as Buffer);
				record.status = up.statusCode;
				record.response = Buffer.concat(answer).toString('utf8');
				record.answeredAs = answered++;
				res.writeHead(up.statusCode ?? 502, up.headers);
				res.end(Buffer.concat(answer));
			},
		);
		forward.on('error', () => {
			// The sandbox dropped the connection (fault injection): drop ours too.
			res.socket?.destroy();
		});
		forward.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		get maxInFlight() {
			return stats.maxInFlight;
		},
		reset() {
			requests.length = 0;
			stats.maxInFlight = 0;
		},
		to: (path, method) => requests.filter((r) => r.path.split('?')[0] === path && (!method || r.method === method)),
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export interface GatewayEnv {
	sb: Sandbox;
	proxy: RecordingProxy;
	/** The URL the node talks to (the proxy). */
	url: string;
	signerKey: string;
	control<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T>;
	registerTransfer(transfer: { sparkTransferId: string; assetType?: 'btc' | 'token'; tokenId?: string; amount?: string }): Promise<void>;
	intents(): Promise<IDataObject[]>;
	close(): Promise<void>;
}

export async function startGatewayEnv(opts: StartSandboxOptions = {}): Promise<GatewayEnv> {
	const sb = await startSandbox({ timeScale: TIME_SCALE, quiet: true, ...opts });
	const proxy = await startRecordingProxy(sb.gatewayUrl);
	const control = async <T = IDataObject>(method: string, path: string, body?: unknown): Promise<T> => {
		const res = await fetch(`${sb.gatewayUrl}${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const json = (await res.json()) as T;
		if (!res.ok) throw new Error(`control ${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
		return json;
	};
	return {
		sb,
		proxy,
		url: proxy.url,
		signerKey: sb.keys.gateway.privateKeys[0],
		control,
		registerTransfer: async (t) => {
			await control('POST', '/sandbox/transfers', t);
		},
		intents: async () => (await control<{ intents: IDataObject[] }>('GET', '/sandbox/intents')).intents,
		close: async () => {
			await proxy.close();
			await sb.close();
		},
	};
}

export function credentialData(url: string, privateKey: string): ICredentialDataDecryptedObject {
	return { gatewayUrl: url, privateKey, accessToken: '', accessTokenPublicKey: '' };
}

export function gatewayHarness(
	env: { url: string; signerKey: string },
	parameters: INodeParameters,
	opts: { executionId?: string; continueOnFail?: boolean; privateKey?: string; nodeName?: string; typeVersion?: number } = {},
): NodeHarness {
	return createHarness({
		nodeType: new ExecutionGateway(),
		credentialTypes: [new ExecutionGatewayApi()],
		credentials: { [CREDENTIAL]: credentialData(env.url, opts.privateKey ?? env.signerKey) },
		parameters,
		executionId: opts.executionId ?? `exec-${randomBytes(4).toString('hex')}`,
		continueOnFail: opts.continueOnFail,
		nodeName: opts.nodeName,
		// The suites wait through the Options of versions 1-1.1 (WAIT); version 1.2's shared wait parameters are tested by name.
		typeVersion: opts.typeVersion ?? 1.1,
	});
}

/** Runs the node once and returns its first output's JSON. */
export async function run(h: NodeHarness, items: IDataObject[] = [{}]): Promise<IDataObject[]> {
	const [out] = await executeNode(h, items.map((json) => ({ json })));
	return out.map((i) => i.json);
}

/** Runs the node and returns the thrown error (fails when nothing is thrown). */
export async function runError(h: NodeHarness, items: IDataObject[] = [{}]): Promise<Error & IDataObject> {
	try {
		await run(h, items);
	} catch (error) {
		return error as Error & IDataObject;
	}
	throw new Error('the node did not fail');
}

export function emptyRunData(): IRunExecutionData {
	return {
		version: 1,
		startData: {},
		resultData: { runData: {}, pinData: {} },
		executionData: { contextData: {}, nodeExecutionStack: [], metadata: {}, waitingExecution: {}, waitingExecutionSource: {} },
	} as unknown as IRunExecutionData;
}

/**
 * Runs the node on a given run data object, as n8n's Retry On Fail does: every try of a node in
 * one execution shares the run data (and with it the node's execution context).
 */
export async function executeWithRunData(h: NodeHarness, items: IDataObject[], runData: IRunExecutionData): Promise<INodeExecutionData[]> {
	const data = items.map((json) => ({ json }));
	const inputData = { main: [data] };
	const ctx = new core.ExecuteContext(h.workflow, h.node, h.additionalData, 'manual', runData, 0, data, inputData, { node: h.node, data: inputData, source: null }, []);
	const nodeType = h.workflow.nodeTypes.getByNameAndVersion(h.node.type, h.node.typeVersion) as INodeType;
	const out = (await nodeType.execute!.call(ctx)) as INodeExecutionData[][];
	return out[0];
}

/**
 * n8n's credential test for a credential with a `test` request (CredentialsTester): a temporary
 * declarative node runs the request through RoutingNode, so preAuthentication runs first.
 */
export async function runCredentialTest(data: ICredentialDataDecryptedObject): Promise<{ status: 'OK' | 'Error'; message: string; harness: NodeHarness }> {
	const credential = new ExecutionGatewayApi();
	const nodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'noOp',
			group: ['transform'],
			version: 1,
			description: 'credential test',
			defaults: { name: 'Temp-Node' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: credential.test.request }, default: '' }],
		},
	} as INodeType;
	const harness = createHarness({ nodeType, credentialTypes: [credential], credentials: { [CREDENTIAL]: { ...data } }, parameters: { temp: '' } });
	const inputData = { main: [[{ json: {} }]] };
	const ctx = new core.ExecuteContext(harness.workflow, harness.node, harness.additionalData, 'internal', emptyRunData(), 0, [], inputData, { node: harness.node, data: {}, source: null }, []);
	const routing = new core.RoutingNode(ctx, nodeType, { id: 'cred-test', name: CREDENTIAL, type: CREDENTIAL, data: { ...data } });
	try {
		await routing.runNode();
		return { status: 'OK', message: 'Connection successful!', harness };
	} catch (error) {
		// The same reading of the error as n8n's CredentialsTester.
		const e = error as { message: string; cause?: { response?: { status: number; statusText?: string }; code?: string } };
		if (e.cause?.response) {
			return { status: 'Error', message: e.cause.response.statusText || `Received HTTP status code: ${e.cause.response.status}`, harness };
		}
		if (e.cause?.code) return { status: 'Error', message: e.cause.code, harness };
		return { status: 'Error', message: String(e.message), harness };
	}
}

/** web3.js documentation key; its address is published: 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23. */
export const EVM_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
export const EVM_ADDRESS = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23';
/** Wait Until Final options for tests: poll every second, up to 20 s. */
export const WAIT = { waitUntilFinal: true, pollInterval: 1, waitTimeout: 20 };

export const hex = (bytes: number): string => randomBytes(bytes).toString('hex');
/** A Spark transfer id: 32 hex characters for BTC, 64 for tokens (§2.4). */
export const btcTransferId = (): string => hex(16);
export const tokenTransferId = (): string => hex(32);

let evmNonce = 0;
/** An EIP-1559 transaction signed with EVM_KEY for `chainId` (each with the next nonce), calling `data`. */
export function evmTransaction(chainId: number, data = '0x'): string {
	return signEip1559(
		{ chainId, nonce: evmNonce++, maxPriorityFeePerGas: 1_000_000_000n, maxFeePerGas: 30_000_000_000n, gasLimit: 200_000, to: `0x${'33'.repeat(20)}`, value: 0, data },
		EVM_KEY,
	);
}

/** Intent > Execute parameters of a deposit-and-execute intent. */
export function executeParams(evmTransaction: string, deposits: INodeParameters[], options: INodeParameters = {}): INodeParameters {
	return { resource: 'intent', operation: 'execute', deposits: { deposit: deposits }, action: 'execute', evmTransaction, options };
}

export function depositParams(deposits: Array<{ sparkTransferId: string; assetType?: string; tokenId?: string; amount: string }>, extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'intent',
		operation: 'execute',
		deposits: { deposit: deposits.map((d) => ({ assetType: 'btc', ...d })) },
		action: 'deposit',
		recipient: '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23',
		...extra,
	};
}

/** OpenSSL: the compressed public key of a private key. */
export function opensslPublicKey(privHex: string): string {
	const ecdh = createECDH('secp256k1');
	ecdh.setPrivateKey(Buffer.from(privHex, 'hex'));
	return ecdh.getPublicKey('hex', 'compressed');
}

/** OpenSSL: verifies a DER ECDSA signature over SHA-256 of `message` (UTF-8). */
export function opensslVerify(message: string, derHex: string, compressedPublicKey: string): boolean {
	const raw = Buffer.from(ECDH.convertKey(compressedPublicKey, 'secp256k1', 'hex', 'hex', 'uncompressed') as string, 'hex');
	const key = createPublicKey({
		key: { kty: 'EC', crv: 'secp256k1', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
		format: 'jwk',
	});
	return verify('sha256', Buffer.from(message, 'utf8'), { key, dsaEncoding: 'der' }, Buffer.from(derHex, 'hex'));
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const sleepMs = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
