/**
 * The shared transport as the gateway node sees it: the repeated call after a 401 renewal is an
 * ordinary answer (code, message, hint, Retry-After, retries), and error bodies of any shape
 * surface their text, cut and without secrets, with the HTTP status (issue 10).
 */
import type { IDataObject } from 'n8n-workflow';

import { ERROR_TEXT_CHARS } from '../../../nodes/n8n/errors';
import { btcTransferId, CREDENTIAL, depositParams, gatewayHarness, run, runError, startGatewayEnv, type GatewayEnv } from '../../harness/gateway';

const INTENT_ROUTE = '/api/v1/intents/:submissionId';

describe('Execution Gateway transport', () => {
	let env: GatewayEnv;
	let submissionId: string;
	beforeAll(async () => {
		env = await startGatewayEnv();
		const sparkTransferId = btcTransferId();
		await env.registerTransfer({ sparkTransferId, amount: '5000' });
		const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId, amount: '5000' }])));
		submissionId = out.submissionId as string;
	});
	afterAll(async () => {
		await env.close();
	});
	beforeEach(() => {
		env.sb.gatewayFaults.clear();
		env.proxy.reset();
	});

	const getParams = (id: string) => ({ resource: 'intent', operation: 'get', submissionId: id, options: {} });

	/** A node holding a token that the gateway has since expired: its next call meets a 401. */
	const withExpiredToken = async (parameters: IDataObject) => {
		const h = gatewayHarness(env, getParams(submissionId));
		await run(h);
		h.node.parameters = parameters as typeof h.node.parameters;
		await env.control('POST', '/sandbox/tokens/expire');
		env.proxy.reset();
		return h;
	};

	describe('the repeated call after a 401 renewal', () => {
		it('keeps the code, message and hint of its error (was a bare HTTP 404)', async () => {
			const h = await withExpiredToken(getParams('no-such-submission'));
			const error = await runError(h);
			expect(error.message).toMatch(/^not_found: /);
			expect(error.httpCode).toBe('404');
			expect(error.errorCode).toBe('not_found');
			expect(error.description).toBe('No intent with this submission id exists for this keypair.');
			expect(h.credentialsHelper.preAuthRuns[CREDENTIAL]).toBe(2);
			expect(env.proxy.to('/api/v1/intents/no-such-submission').map((r) => r.status)).toEqual([401, 401, 404]);
		});

		it('keeps a 409 admission code of execute after the renewal', async () => {
			const sparkTransferId = btcTransferId();
			await env.registerTransfer({ sparkTransferId, amount: '4000' });
			await run(gatewayHarness(env, depositParams([{ sparkTransferId, amount: '4000' }])));
			const h = await withExpiredToken(depositParams([{ sparkTransferId, amount: '4000' }]));
			const error = await runError(h);
			expect(env.proxy.to('/api/v1/execute').map((r) => r.status)).toEqual([401, 401, 409]);
			expect(error.errorCode).toBe('transfer_already_claimed');
			expect(error.message).toMatch(/^transfer_already_claimed: /);
			expect(error.httpCode).toBe('409');
			expect(error.description).toMatch(/funds at most one intent/);
		});

		it('is retried after a 503 with Retry-After, with the renewed token', async () => {
			const h = await withExpiredToken(getParams(submissionId));
			// 1st: 401 (expired), 2nd: 401 seen by n8n, renewal, 3rd: the repeat gets the 503.
			env.sb.gatewayFaults.add({ method: 'GET', path: INTENT_ROUTE, mode: 'status', status: 503, retryAfterSeconds: 1, skip: 2, times: 1 });
			const [out] = await run(h);
			expect(out.submissionId).toBe(submissionId);
			const lookups = env.proxy.to(`/api/v1/intents/${submissionId}`);
			expect(lookups.map((r) => r.status)).toEqual([401, 401, 503, 200]);
			const renewed = `Bearer ${String(h.credentialsHelper.store[CREDENTIAL].accessToken)}`;
			expect(lookups[2].headers.authorization).toBe(renewed);
			expect(lookups[3].headers.authorization).toBe(renewed);
		});

		it('honours a Retry-After beyond the budget by failing at once with the code and hint', async () => {
			const h = await withExpiredToken(getParams(submissionId));
			env.sb.gatewayFaults.add({ method: 'GET', path: INTENT_ROUTE, mode: 'status', status: 429, code: 'rate_limited', retryAfterSeconds: 600, skip: 2, times: 'always' });
			const error = await runError(h);
			expect(error.errorCode).toBe('rate_limited');
			expect(error.httpCode).toBe('429');
			expect(error.description).toMatch(/Rate limit reached/);
			expect(env.proxy.to(`/api/v1/intents/${submissionId}`)).toHaveLength(3);
		});
	});

	describe('error bodies of any shape', () => {
		const failWith = async (body: string, contentType: string, status = 400): Promise<Error & IDataObject> => {
			env.sb.gatewayFaults.add({ method: 'GET', path: INTENT_ROUTE, mode: 'status', status, body, contentType, times: 'always' });
			return await runError(gatewayHarness(env, getParams(submissionId)));
		};

		it.each([
			['JSON without error.code (message)', '{"message":"quota exceeded"}', 'application/json', 'HTTP 400: quota exceeded'],
			['JSON with a string error', '{"error":"bad thing happened"}', 'application/json', 'HTTP 400: bad thing happened'],
			['JSON without any message field', '{"reason":{"x":1}}', 'application/json', 'HTTP 400: {"reason":{"x":1}}'],
			['plain text', 'upstream said no', 'text/plain', 'HTTP 400: upstream said no'],
			[
				'HTML',
				'<html><head><title>400 Bad Request</title><style>h1{color:red}</style></head><body><h1>Bad   Request</h1></body></html>',
				'text/html',
				'HTTP 400: 400 Bad Request Bad Request',
			],
			['empty', '', 'text/plain', 'HTTP 400 (empty body)'],
		])('%s: its text and the HTTP status', async (_name, body, contentType, message) => {
			const error = await failWith(body, contentType);
			expect(error.message).toBe(message);
			expect(error.httpCode).toBe('400');
		});

		it('a long body is cut, and echoed secrets (private key, access token) are removed', async () => {
			const h = gatewayHarness(env, getParams(submissionId));
			await run(h);
			const token = String(h.credentialsHelper.store[CREDENTIAL].accessToken);
			env.sb.gatewayFaults.add({
				method: 'GET',
				path: INTENT_ROUTE,
				mode: 'status',
				status: 400,
				body: `key ${env.signerKey.toUpperCase()} token ${encodeURIComponent(token)} ${'x'.repeat(5000)}`,
				times: 'always',
			});
			const error = await runError(h);
			expect(error.message).toMatch(/^HTTP 400: key \[redacted\] token \[redacted\] x+…$/);
			expect(error.message.length).toBeLessThanOrEqual('HTTP 400: '.length + ERROR_TEXT_CHARS + 1);
			const text = JSON.stringify({ m: error.message, d: error.description, r: (error as IDataObject).errorResponse });
			expect(text.toLowerCase()).not.toContain(env.signerKey.toLowerCase());
			expect(text).not.toContain(token.slice(4, 20));
		});
	});
});
