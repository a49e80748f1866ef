/**
 * Issue 14 point 1 over HTTP: the credential is no signing oracle (a hostile gateway's intent-shaped
 * challenge is refused, nothing signed), the access token goes only to the URL it was issued for,
 * and keys travel only over https (loopback excepted), refused before any request.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { ExecutionGatewayApi } from '../../../credentials/ExecutionGatewayApi.credentials';
import { clearNetworkInfoCache } from '../../../nodes/ExecutionGateway/helpers/gateway';
import {
	btcTransferId,
	CREDENTIAL,
	credentialData,
	depositParams,
	gatewayHarness,
	opensslPublicKey,
	opensslVerify,
	run,
	runCredentialTest,
	runError,
	startGatewayEnv,
	startRecordingProxy,
	type GatewayEnv,
	type RecordingProxy,
} from '../../harness/gateway';

// Written from execution-gateway.md §2.4 by hand: what a hostile "gateway" would want signed.
const CANONICAL_INTENT =
	'{"chainId":1,"transfers":[{"transferId":"0123456789abcdef0123456789abcdef","amountSats":100000,"assetType":"NativeSats"}],"action":{"type":"deposit","recipient":"0x00000000000000000000000000000000000bad00"},"nonce":"steal-1","expiresAt":1900000000000}';

interface HostileGateway {
	url: string;
	/** Paths asked, in order. */
	calls: string[];
	/** Bodies posted to /api/v1/auth/verify (a signature would be here). */
	verifyBodies: string[];
	setChallenge(body: Record<string, unknown>): void;
	/** `execution.chainId` of its network info. */
	setChainId(chainId: unknown): void;
	close(): Promise<void>;
}

/** A sandbox-like gateway that answers the challenge with whatever it is told and accepts any signature. */
async function startHostileGateway(): Promise<HostileGateway> {
	const calls: string[] = [];
	const verifyBodies: string[] = [];
	let challenge: Record<string, unknown> = {};
	let chainId: unknown = 3637;
	const server = http.createServer(async (req, res) => {
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const body = Buffer.concat(chunks).toString('utf8');
		calls.push(`${req.method} ${req.url}`);
		res.setHeader('content-type', 'application/json');
		if (req.url === '/api/v1/auth/challenge') return res.end(JSON.stringify(challenge));
		if (req.url?.startsWith('/api/v1/network/info')) {
			const info = { spark: { depositAddress: 'sprt1hostile', network: 'regtest' }, execution: { contractAddress: '0x' + '11'.repeat(20), chainId }, paused: false, minDepositSats: 1 };
			return res.end(JSON.stringify(info));
		}
		if (req.url === '/api/v1/auth/verify') {
			verifyBodies.push(body);
			return res.end(JSON.stringify({ accessToken: 'hostile-token' }));
		}
		if (req.url?.startsWith('/api/v1/intents/')) {
			if (req.headers.authorization !== 'Bearer hostile-token') {
				res.statusCode = 401;
				return res.end('{"error":{"code":"unauthorized","message":"no token"}}');
			}
			const now = new Date().toISOString();
			return res.end(JSON.stringify({ submissionId: 's1', intentId: '0x01', status: 'ACCEPTED', createdAt: now, updatedAt: now }));
		}
		res.statusCode = 404;
		return res.end('{}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		calls,
		verifyBodies,
		setChallenge: (b) => {
			challenge = b;
		},
		setChainId: (c) => {
			chainId = c;
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

describe('Execution Gateway credential security', () => {
	let env: GatewayEnv;
	let hostile: HostileGateway;
	beforeAll(async () => {
		env = await startGatewayEnv();
		hostile = await startHostileGateway();
	});
	afterAll(async () => {
		await hostile.close();
		await env.close();
	});
	beforeEach(() => {
		env.proxy.reset();
		hostile.calls.length = 0;
		hostile.verifyBodies.length = 0;
	});

	describe('no signing oracle', () => {
		it.each([
			['a canonical intent', { challenge: 'x', challengeString: CANONICAL_INTENT }, /shape of a canonical intent/],
			['a canonical intent as `challenge` only', { challenge: CANONICAL_INTENT }, /shape of a canonical intent/],
			['a JSON object', { challenge: 'x', challengeString: '{"any":"object"}' }, /JSON object/],
			['a JSON array', { challenge: 'x', challengeString: '["a"]' }, /JSON array/],
			// Issue 20: a 32-byte digest of another system that is valid UTF-8 (here a control byte and é).
			['a 32-byte digest that is valid UTF-8', { challengeString: Buffer.from('01c3a9'.padEnd(64, '41'), 'hex').toString('utf8') }, /outside printable ASCII.*U\+0001 at position 1/],
			['1,025 characters', { challengeString: 'a'.repeat(1025) }, /1025 characters, more than the 1024/],
		])('a challenge that is %s is refused by the node: nothing signed, nothing sent to verify', async (_name, challenge, reason) => {
			hostile.setChallenge(challenge);
			const h = gatewayHarness({ url: hostile.url, signerKey: env.signerKey }, { resource: 'intent', operation: 'get', submissionId: 's1', options: {} });
			const error = await runError(h);
			expect(error.message).toMatch(/authentication refused/);
			expect(error.message).toMatch(reason);
			expect(hostile.calls).toEqual(['POST /api/v1/auth/challenge']);
			expect(hostile.verifyBodies).toEqual([]);
		});

		it('the credential test refuses the same challenge and says why', async () => {
			hostile.setChallenge({ challenge: 'x', challengeString: CANONICAL_INTENT });
			const result = await runCredentialTest(credentialData(hostile.url, env.signerKey));
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/authentication refused: the challenge has the shape of a canonical intent/);
			expect(hostile.verifyBodies).toEqual([]);
		});

		it('an ordinary text challenge is signed as is, from `challenge` when there is no challengeString', async () => {
			const text = 'gateway login 7f3a\nissued 2030-01-01';
			hostile.setChallenge({ challenge: text });
			const [out] = await run(gatewayHarness({ url: hostile.url, signerKey: env.signerKey }, { resource: 'intent', operation: 'get', submissionId: 's1', options: {} }));
			expect(out.status).toBe('ACCEPTED');
			const { signature, publicKey } = JSON.parse(hostile.verifyBodies[0]) as { signature: string; publicKey: string };
			expect(publicKey).toBe(opensslPublicKey(env.signerKey));
			expect(opensslVerify(text, signature, publicKey)).toBe(true);
		});
	});

	describe('network info chainId (issue 20)', () => {
		const execute = () =>
			runError(gatewayHarness({ url: hostile.url, signerKey: env.signerKey }, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }])));
		beforeEach(() => {
			clearNetworkInfoCache();
			hostile.setChallenge({ challengeString: 'gateway login 7f3a' });
		});
		afterAll(() => hostile.setChainId(3637));

		it.each([0, -1, 1.5, 2 ** 53, '1', null])('a gateway answering chainId %p gets nothing signed or sent', async (chainId) => {
			hostile.setChainId(chainId);
			const error = await execute();
			expect(error.message).toMatch(/network info is not the §2.3a shape \(execution\.chainId: /);
			expect(hostile.calls).toEqual(['GET /api/v1/network/info']);
			expect(hostile.verifyBodies).toEqual([]);
		});

		it('a positive chainId goes on to sign and submit (the check above is what stops it)', async () => {
			hostile.setChainId(3637);
			await execute();
			expect(hostile.calls).toContain('POST /api/v1/execute');
		});
	});

	describe('the token is bound to the URL it was issued for', () => {
		let other: RecordingProxy;
		beforeAll(async () => {
			// A second door to the same sandbox: the old token would be accepted there, so only the binding stops it.
			other = await startRecordingProxy(env.sb.gatewayUrl);
		});
		afterAll(() => other.close());

		it('after the Gateway URL changes, the old token is never sent to the new URL: the node re-authenticates there', async () => {
			const sparkTransferId = btcTransferId();
			await env.registerTransfer({ sparkTransferId, amount: '3000' });
			const h = gatewayHarness(env, depositParams([{ sparkTransferId, amount: '3000' }]));
			const [submitted] = await run(h);
			const tokenA = String(h.credentialsHelper.store[CREDENTIAL].accessToken);
			expect(h.credentialsHelper.store[CREDENTIAL].accessTokenGatewayUrl).toBe(env.url);

			h.credentialsHelper.store[CREDENTIAL].gatewayUrl = `${other.url}/`;
			h.node.parameters = { resource: 'intent', operation: 'get', submissionId: submitted.submissionId as string, options: {} };
			const [status] = await run(h);
			expect(status.submissionId).toBe(submitted.submissionId);
			expect(other.requests.every((r) => r.headers.authorization !== `Bearer ${tokenA}`)).toBe(true);
			expect(other.requests.some((r) => r.body.includes(tokenA))).toBe(false);
			expect(other.to('/api/v1/auth/verify')).toHaveLength(1);
			expect(h.credentialsHelper.store[CREDENTIAL]).toMatchObject({ accessTokenGatewayUrl: other.url });
			expect(h.credentialsHelper.store[CREDENTIAL].accessToken).not.toBe(tokenA);
		});

		it('a request outside the bound URL (the credential used by another node) gets no token', async () => {
			const credential = new ExecutionGatewayApi();
			const data = { ...credentialData(env.url, env.signerKey), accessToken: 'tok', accessTokenPublicKey: opensslPublicKey(env.signerKey), accessTokenGatewayUrl: env.url };
			const inside = await credential.authenticate(data, { url: `${env.url}/api/v1/intents/x` });
			expect(inside.headers).toEqual({ Authorization: 'Bearer tok' });
			for (const url of ['https://collector.example/api', `${env.url}.evil.example/api`, 'http://127.0.0.2:1/x']) {
				expect((await credential.authenticate(data, { url })).headers).toBeUndefined();
			}
		});

		it('a request that sets Host or Authorization itself gets no token: it is refused', async () => {
			const credential = new ExecutionGatewayApi();
			const data = { ...credentialData(env.url, env.signerKey), accessToken: 'tok', accessTokenPublicKey: opensslPublicKey(env.signerKey), accessTokenGatewayUrl: env.url };
			for (const headers of [{ Host: 'tenant-b.example' }, { authorization: 'Bearer mine' }, { 'X-Forwarded-Host': 'tenant-b.example' }]) {
				await expect(credential.authenticate(data, { url: `${env.url}/api/v1/intents/x`, headers })).rejects.toThrow(/refused to add its key to a request that sets/);
			}
		});
	});

	describe('https only (loopback excepted)', () => {
		it('the node refuses an http:// Gateway URL before any request, for every operation', async () => {
			for (const parameters of [
				{ resource: 'network', operation: 'getInfo', options: {} },
				{ resource: 'intent', operation: 'get', submissionId: 's1', options: {} },
				depositParams([{ sparkTransferId: btcTransferId(), amount: '1000' }]),
			]) {
				const error = await runError(gatewayHarness({ url: 'http://gateway.example', signerKey: env.signerKey }, parameters));
				expect(error.message).toMatch(/"Gateway URL" is refused: it must start with https:\/\//);
				expect(error.message).not.toMatch(/ENOTFOUND|EAI_AGAIN/);
			}
		});

		it('the credential test says why it refuses an http:// Gateway URL', async () => {
			const result = await runCredentialTest(credentialData('http://gateway.example', env.signerKey));
			expect(result.status).toBe('Error');
			expect(result.message).toBe(
				'Execution Gateway credential: "Gateway URL" is refused: it must start with https:// (plain http:// is allowed only for loopback addresses: localhost, 127.0.0.0/8, ::1), so keys and tokens never travel unencrypted',
			);
		});

		it('the credential itself refuses to authenticate a request to an http:// Gateway URL', async () => {
			const credential = new ExecutionGatewayApi();
			await expect(credential.authenticate(credentialData('http://gateway.example', env.signerKey), { url: 'http://gateway.example/api/v1/execute' })).rejects.toThrow(/https:\/\//);
		});

		it('localhost over http works (the sandbox)', async () => {
			const url = env.url.replace('127.0.0.1', 'localhost');
			const [info] = await run(gatewayHarness({ url, signerKey: env.signerKey }, { resource: 'network', operation: 'getInfo', options: { forceRefresh: true } }));
			expect(typeof info.minDepositSats).toBe('number');
		});
	});
});
