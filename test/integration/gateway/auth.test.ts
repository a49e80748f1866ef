/** Credential: challenge and verify round trip, credential test, renewal after 401, secrets kept out. */
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
	type GatewayEnv,
} from '../../harness/gateway';

const OTHER_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

describe('Execution Gateway credential', () => {
	let env: GatewayEnv;
	beforeAll(async () => {
		env = await startGatewayEnv();
	});
	afterAll(async () => {
		await env.close();
	});
	beforeEach(() => {
		env.proxy.requests.length = 0;
	});

	it('credential test: challenge for the derived key, DER signature over SHA-256(challengeString), verify, then an authenticated request', async () => {
		const result = await runCredentialTest(credentialData(env.url, env.signerKey));
		expect(result).toMatchObject({ status: 'OK' });
		expect(result.harness.credentialsHelper.preAuthRuns[CREDENTIAL]).toBe(1);
		expect(env.proxy.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /api/v1/auth/challenge',
			'POST /api/v1/auth/verify',
			'GET /api/v1/network/info',
		]);
		const publicKey = opensslPublicKey(env.signerKey);
		expect(JSON.parse(env.proxy.requests[0].body)).toEqual({ publicKey });
		const { challengeString } = JSON.parse(env.proxy.requests[0].response!) as { challengeString: string };
		const verifyBody = JSON.parse(env.proxy.requests[1].body) as { publicKey: string; signature: string };
		expect(verifyBody.publicKey).toBe(publicKey);
		expect(opensslVerify(challengeString, verifyBody.signature, publicKey)).toBe(true);
		const { accessToken } = JSON.parse(env.proxy.requests[1].response!) as { accessToken: string };
		expect(env.proxy.requests[2].headers.authorization).toBe(`Bearer ${accessToken}`);
		expect(result.harness.credentialsHelper.store[CREDENTIAL]).toMatchObject({ accessToken, accessTokenPublicKey: publicKey });
	});

	it.each([
		['too short', 'abcd'],
		['not hex', 'zz'.repeat(32)],
		['zero (out of range)', '00'.repeat(32)],
		['the curve order (out of range)', 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'],
	])('credential test: a malformed key (%s) fails with a message naming the field, nothing sent', async (_name, key) => {
		const result = await runCredentialTest(credentialData(env.url, key));
		expect(result.status).toBe('Error');
		expect(result.message).toContain('"Private Key"');
		expect(result.message).not.toContain(key);
		expect(env.proxy.requests).toEqual([]);
	});

	it('credential test: a URL that is not a gateway fails at the challenge', async () => {
		const result = await runCredentialTest(credentialData(`${env.url}/elsewhere`, env.signerKey));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/authentication failed at the challenge: not_found/);
		expect(result.message).not.toContain(env.signerKey);
	});

	it('authenticates once, then renews the token after the gateway expires it (401)', async () => {
		const sparkTransferId = btcTransferId();
		await env.registerTransfer({ sparkTransferId, amount: '5000' });
		const h = gatewayHarness(env, depositParams([{ sparkTransferId, amount: '5000' }]));
		const [submitted] = await run(h);
		expect(submitted.status).toBe('ACCEPTED');
		expect(h.credentialsHelper.preAuthRuns[CREDENTIAL]).toBe(1);
		const firstToken = h.credentialsHelper.store[CREDENTIAL].accessToken;

		await env.control('POST', '/sandbox/tokens/expire');
		env.proxy.requests.length = 0;
		h.node.parameters = { resource: 'intent', operation: 'get', submissionId: submitted.submissionId as string, options: {} };
		const [status] = await run(h);
		expect(status.submissionId).toBe(submitted.submissionId);
		expect(h.credentialsHelper.preAuthRuns[CREDENTIAL]).toBe(2);
		expect(h.credentialsHelper.store[CREDENTIAL].accessToken).not.toBe(firstToken);
		const lookups = env.proxy.to(`/api/v1/intents/${submitted.submissionId}`);
		expect(lookups.length).toBeGreaterThanOrEqual(2);
		expect(env.proxy.to('/api/v1/auth/verify')).toHaveLength(1);
	});

	it('a token issued for a previous key is not used after the key changes: the node re-authenticates as the new key', async () => {
		const h = gatewayHarness(env, { resource: 'intent', operation: 'get', submissionId: 'unknown-id', options: {} }, { continueOnFail: true });
		await run(h);
		expect(h.credentialsHelper.preAuthRuns[CREDENTIAL]).toBe(1);
		h.credentialsHelper.store[CREDENTIAL].privateKey = OTHER_KEY;
		const sparkTransferId = btcTransferId();
		await env.registerTransfer({ sparkTransferId });
		h.node.parameters = depositParams([{ sparkTransferId, amount: '2000' }]);
		const [out] = await run(h);
		expect(out.status).toBe('ACCEPTED');
		expect(out.signerPublicKey).toBe(opensslPublicKey(OTHER_KEY));
		expect(h.credentialsHelper.preAuthRuns[CREDENTIAL]).toBe(2);
		expect(h.credentialsHelper.store[CREDENTIAL].accessTokenPublicKey).toBe(opensslPublicKey(OTHER_KEY));
	});

	it('network info and health need no authentication: they work with a malformed key', async () => {
		const h = gatewayHarness(env, { resource: 'network', operation: 'getHealth' }, { privateKey: 'not-a-key' });
		expect(await run(h)).toEqual([{ healthy: true, status: 'ok' }]);
		h.node.parameters = { resource: 'network', operation: 'getInfo', options: { forceRefresh: true } };
		const [info] = await run(h);
		expect(info.execution).toMatchObject({ chainId: env.sb.keys.gateway.chainId });
		expect(h.credentialsHelper.preAuthRuns[CREDENTIAL]).toBeUndefined();
		// precondition: both calls went through the proxy
		expect(env.proxy.requests.map((r) => r.path.split('?')[0])).toEqual(expect.arrayContaining(['/api/v1/health', '/api/v1/network/info']));
		expect(env.proxy.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
	});

	it('a malformed key fails the intent with a message naming the field, never the key', async () => {
		const key = `0x${'ab'.repeat(31)}`;
		const h = gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '2000' }]), { privateKey: key });
		const error = await runError(h);
		expect(error.message).toContain('"Private Key" is invalid');
		expect(JSON.stringify({ m: error.message, d: error.description })).not.toContain(key.slice(2));
		expect(env.proxy.to('/api/v1/execute')).toEqual([]);
	});

	it('neither the private key nor the access token appears in outputs or error texts', async () => {
		const texts: string[] = [];
		const sparkTransferId = btcTransferId();
		await env.registerTransfer({ sparkTransferId });
		const h = gatewayHarness(env, depositParams([{ sparkTransferId, amount: '2000' }], { options: { nonce: `secret-test-${sparkTransferId}` } }), {
			continueOnFail: true,
		});
		texts.push(JSON.stringify(await run(h)));
		// The same nonce again: a gateway rejection (409) as an error item.
		texts.push(JSON.stringify(await run(h)));
		h.node.continueOnFail = false;
		const error = await runError(h);
		texts.push(JSON.stringify({ message: error.message, description: error.description, stack: error.stack }));
		const token = h.credentialsHelper.store[CREDENTIAL].accessToken as string;
		expect(token).toMatch(/^gwt_/);
		for (const t of texts) {
			expect(t).not.toContain(env.signerKey);
			expect(t).not.toContain(token);
		}
		expect(texts[1]).toContain('nonce_replayed');
	});
});
