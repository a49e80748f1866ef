/* eslint-disable @typescript-eslint/no-explicit-any -- answers are arbitrary JSON that the tests assert on field by field */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Sandbox, type StartSandboxOptions, startSandbox } from '../../sandbox';

export const SERVER = 'fn_sandbox_server_partner1';
export const SERVER2 = 'fn_sandbox_server_partner2';
export const ALL_SCOPES = 'fnp_sandbox_all_scopes';
export const CHECKOUT = 'fnp_sandbox_checkout';
export const CLIENT2 = 'fnp_sandbox_partner2';

export interface Answer<T = any> {
	status: number;
	headers: Headers;
	body: T;
	text: string;
	/** Date.now() just before the request left and just after the answer was read: the server's clock read in between. */
	sentAt: number;
	receivedAt: number;
}

export interface CallOptions {
	key?: string;
	idem?: string;
	headers?: Record<string, string>;
	/** Raw body text (sent as is); otherwise `body` is JSON-encoded. */
	raw?: string;
}

let idemCounter = 0;
/** A fresh idempotency key per call unless one is given. */
export const freshKey = (): string => `test-${process.pid}-${Date.now()}-${++idemCounter}`;

/** Small HTTP client over global fetch, bound to one sandbox. */
export function client(baseUrl: string) {
	async function call<T = any>(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<Answer<T>> {
		const headers: Record<string, string> = { ...opts.headers };
		if (opts.key) headers.authorization = `Bearer ${opts.key}`;
		const hasBody = body !== undefined || opts.raw !== undefined;
		if (hasBody && !headers['content-type']) headers['content-type'] = 'application/json';
		if (method === 'POST' && opts.idem !== '' && !('x-idempotency-key' in headers)) headers['x-idempotency-key'] = opts.idem ?? freshKey();
		const sentAt = Date.now();
		const res = await fetch(baseUrl + path, { method, headers, body: opts.raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
		const text = await res.text();
		const receivedAt = Date.now();
		let parsed: unknown = text;
		try {
			parsed = text === '' ? undefined : JSON.parse(text);
		} catch {
			// not JSON: keep the text
		}
		return { status: res.status, headers: res.headers, body: parsed as T, text, sentAt, receivedAt };
	}
	return {
		get: <T = any>(path: string, opts?: CallOptions) => call<T>('GET', path, undefined, opts),
		post: <T = any>(path: string, body?: unknown, opts?: CallOptions) => call<T>('POST', path, body, opts),
		del: <T = any>(path: string, opts?: CallOptions) => call<T>('DELETE', path, undefined, opts),
		call,
	};
}
export type Client = ReturnType<typeof client>;

/** Starts a sandbox on free ports; quiet, fast by default. */
export async function start(opts: StartSandboxOptions = {}): Promise<{ sb: Sandbox; api: Client }> {
	const sb = await startSandbox({ timeScale: 100, ...opts });
	return { sb, api: client(sb.orchestrationUrl) };
}

/** A minimal valid quote body: 100 USDC on Base to BTC on Bitcoin. */
export function quoteBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		sourceChain: 'base',
		sourceAsset: 'USDC',
		destinationChain: 'bitcoin',
		destinationAsset: 'BTC',
		amount: '100000000',
		recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
		...overrides,
	};
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 5000, what = 'condition'): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(10);
	}
}

/** Creates a quote with the server key and pays its deposit address. */
export async function fundedOrder(api: Client, deposit: Record<string, unknown> = {}, quote: Record<string, unknown> = {}, key = SERVER) {
	const q = await api.post('/v1/orchestration/quote', quoteBody(quote), { key });
	if (q.status !== 200) throw new Error(`quote failed: ${q.text}`);
	const d = await api.post('/sandbox/deposits', { depositAddress: q.body.depositAddress, amount: q.body.amountIn, ...deposit });
	if (d.status !== 201) throw new Error(`deposit failed: ${d.text}`);
	return { quote: q.body, orderId: d.body.orderId as string };
}

export interface Received {
	at: number;
	headers: IncomingHttpHeaders;
	raw: Buffer;
}

/** A local webhook receiver: records raw bodies and headers; answers `statusFor(n)` to the n-th request. */
export async function receiver(statusFor: (n: number) => number = () => 200) {
	const received: Received[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			received.push({ at: Date.now(), headers: req.headers, raw: Buffer.concat(chunks) });
			res.statusCode = statusFor(received.length);
			res.end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
