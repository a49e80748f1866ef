/**
 * Service errors as the node surfaces them (code, HTTP status, hint per code), the transport's
 * bounded retries with the same idempotency key, continue-on-fail error items, and secrets kept out.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeApiError, type IDataObject, type INodeParameters } from 'n8n-workflow';
import { clearPacers } from '../../../nodes/n8n/pacing';
import type { Sandbox } from '../../../sandbox';
import {
	ADDR,
	CLIENT_ALL,
	CLIENT_BROWSER,
	CLIENT_CHECKOUT,
	CLIENT_NO_SCOPES,
	CLIENT_ORDERS_QUOTE,
	control,
	items,
	orchestrationNode,
	quoteParams,
	run,
	runError,
	serialized,
	SERVER_KEY,
	startTestSandbox,
} from '../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(async () => {
	// A Retry-After a test provoked stays with the process's pacer (as in n8n): each test starts without.
	clearPacers();
	await control(sb).clearFaults();
	await control(sb).clearRequests();
});

const quoteNode = (key: string, extra: { origin?: string; parameters?: INodeParameters } = {}) =>
	orchestrationNode({ sb, key, origin: extra.origin, parameters: quoteParams(extra.parameters ?? {}) });

/** Asserts a NodeApiError with the service's code, the HTTP status and the hint. */
function expectServiceError(error: IDataObject, code: string, status: number, hint: string | RegExp): void {
	// n8n recognises node errors by name (n8n-core rethrowNodeError); the class is NodeApiError's ServiceError.
	expect(error).toBeInstanceOf(NodeApiError);
	expect(error.name).toBe('NodeApiError');
	expect(error.message).toMatch(new RegExp(`^${code}: `));
	expect(error.httpCode).toBe(String(status));
	expect(error.errorCode).toBe(code);
	if (typeof hint === 'string') expect(error.description).toBe(hint);
	else expect(error.description).toMatch(hint);
}

async function clientOrder(): Promise<IDataObject> {
	const [q] = await run(quoteNode(CLIENT_CHECKOUT));
	const h = orchestrationNode({
		sb,
		key: CLIENT_CHECKOUT,
		parameters: { resource: 'order', operation: 'submit', quoteId: q.quoteId as string, txHash: `0x${'cd'.repeat(32)}` },
	});
	const [order] = await run(h);
	return order;
}

describe('every 403 code of the spec surfaces with its hint', () => {
	it('scope_required names the scope the operation needs', async () => {
		expectServiceError(await runError(quoteNode(CLIENT_NO_SCOPES)), 'scope_required', 403, 'This operation needs the client-key scope "orders:quote".');
		const status = orchestrationNode({
			sb,
			key: CLIENT_ORDERS_QUOTE,
			parameters: { resource: 'order', operation: 'getStatus', id: 'ord_x', readToken: 'rt_x' },
		});
		expectServiceError(await runError(status), 'scope_required', 403, 'This operation needs the client-key scope "orders:read".');
	});

	it('forbidden: an endpoint no client key can reach', async () => {
		const h = orchestrationNode({ sb, key: CLIENT_ALL, parameters: { resource: 'webhook', operation: 'create', url: 'https://example.com/hook' } });
		expectServiceError(await runError(h), 'forbidden', 403, /Use the Orchestration Server Key credential/);
	});

	it('origin_required and origin_not_allowed for a browser-mode key', async () => {
		expectServiceError(await runError(quoteNode(CLIENT_BROWSER)), 'origin_required', 403, /Set "Origin" in the Orchestration Client Key credential/);
		expectServiceError(
			await runError(quoteNode(CLIENT_BROWSER, { origin: 'https://evil.example' })),
			'origin_not_allowed',
			403,
			/not in the key's allowed origins/,
		);
		const [ok] = await run(quoteNode(CLIENT_BROWSER, { origin: 'https://app.sandbox.test' }));
		expect(ok.readToken).toEqual(expect.any(String));
	});

	it('read_token_required and invalid_read_token for client-key reads', async () => {
		const order = await clientOrder();
		const other = await clientOrder();
		const status = (readToken: string) =>
			orchestrationNode({ sb, key: CLIENT_CHECKOUT, parameters: { resource: 'order', operation: 'getStatus', id: order.orderId as string, readToken } });
		expectServiceError(await runError(status('')), 'read_token_required', 403, /Pass it in "Read Token"/);
		const wrong = await runError(status(other.readToken as string));
		expectServiceError(wrong, 'invalid_read_token', 403, /expired \(24 h\) or belongs to another key/);
		expect(serialized(wrong)).not.toContain(other.readToken as string);
	});

	it('client_key_fee_fields_forbidden (the service answer, when it gets that far)', async () => {
		await control(sb).fault({ path: '/v1/orchestration/quote', mode: 'status', status: 403, code: 'client_key_fee_fields_forbidden' });
		expectServiceError(await runError(quoteNode(CLIENT_ALL)), 'client_key_fee_fields_forbidden', 403, /Client keys cannot send fee fields/);
	});

	it('turnstile_required and turnstile_failed, and the verification token option that passes', async () => {
		await control(sb).config({ turnstile: { enabled: true } });
		try {
			const [q] = await run(quoteNode(CLIENT_CHECKOUT));
			const submit = (turnstileToken?: string) =>
				orchestrationNode({
					sb,
					key: CLIENT_CHECKOUT,
					parameters: {
						resource: 'order',
						operation: 'submit',
						quoteId: q.quoteId as string,
						txHash: `0x${'ef'.repeat(32)}`,
						options: turnstileToken ? { turnstileToken } : {},
					},
				});
			expectServiceError(await runError(submit()), 'turnstile_required', 403, /send the verification token/);
			const failed = await runError(submit('not-the-token'));
			expectServiceError(failed, 'turnstile_failed', 403, /rejected/);
			const [order] = await run(submit('sandbox-turnstile-pass'));
			expect(order.orderId).toEqual(expect.any(String));
			const posts = await control(sb).requests({ path: '/v1/orchestration/submit' });
			expect(posts.map((p) => p.headers['cf-turnstile-response'])).toEqual([undefined, 'REDACTED', 'REDACTED']);
		} finally {
			await control(sb).config({ turnstile: { enabled: false } });
		}
	});

	it('pending and rejected partner accounts when approval is enforced', async () => {
		await control(sb).config({ approvalEnforced: true });
		try {
			expectServiceError(await runError(quoteNode('fn_sandbox_server_pending')), 'account_pending_approval', 403, /waiting for approval/);
			expectServiceError(await runError(quoteNode('fn_sandbox_server_rejected')), 'account_rejected', 403, /was rejected/);
		} finally {
			await control(sb).config({ approvalEnforced: false });
		}
	});
});

describe('other service errors', () => {
	it('401 for an unknown or disabled key', async () => {
		expectServiceError(await runError(quoteNode('fn_unknown_key_123')), 'unauthorized', 401, /unknown, disabled or revoked/);
		expectServiceError(await runError(quoteNode('fnp_sandbox_disabled')), 'unauthorized', 401, /unknown, disabled or revoked/);
	});

	it('calldata_unsupported_source for a non-EVM source', async () => {
		const error = await runError(
			quoteNode(SERVER_KEY, {
				parameters: {
					sourceChain: 'bitcoin',
					sourceAsset: 'BTC',
					destinationChain: 'base',
					destinationAsset: 'USDC',
					recipientAddress: ADDR.evm,
					amount: '100000',
					options: { includeCalldata: true },
				},
			}),
		);
		expectServiceError(error, 'calldata_unsupported_source', 400, /Turn off "Include Calldata"/);
	});
});

describe('retries: same key, bounded, never other 4xx', () => {
	const posts = async () => await control(sb).requests({ path: '/v1/orchestration/quote' });

	it('429 honours Retry-After and repeats the same idempotency key', async () => {
		await control(sb).fault({ path: '/v1/orchestration/quote', mode: 'status', status: 429, code: 'rate_limited', retryAfterSeconds: 1 });
		const started = Date.now();
		const [out] = await run(quoteNode(SERVER_KEY));
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		const log = await posts();
		expect(log.map((r) => r.status)).toEqual([429, 200]);
		expect(log[1].idempotencyKey).toBe(log[0].idempotencyKey);
		expect(await control(sb).quotes({ idempotencyKey: log[0].idempotencyKey })).toEqual([expect.objectContaining({ quoteId: out.quoteId })]);
	});

	it("a Retry-After beyond the item's Max Rate Limit Wait fails at once instead of retrying before it", async () => {
		// Two hours asked, one allowed: an item that waited its maximum before failing could not end within the test's timeout.
		await control(sb).fault({ path: '/v1/orchestration/quote', mode: 'status', status: 429, code: 'rate_limited', retryAfterSeconds: 7200 });
		const error = await runError(quoteNode(SERVER_KEY, { parameters: { options: { maxRateLimitWait: 3600 } } }));
		expectServiceError(error, 'rate_limited', 429, /Rate limit reached/);
		expect(String(error.description)).toContain('(already waited 0 s)');
		expect((await posts()).map((r) => r.status)).toEqual([429]);
	});

	it('5xx twice, then success: three attempts with one key and one quote', async () => {
		await control(sb).fault({ path: '/v1/orchestration/quote', mode: 'status', status: 502, times: 2 });
		await run(quoteNode(SERVER_KEY));
		const log = await posts();
		expect(log.map((r) => r.status)).toEqual([502, 502, 200]);
		expect(new Set(log.map((r) => r.idempotencyKey)).size).toBe(1);
		expect(await control(sb).quotes({ idempotencyKey: log[0].idempotencyKey })).toHaveLength(1);
	});

	it('409 idempotency_in_progress is retried', async () => {
		await control(sb).fault({ path: '/v1/orchestration/quote', mode: 'status', status: 409, code: 'idempotency_in_progress', retryAfterSeconds: 0 });
		await run(quoteNode(SERVER_KEY));
		expect((await posts()).map((r) => r.status)).toEqual([409, 200]);
	});

	it('a dropped connection is retried with the same key', async () => {
		await control(sb).fault({ path: '/v1/orchestration/quote', mode: 'drop' });
		const [out] = await run(quoteNode(SERVER_KEY));
		expect(out.quoteId).toEqual(expect.any(String));
		const faults = (await fetch(`${sb.orchestrationUrl}/sandbox/faults`).then((r) => r.json())) as { faults: unknown[] };
		expect(faults.faults).toEqual([]); // the drop rule was used up by the first attempt
		expect((await posts()).map((r) => r.status)).toEqual([200]);
	});

	it('a 400 is not retried', async () => {
		await control(sb).fault({ path: '/v1/orchestration/quote', mode: 'status', status: 400, code: 'invalid_request' });
		const error = await runError(quoteNode(SERVER_KEY));
		expect(error.message).toBe('invalid_request: sandbox fault injected (status 400)');
		expect(await posts()).toHaveLength(1);
	});

	it('gives up after the attempt budget and says so', async () => {
		await control(sb).fault({ path: '/v1/affiliates', mode: 'status', status: 503, times: 'always' });
		const error = await runError(orchestrationNode({ sb, parameters: { resource: 'affiliate', operation: 'getAll' } }));
		expect(error.message).toBe('service_unavailable: sandbox fault injected (status 503) (after 4 attempts)');
		expect(await control(sb).requests({ path: '/v1/affiliates' })).toHaveLength(4);
	}, 15000);
});

describe('continue on fail', () => {
	it('turns each failed input into an error item in its place, with code and status', async () => {
		const h = orchestrationNode({
			sb,
			continueOnFail: true,
			parameters: quoteParams({ recipientAddress: '={{ $json.recipient }}' }),
		});
		const out = await run(h, items(3, (i) => ({ recipient: i === 1 ? 'not-an-address' : ADDR.bitcoin })));
		expect(out[0].quoteId).toEqual(expect.any(String));
		expect(out[2].quoteId).toEqual(expect.any(String));
		expect(out[1]).toMatchObject({ error: expect.stringMatching(/^invalid_address: /), errorCode: 'invalid_address', httpCode: '400' });
	});

	it('on Continue (using error output): the error item holds only error and details, the json n8n moves to the error output', async () => {
		const h = orchestrationNode({
			sb,
			onError: 'continueErrorOutput',
			parameters: quoteParams({ recipientAddress: '={{ $json.recipient }}' }),
		});
		const out = await run(h, items(2, (i) => ({ recipient: i === 1 ? 'not-an-address' : ADDR.bitcoin })));
		expect(out[0].quoteId).toEqual(expect.any(String));
		expect(Object.keys(out[1]).sort()).toEqual(['details', 'error']);
		expect(out[1]).toEqual({
			error: expect.stringMatching(/^invalid_address: /),
			details: { errorCode: 'invalid_address', httpCode: '400', description: expect.any(String) },
		});
	});
});

describe('no key or token in errors', () => {
	let echo: http.Server;
	let echoUrl: string;
	beforeAll(async () => {
		// A misbehaving service that echoes the credentials it received into its error body.
		echo = http.createServer((req, res) => {
			res.statusCode = 400;
			res.setHeader('content-type', 'application/json');
			const seen = `${req.headers.authorization} ${req.headers['x-read-token'] ?? ''}`;
			res.end(JSON.stringify({ error: { code: 'invalid_request', message: `bad request from ${seen}` } }));
		});
		await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
		echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
	});
	afterAll(() => new Promise<void>((r) => echo.close(() => r())));

	it('redacts the API key and the read token even when the service echoes them', async () => {
		const token = 'rt_secret_token_value_123';
		const h = orchestrationNode({
			sb,
			key: CLIENT_ALL,
			baseUrl: echoUrl,
			parameters: { resource: 'order', operation: 'getStatus', id: 'ord_1', readToken: token },
		});
		const error = await runError(h);
		expect(error.message).toBe('invalid_request: bad request from Bearer [redacted] [redacted]');
		const text = serialized(error);
		expect(text).not.toContain(CLIENT_ALL);
		expect(text).not.toContain(token);
	});

	it('redacts a key pasted with surrounding whitespace (the credential sends it trimmed)', async () => {
		const h = orchestrationNode({
			sb,
			key: `${SERVER_KEY} \n`,
			client: false,
			baseUrl: echoUrl,
			parameters: { resource: 'order', operation: 'getStatus', id: 'ord_1' },
		});
		const error = await runError(h);
		expect(error.message).toBe('invalid_request: bad request from Bearer [redacted] ');
		expect(serialized(error)).not.toContain(SERVER_KEY);
	});
});
