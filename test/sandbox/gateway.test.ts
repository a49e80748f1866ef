/**
 * The gateway emulator over real HTTP (execution-gateway.md §3-§8): real secp256k1 signatures,
 * real EIP-1559 transactions, the clock's time scale keeping the lifecycle fast.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

import {
	decodeSignedEip1559,
	ExecuteResponseSchema,
	IntentStatusSchema,
	NetworkInfoSchema,
	parseRevertLine,
	publicKeyFromPrivateKey,
	serializeWireIntent,
	signChallenge,
	signEip1559,
	signIntent,
	VerifyResponseSchema,
	type IntentStatusResponse,
	type WireIntent,
} from '../../nodes/shared/gateway';
import { ChallengeResponseSchema, GatewayErrorBodySchema } from '../../sandbox/gateway/wireSchemas';
import { SandboxClock } from '../../sandbox/clock';
import { buildGatewayApp, type GatewayApp, type GatewayAppOptions } from '../../sandbox/gateway/app';
import { errorRevertCalldata, panicRevertCalldata } from '../../sandbox/gateway/markers';

const KEY_A = '1111111111111111111111111111111111111111111111111111111111111111';
const KEY_B = '2222222222222222222222222222222222222222222222222222222222222222';
const CHAIN_ID = 3637;
const RECIPIENT = '0x52908400098527886e0f7030069857d2e4169ee7';
const U64_MAX = '18446744073709551615';

interface Server {
	base: string;
	gw: GatewayApp;
}

const servers: Server[] = [];

async function start(opts: Partial<GatewayAppOptions> = {}): Promise<Server> {
	const gw = await buildGatewayApp({ clock: new SandboxClock(100), ...opts });
	await gw.app.listen({ host: '127.0.0.1', port: 0 });
	const { port } = gw.app.server.address() as AddressInfo;
	const server = { base: `http://127.0.0.1:${port}`, gw };
	servers.push(server);
	return server;
}

afterAll(async () => {
	await Promise.all(servers.map((s) => s.gw.close()));
});

type Json = Record<string, unknown>;

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
	const headers: Record<string, string> = {};
	if (body !== undefined) headers['content-type'] = 'application/json';
	if (token) headers.authorization = `Bearer ${token}`;
	const res = await fetch(`${base}${path}`, {
		method,
		headers,
		body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
	});
	const text = await res.text();
	return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json, text };
}

async function authenticate(base: string, key: string): Promise<string> {
	const publicKey = publicKeyFromPrivateKey(key);
	const challenge = ChallengeResponseSchema.parse((await call(base, 'POST', '/api/v1/auth/challenge', { publicKey })).body);
	const verified = await call(base, 'POST', '/api/v1/auth/verify', { publicKey, signature: signChallenge(challenge.challengeString, key) });
	expect(verified.status).toBe(200);
	return VerifyResponseSchema.parse(verified.body).accessToken;
}

const btcId = () => randomBytes(16).toString('hex');
const tokenTransferId = () => randomBytes(32).toString('hex');
const TOKEN_ID = 'cd'.repeat(32);
let nonceCounter = 0;
const nextNonce = () => `nonce-${Date.now()}-${nonceCounter++}`;

function depositIntent(overrides: Partial<WireIntent> = {}): WireIntent {
	return {
		chainId: CHAIN_ID,
		deposits: [{ sparkTransferId: btcId(), asset: { type: 'btc' }, amount: '50000' }],
		recipient: RECIPIENT,
		nonce: nextNonce(),
		expiresAt: Date.now() + 10 * 60_000,
		...overrides,
	};
}

function evmTx(key: string, data = '0x', chainId = CHAIN_ID): string {
	return signEip1559(
		{ chainId, nonce: 0, maxPriorityFeePerGas: 1_000_000_000n, maxFeePerGas: 2_000_000_000n, gasLimit: 200_000, to: `0x${'42'.repeat(20)}`, value: 0n, data },
		key,
	);
}

function executeIntent(key: string, data = '0x', overrides: Partial<WireIntent> = {}): WireIntent {
	return depositIntent({ recipient: undefined, evmTransaction: evmTx(key, data), ...overrides });
}

/** Signs with `key` and posts the exact wire body (u64 amounts as JSON integers). */
async function submit(base: string, token: string, intent: WireIntent, key: string) {
	const { signature } = signIntent(intent, key);
	return call(base, 'POST', '/api/v1/execute', serializeWireIntent({ ...intent, signature }), token);
}

async function registerTransfers(base: string, intent: WireIntent): Promise<void> {
	for (const d of intent.deposits) {
		const res = await call(base, 'POST', '/sandbox/transfers', {
			sparkTransferId: d.sparkTransferId,
			assetType: d.asset.type,
			tokenId: d.asset.type === 'token' ? d.asset.tokenId : undefined,
			amount: d.amount.toString(),
		});
		expect(res.status).toBe(201);
	}
}

async function waitForFinal(base: string, token: string, submissionId: string, timeoutMs = 5000): Promise<IntentStatusResponse> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await call(base, 'GET', `/api/v1/intents/${submissionId}`, undefined, token);
		expect(res.status).toBe(200);
		const status = IntentStatusSchema.parse(res.body);
		if (status.status === 'FINALIZED' || status.status === 'EXPIRED') return status;
		if (Date.now() > deadline) throw new Error(`intent ${submissionId} still ${status.status}`);
		await new Promise((r) => setTimeout(r, 10));
	}
}

function expectError(res: { status: number; body: Json }, status: number, code: string): void {
	expect({ status: res.status, code: GatewayErrorBodySchema.parse(res.body).error.code }).toEqual({ status, code });
	expect(GatewayErrorBodySchema.parse(res.body).error.message.length).toBeGreaterThan(10);
}

describe('discovery and health', () => {
	it('serves network info (§2.3a), with forceRefresh=1 accepted, and health', async () => {
		const { base } = await start({ minDepositSats: 2500 });
		for (const path of ['/api/v1/network/info', '/api/v1/network/info?forceRefresh=1']) {
			const res = await call(base, 'GET', path);
			expect(res.status).toBe(200);
			const info = NetworkInfoSchema.parse(res.body);
			expect(info).toMatchObject({ execution: { chainId: CHAIN_ID }, paused: false, minDepositSats: 2500 });
			expect(info.spark.depositAddress.length).toBeGreaterThan(0);
		}
		expect((await call(base, 'GET', '/api/v1/health')).body).toEqual({ status: 'ok' });
		expectError(await call(base, 'GET', '/api/v1/nope'), 404, 'not_found');
	});
});

describe('authentication (§4, §5)', () => {
	let server: Server;
	beforeAll(async () => {
		server = await start();
	});

	it('exchanges a real signature for a token, single use per challenge', async () => {
		const publicKey = publicKeyFromPrivateKey(KEY_A);
		const challenge = (await call(server.base, 'POST', '/api/v1/auth/challenge', { publicKey })).body as { challengeString: string; challenge: string };
		expect(challenge.challengeString).toContain(challenge.challenge);
		const signature = signChallenge(challenge.challengeString, KEY_A);
		const first = await call(server.base, 'POST', '/api/v1/auth/verify', { publicKey, signature });
		expect(first.status).toBe(200);
		expect(VerifyResponseSchema.parse(first.body).accessToken).toMatch(/^gwt_/);
		// The challenge is consumed: the same signature cannot mint a second token.
		expectError(await call(server.base, 'POST', '/api/v1/auth/verify', { publicKey, signature }), 401, 'challenge_not_found');
	});

	it('rejects a signature by another key, over another string, or malformed', async () => {
		const publicKey = publicKeyFromPrivateKey(KEY_A);
		const { challengeString } = (await call(server.base, 'POST', '/api/v1/auth/challenge', { publicKey })).body as { challengeString: string };
		for (const signature of [signChallenge(challengeString, KEY_B), signChallenge(`${challengeString}x`, KEY_A), 'zz', '3006020101020101']) {
			expectError(await call(server.base, 'POST', '/api/v1/auth/verify', { publicKey, signature }), 401, 'invalid_signature');
		}
		// Still usable with the right signature after failed attempts.
		expect((await call(server.base, 'POST', '/api/v1/auth/verify', { publicKey, signature: signChallenge(challengeString, KEY_A) })).status).toBe(200);
	});

	it('rejects malformed public keys', async () => {
		for (const publicKey of ['02abc', `04${'ab'.repeat(32)}`, `0x${publicKeyFromPrivateKey(KEY_A)}`, 5]) {
			expectError(await call(server.base, 'POST', '/api/v1/auth/challenge', { publicKey }), 400, 'invalid_public_key');
		}
	});

	it('answers 401 without, with an unknown, and with an expired-by-control token', async () => {
		const intent = depositIntent();
		const body = serializeWireIntent({ ...intent, signature: signIntent(intent, KEY_A).signature });
		expectError(await call(server.base, 'POST', '/api/v1/execute', body), 401, 'unauthorized');
		expectError(await call(server.base, 'POST', '/api/v1/execute', body, 'gwt_nope'), 401, 'unauthorized');
		const token = await authenticate(server.base, KEY_A);
		expect((await call(server.base, 'POST', '/sandbox/tokens/expire')).status).toBe(200);
		expectError(await call(server.base, 'POST', '/api/v1/execute', body, token), 401, 'token_expired');
	});

	it('expires tokens after tokenTtlMs scaled by the clock', async () => {
		// 300 s of spec time at 100x is 3 s: room for a loaded machine between the two first calls.
		const { base } = await start({ tokenTtlMs: 300_000 });
		const token = await authenticate(base, KEY_A);
		const issuedBy = Date.now();
		expectError(await call(base, 'GET', '/api/v1/intents/unknown', undefined, token), 404, 'not_found');
		await new Promise((r) => setTimeout(r, issuedBy + 3100 - Date.now()));
		expectError(await call(base, 'GET', '/api/v1/intents/unknown', undefined, token), 401, 'token_expired');
	});
});

describe('admission checks (§2.1, §7, §8)', () => {
	let server: Server;
	let token: string;
	beforeAll(async () => {
		server = await start({ autoAdvance: false, minDepositSats: 1000 });
		token = await authenticate(server.base, KEY_A);
	});
	const post = (intent: WireIntent, key = KEY_A) => submit(server.base, token, intent, key);
	const postRaw = (body: string) => call(server.base, 'POST', '/api/v1/execute', body, token);

	it('accepts a valid deposit intent', async () => {
		const res = await post(depositIntent());
		expect(res.status).toBe(200);
		const accepted = ExecuteResponseSchema.parse(res.body);
		expect(accepted.status).toBe('ACCEPTED');
		expect(accepted.intentId).toMatch(/^0x[0-9a-f]{64}$/);
	});

	it('chain_id_mismatch', async () => {
		expectError(await post(depositIntent({ chainId: 1 })), 400, 'chain_id_mismatch');
	});

	it('invalid_expires_at: past and more than 24 h ahead', async () => {
		expectError(await post(depositIntent({ expiresAt: Date.now() - 1000 })), 400, 'invalid_expires_at');
		expectError(await post(depositIntent({ expiresAt: Date.now() + 24 * 3600_000 + 60_000 })), 400, 'invalid_expires_at');
	});

	it('nonce_replayed (409) for the same signer, allowed for another signer', async () => {
		const nonce = nextNonce();
		expect((await post(depositIntent({ nonce }))).status).toBe(200);
		expectError(await post(depositIntent({ nonce })), 409, 'nonce_replayed');
		const tokenB = await authenticate(server.base, KEY_B);
		expect((await submit(server.base, tokenB, depositIntent({ nonce }), KEY_B)).status).toBe(200);
	});

	it('invalid_action: both or neither of recipient and evmTransaction', async () => {
		const both = { ...depositIntent(), evmTransaction: evmTx(KEY_A) };
		expectError(await postRaw(serializeWireIntent({ ...both, signature: '3006020101020101' })), 400, 'invalid_action');
		const neither = { ...depositIntent(), recipient: undefined };
		expectError(await postRaw(serializeWireIntent({ ...neither, signature: '3006020101020101' })), 400, 'invalid_action');
	});

	it('invalid_recipient', async () => {
		const intent = { ...depositIntent(), recipient: '0x1234' };
		expectError(await postRaw(serializeWireIntent({ ...intent, signature: 'aa' })), 400, 'invalid_recipient');
	});

	it('invalid_evm_transaction: garbage, unsigned, wrong type, wrong chain', async () => {
		const signed = evmTx(KEY_A);
		const unsigned = `0x02${'c9'}01${'80'.repeat(8)}`;
		for (const evmTransaction of ['0xzz', unsigned, `0x01${signed.slice(4)}`, signed.slice(0, -4), evmTx(KEY_A, '0x', 1)]) {
			const intent = { ...depositIntent(), recipient: undefined, evmTransaction };
			expectError(await postRaw(serializeWireIntent({ ...intent, signature: 'aa' })), 400, 'invalid_evm_transaction');
		}
	});

	it('invalid_signature: another key, a tampered field, missing, not DER', async () => {
		expectError(await post(depositIntent(), KEY_B), 400, 'invalid_signature');
		const intent = depositIntent();
		const { signature } = signIntent(intent, KEY_A);
		const tampered = { ...intent, deposits: [{ ...intent.deposits[0], amount: '50001' }], signature };
		expectError(await postRaw(serializeWireIntent(tampered)), 400, 'invalid_signature');
		const body = JSON.parse(serializeWireIntent({ ...intent, signature })) as Json;
		delete body.signature;
		expectError(await postRaw(JSON.stringify(body)), 400, 'invalid_signature');
		expectError(await postRaw(serializeWireIntent({ ...intent, signature: 'nothex' })), 400, 'invalid_signature');
	});

	it('invalid_transfer_id by asset type and invalid_token_id', async () => {
		const btcLong = depositIntent({ deposits: [{ sparkTransferId: tokenTransferId(), asset: { type: 'btc' }, amount: '5000' }] });
		expectError(await postRaw(serializeWireIntent({ ...btcLong, signature: 'aa' })), 400, 'invalid_transfer_id');
		const tokenShort = depositIntent({ deposits: [{ sparkTransferId: btcId(), asset: { type: 'token', tokenId: TOKEN_ID }, amount: '5' }] });
		expectError(await postRaw(serializeWireIntent({ ...tokenShort, signature: 'aa' })), 400, 'invalid_transfer_id');
		const badToken = depositIntent({ deposits: [{ sparkTransferId: tokenTransferId(), asset: { type: 'token', tokenId: 'cd'.repeat(31) }, amount: '5' }] });
		expectError(await postRaw(serializeWireIntent({ ...badToken, signature: 'aa' })), 400, 'invalid_token_id');
	});

	it('u64 amounts: 2^64-1 accepted exactly, 2^64, negatives and fractions rejected', async () => {
		const transferId = tokenTransferId();
		const intent = depositIntent({ deposits: [{ sparkTransferId: transferId, asset: { type: 'token', tokenId: TOKEN_ID }, amount: U64_MAX }] });
		const ok = await post(intent);
		expect(ok.status).toBe(200);
		const listed = (await call(server.base, 'GET', `/sandbox/intents/${ok.body.submissionId as string}`)).body as { transfers: Array<{ amount: string }> };
		expect(listed.transfers[0].amount).toBe(U64_MAX);

		const over = depositIntent({ deposits: [{ sparkTransferId: tokenTransferId(), asset: { type: 'token', tokenId: TOKEN_ID }, amount: U64_MAX }] });
		const overBody = serializeWireIntent({ ...over, signature: signIntent(over, KEY_A).signature }).replace(`"amount":${U64_MAX}`, '"amount":18446744073709551616');
		expect(overBody).toContain('"amount":18446744073709551616');
		expectError(await postRaw(overBody), 400, 'invalid_amount');
		for (const amount of ['-5', '1.5', '"12a"', '1e3', '5e4', '50000.0', 'null', '{}']) {
			const bad = depositIntent();
			const body = serializeWireIntent({ ...bad, signature: 'aa' }).replace('"amount":50000', `"amount":${amount}`);
			expectError(await postRaw(body), 400, 'invalid_amount');
		}
	});

	it('below_min_deposit for BTC amounts', async () => {
		expectError(await post(depositIntent({ deposits: [{ sparkTransferId: btcId(), asset: { type: 'btc' }, amount: '999' }] })), 400, 'below_min_deposit');
		expect((await post(depositIntent({ deposits: [{ sparkTransferId: btcId(), asset: { type: 'btc' }, amount: '1000' }] }))).status).toBe(200);
	});

	it('network_paused while paused by the control endpoint, reported by network info', async () => {
		await call(server.base, 'POST', '/sandbox/gateway/config', { paused: true });
		expect(((await call(server.base, 'GET', '/api/v1/network/info?forceRefresh=1')).body as { paused: boolean }).paused).toBe(true);
		expectError(await post(depositIntent()), 400, 'network_paused');
		await call(server.base, 'POST', '/sandbox/gateway/config', { paused: false });
		expect((await post(depositIntent())).status).toBe(200);
	});

	it('transfer_already_claimed (409) while a pending intent holds the transfer', async () => {
		const first = depositIntent();
		expect((await post(first)).status).toBe(200);
		expectError(await post(depositIntent({ deposits: first.deposits })), 409, 'transfer_already_claimed');
		// Hex is case-free: the same id in upper case is the same transfer.
		const upper = [{ ...first.deposits[0], sparkTransferId: first.deposits[0].sparkTransferId.toUpperCase() }];
		expectError(await post(depositIntent({ deposits: upper })), 409, 'transfer_already_claimed');
	});

	it('rejects non-JSON and non-object bodies', async () => {
		expectError(await postRaw('{"chainId":'), 400, 'invalid_json');
		expectError(await postRaw('[1,2]'), 400, 'invalid_request');
	});

	it('intent lookup is limited to the submitting signer', async () => {
		const res = await post(depositIntent());
		const id = res.body.submissionId as string;
		expect((await call(server.base, 'GET', `/api/v1/intents/${id}`, undefined, token)).status).toBe(200);
		const tokenB = await authenticate(server.base, KEY_B);
		expectError(await call(server.base, 'GET', `/api/v1/intents/${id}`, undefined, tokenB), 404, 'not_found');
		expectError(await call(server.base, 'GET', '/api/v1/intents/does-not-exist', undefined, token), 404, 'not_found');
	});
});

describe('lifecycle (§3)', () => {
	let server: Server;
	let token: string;
	beforeAll(async () => {
		server = await start();
		token = await authenticate(server.base, KEY_A);
	});

	it('a deposit intent goes ACCEPTED -> INCLUDED_PENDING_FINALITY -> FINALIZED and spends its transfer', async () => {
		const intent = depositIntent();
		await registerTransfers(server.base, intent);
		const res = await submit(server.base, token, intent, KEY_A);
		expect(res.status).toBe(200);
		const final = await waitForFinal(server.base, token, res.body.submissionId as string);
		expect(final).toMatchObject({ status: 'FINALIZED', statusMessage: null, intentId: res.body.intentId });
		expect(final.executionTxHash).toMatch(/^0x[0-9a-f]{64}$/);
		expect(Date.parse(final.updatedAt)).toBeGreaterThanOrEqual(Date.parse(final.createdAt));
		const listed = (await call(server.base, 'GET', `/sandbox/intents/${final.submissionId}`)).body as { history: Array<{ status: string }> };
		expect(listed.history.map((h) => h.status)).toEqual(['ACCEPTED', 'INCLUDED_PENDING_FINALITY', 'FINALIZED']);
		// A transfer funds at most one finalized intent.
		expectError(await submit(server.base, token, depositIntent({ deposits: intent.deposits }), KEY_A), 409, 'transfer_already_claimed');
	});

	it('an execute intent finalizes with the signed transaction hash as executionTxHash', async () => {
		const intent = executeIntent(KEY_A);
		await registerTransfers(server.base, intent);
		const res = await submit(server.base, token, intent, KEY_A);
		expect(res.status).toBe(200);
		const final = await waitForFinal(server.base, token, res.body.submissionId as string);
		expect(final.status).toBe('FINALIZED');
		expect(final.executionTxHash).toBe(decodeSignedEip1559(intent.evmTransaction as string).hash);
	});

	it('an unknown transfer fails the oracle: EXPIRED oracle_failure', async () => {
		const intent = depositIntent();
		const res = await submit(server.base, token, intent, KEY_A);
		const final = await waitForFinal(server.base, token, res.body.submissionId as string);
		expect(final).toMatchObject({ status: 'EXPIRED', executionTxHash: null });
		expect(final.statusMessage).toBe(`oracle_failure: transfer ${intent.deposits[0].sparkTransferId} not found`);
		expect(parseRevertLine(final.statusMessage)).toBeNull();
	});

	it('an amount mismatch fails the oracle', async () => {
		const intent = depositIntent();
		await registerTransfers(server.base, { ...intent, deposits: [{ ...intent.deposits[0], amount: '49999' }] });
		const final = await waitForFinal(server.base, token, (await submit(server.base, token, intent, KEY_A)).body.submissionId as string);
		expect(final.status).toBe('EXPIRED');
		expect(final.statusMessage).toMatch(/^oracle_failure: transfer [0-9a-f]{32} amount mismatch/);
	});

	it('calldata 0xdeadbeef reverts with Error(string) in the public-notes.md line format', async () => {
		const intent = executeIntent(KEY_A, errorRevertCalldata('insufficient liquidity'));
		await registerTransfers(server.base, intent);
		const final = await waitForFinal(server.base, token, (await submit(server.base, token, intent, KEY_A)).body.submissionId as string);
		expect(final.status).toBe('EXPIRED');
		const txHash = decodeSignedEip1559(intent.evmTransaction as string).hash;
		expect(final.statusMessage).toMatch(
			new RegExp(`^payload_flagged:stage=Execute outcome=Reverted intent_index=0 tx_hash=${txHash} reason=reverted:gas_used=\\d+ output=0x08c379a0[0-9a-f]+$`),
		);
		expect(parseRevertLine(final.statusMessage)).toMatchObject({ txHash, outcome: 'Reverted', decoded: { type: 'Error', message: 'insufficient liquidity' } });
	});

	it('calldata 0xdeadfa11 reverts with Panic(uint256)', async () => {
		const intent = executeIntent(KEY_A, panicRevertCalldata(0x11));
		await registerTransfers(server.base, intent);
		const final = await waitForFinal(server.base, token, (await submit(server.base, token, intent, KEY_A)).body.submissionId as string);
		expect(parseRevertLine(final.statusMessage)?.decoded).toEqual({ type: 'Panic', code: '0x11', meaning: 'arithmetic overflow or underflow' });
	});

	it('the deadline passing before inclusion expires the intent: deadline_exceeded', async () => {
		// Oracle after 100 s of spec time (1 s real); the deadline is 150 ms away.
		const { base } = await start({ schedule: { oracleMs: 100_000 } });
		const tokenSlow = await authenticate(base, KEY_A);
		const intent = depositIntent({ expiresAt: Date.now() + 150 });
		await registerTransfers(base, intent);
		const res = await submit(base, tokenSlow, intent, KEY_A);
		expect(res.status).toBe(200);
		const final = await waitForFinal(base, tokenSlow, res.body.submissionId as string);
		expect(final).toMatchObject({ status: 'EXPIRED', statusMessage: 'deadline_exceeded' });
	});
});

describe('transfer claims and control calls', () => {
	let server: Server;
	let token: string;
	beforeAll(async () => {
		server = await start({ autoAdvance: false });
		token = await authenticate(server.base, KEY_A);
	});

	it('blocks a concurrent submission and allows it again after the first intent expires', async () => {
		const deposits = depositIntent().deposits;
		const first = await submit(server.base, token, depositIntent({ deposits }), KEY_A);
		expect(first.status).toBe(200);
		expectError(await submit(server.base, token, depositIntent({ deposits }), KEY_A), 409, 'transfer_already_claimed');
		const advanced = await call(server.base, 'POST', `/sandbox/intents/${first.body.submissionId as string}/advance`, { status: 'EXPIRED', statusMessage: 'oracle_failure: transfer gone' });
		expect(advanced.body).toMatchObject({ status: 'EXPIRED', statusMessage: 'oracle_failure: transfer gone' });
		expect((await submit(server.base, token, depositIntent({ deposits }), KEY_A)).status).toBe(200);
	});

	it('also frees the claim when the oracle expires the intent', async () => {
		// The oracle runs 200 s of spec time (2 s real) after the submission: the default 20 ms real
		// let a loaded machine's second submission arrive after the claim was already freed.
		const { base } = await start({ schedule: { oracleMs: 200_000 } });
		const t = await authenticate(base, KEY_A);
		const deposits = depositIntent().deposits;
		const first = await submit(base, t, depositIntent({ deposits }), KEY_A);
		expectError(await submit(base, t, depositIntent({ deposits }), KEY_A), 409, 'transfer_already_claimed');
		expect((await waitForFinal(base, t, first.body.submissionId as string, 15_000)).status).toBe('EXPIRED');
		expect((await submit(base, t, depositIntent({ deposits }), KEY_A)).status).toBe(200);
	});

	it('advance moves forward only; FINALIZED spends the transfer', async () => {
		const intent = depositIntent();
		const id = (await submit(server.base, token, intent, KEY_A)).body.submissionId as string;
		const included = await call(server.base, 'POST', `/sandbox/intents/${id}/advance`, { status: 'INCLUDED_PENDING_FINALITY' });
		expect(included.body).toMatchObject({ status: 'INCLUDED_PENDING_FINALITY' });
		expect((included.body as { executionTxHash: string }).executionTxHash).toMatch(/^0x[0-9a-f]{64}$/);
		expectError(await call(server.base, 'POST', `/sandbox/intents/${id}/advance`, { status: 'ACCEPTED' }), 400, 'invalid_request');
		expect((await call(server.base, 'POST', `/sandbox/intents/${id}/advance`, { status: 'FINALIZED' })).body).toMatchObject({ status: 'FINALIZED' });
		expectError(await call(server.base, 'POST', `/sandbox/intents/${id}/advance`, { status: 'EXPIRED' }), 409, 'invalid_state');
		expectError(await submit(server.base, token, depositIntent({ deposits: intent.deposits }), KEY_A), 409, 'transfer_already_claimed');
		const status = IntentStatusSchema.parse((await call(server.base, 'GET', `/api/v1/intents/${id}`, undefined, token)).body);
		expect(status.status).toBe('FINALIZED');
	});

	it('an included intent cannot be expired or reverted any more (§3: EXPIRED only from ACCEPTED)', async () => {
		const intent = executeIntent(KEY_A);
		const id = (await submit(server.base, token, intent, KEY_A)).body.submissionId as string;
		await call(server.base, 'POST', `/sandbox/intents/${id}/advance`, { status: 'INCLUDED_PENDING_FINALITY' });
		expectError(await call(server.base, 'POST', `/sandbox/intents/${id}/advance`, { status: 'EXPIRED' }), 409, 'invalid_state');
		expectError(await call(server.base, 'POST', `/sandbox/intents/${id}/revert`, { kind: 'error', message: 'late' }), 409, 'invalid_state');
		const status = IntentStatusSchema.parse((await call(server.base, 'GET', `/api/v1/intents/${id}`, undefined, token)).body);
		expect(status.status).toBe('INCLUDED_PENDING_FINALITY');
	});

	it('revert control call: Error(string) and Panic(uint256) lines', async () => {
		const intent = executeIntent(KEY_A);
		const id = (await submit(server.base, token, intent, KEY_A)).body.submissionId as string;
		const reverted = await call(server.base, 'POST', `/sandbox/intents/${id}/revert`, { kind: 'error', message: 'slippage' });
		expect(reverted.body).toMatchObject({ status: 'EXPIRED' });
		const line = (reverted.body as { statusMessage: string }).statusMessage;
		expect(parseRevertLine(line)).toMatchObject({
			stage: 'Execute',
			outcome: 'Reverted',
			intentIndex: 0,
			txHash: decodeSignedEip1559(intent.evmTransaction as string).hash,
			reason: 'reverted',
			decoded: { type: 'Error', message: 'slippage' },
		});
		expectError(await call(server.base, 'POST', `/sandbox/intents/${id}/revert`, { kind: 'error' }), 409, 'invalid_state');

		const id2 = (await submit(server.base, token, depositIntent(), KEY_A)).body.submissionId as string;
		const panic = await call(server.base, 'POST', `/sandbox/intents/${id2}/revert`, { kind: 'panic', code: '0x32' });
		expect(parseRevertLine((panic.body as { statusMessage: string }).statusMessage)?.decoded).toEqual({
			type: 'Panic',
			code: '0x32',
			meaning: 'array index out of bounds',
		});
	});

	it('lists intents and registered transfers; unknown ids are 404', async () => {
		const list = (await call(server.base, 'GET', '/sandbox/intents')).body as { intents: Array<{ status: string }> };
		expect(list.intents.length).toBeGreaterThan(3);
		expectError(await call(server.base, 'POST', '/sandbox/intents/nope/advance', { status: 'FINALIZED' }), 404, 'not_found');
		const reg = await call(server.base, 'POST', '/sandbox/transfers', { sparkTransferId: tokenTransferId(), assetType: 'token', tokenId: TOKEN_ID, amount: U64_MAX });
		expect(reg.body).toMatchObject({ assetType: 'token', amount: U64_MAX });
		expectError(await call(server.base, 'POST', '/sandbox/transfers', { sparkTransferId: 'xyz' }), 400, 'invalid_request');
	});

	it('lists seeded signers without their private keys', async () => {
		const { base } = await start({ seedPrivateKeys: [KEY_A] });
		const config = await call(base, 'GET', '/sandbox/gateway/config');
		expect(config.body).toMatchObject({ seededSigners: [{ publicKey: publicKeyFromPrivateKey(KEY_A) }] });
		expect(config.text).not.toContain(KEY_A);
	});
});
