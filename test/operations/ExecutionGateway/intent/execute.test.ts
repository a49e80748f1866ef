/**
 * Intent > Execute through the node against the sandbox gateway: the exact signed message and wire
 * body, deposit and execute intents reaching FINALIZED, oracle failures and reverts reaching EXPIRED
 * with the parsed reason, u64 amounts beyond 2^53.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { IDataObject } from 'n8n-workflow';

import { errorRevertCalldata, panicRevertCalldata } from '../../../../sandbox/gateway/markers';
import {
	btcTransferId,
	depositParams,
	evmTransaction,
	executeParams,
	gatewayHarness,
	hex,
	opensslPublicKey,
	opensslVerify,
	run,
	sha256Hex,
	startGatewayEnv,
	tokenTransferId,
	type GatewayEnv,
	EVM_ADDRESS,
	WAIT,
} from '../../../harness/gateway';

const RECIPIENT = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';
const U64_MAX = '18446744073709551615';

describe('Intent > Execute', () => {
	let env: GatewayEnv;
	let chainId: number;
	beforeAll(async () => {
		env = await startGatewayEnv();
		chainId = env.sb.keys.gateway.chainId;
	});
	afterAll(async () => {
		await env.close();
	});
	beforeEach(() => {
		env.proxy.requests.length = 0;
	});

	const evmTx = (data?: string): string => evmTransaction(chainId, data);

	it('a BTC deposit intent: exact canonical message, signature OpenSSL verifies, wire body of §2.1, FINALIZED', async () => {
		const sparkTransferId = btcTransferId();
		await env.registerTransfer({ sparkTransferId, amount: '25000' });
		const started = Date.now();
		const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId, amount: '25000' }], { options: WAIT })));
		const ended = Date.now();

		const canonical =
			`{"chainId":${chainId},"transfers":[{"transferId":"${sparkTransferId}","amountSats":25000,"assetType":"NativeSats"}],` +
			`"action":{"type":"deposit","recipient":"${RECIPIENT}"},"nonce":"${out.nonce}","expiresAt":${out.expiresAt}}`;
		expect(out.messageDigest).toBe(sha256Hex(canonical));
		expect(out.intentId).toBe(`0x${sha256Hex(canonical)}`);
		expect(out.signerPublicKey).toBe(opensslPublicKey(env.signerKey));

		const [sent] = env.proxy.to('/api/v1/execute', 'POST');
		const signature = /"signature":"([0-9a-f]+)"/.exec(sent.body)?.[1] ?? '';
		expect(sent.body).toBe(
			`{"chainId":${chainId},"deposits":[{"sparkTransferId":"${sparkTransferId}","asset":{"type":"btc"},"amount":25000}],` +
				`"recipient":"${RECIPIENT}","signature":"${signature}","nonce":"${out.nonce}","expiresAt":${out.expiresAt}}`,
		);
		expect(opensslVerify(canonical, signature, opensslPublicKey(env.signerKey))).toBe(true);
		expect(sent.headers.authorization).toMatch(/^Bearer gwt_/);

		expect(out).toMatchObject({ status: 'FINALIZED', statusMessage: null, chainId, recipient: RECIPIENT });
		expect(out.executionTxHash).toMatch(/^0x[0-9a-f]{64}$/);
		expect(typeof out.createdAt).toBe('string');
		// The default expiry: 15 minutes from when the node signed (during the run), in whole seconds or ms.
		expect(Number(out.expiresAt)).toBeGreaterThanOrEqual(started - 1000 + 15 * 60_000);
		expect(Number(out.expiresAt)).toBeLessThanOrEqual(ended + 15 * 60_000);
	});

	it('token deposits of 2^64 - 1 and 2^53 + 1 base units are signed exactly and accepted', async () => {
		const tokenId = hex(32);
		const a = tokenTransferId();
		const b = tokenTransferId();
		await env.registerTransfer({ sparkTransferId: a, assetType: 'token', tokenId, amount: U64_MAX });
		await env.registerTransfer({ sparkTransferId: b, assetType: 'token', tokenId, amount: '9007199254740993' });
		const [out] = await run(
			gatewayHarness(
				env,
				depositParams(
					[
						{ sparkTransferId: a, assetType: 'token', tokenId, amount: U64_MAX },
						{ sparkTransferId: b, assetType: 'token', tokenId, amount: '9007199254740993' },
					],
					{ options: WAIT },
				),
			),
		);
		const canonical =
			`{"chainId":${chainId},"transfers":[` +
			`{"transferId":"${a}","amountSats":${U64_MAX},"assetType":"SparkToken","tokenId":"${tokenId}"},` +
			`{"transferId":"${b}","amountSats":9007199254740993,"assetType":"SparkToken","tokenId":"${tokenId}"}],` +
			`"action":{"type":"deposit","recipient":"${RECIPIENT}"},"nonce":"${out.nonce}","expiresAt":${out.expiresAt}}`;
		expect(out.messageDigest).toBe(sha256Hex(canonical));
		const [sent] = env.proxy.to('/api/v1/execute', 'POST');
		expect(sent.body).toContain(`"asset":{"type":"token","tokenId":"${tokenId}"},"amount":${U64_MAX}}`);
		expect(sent.body).toContain(`"amount":9007199254740993}`);
		expect(out.status).toBe('FINALIZED');
		const record = await env.control('GET', `/sandbox/intents/${out.submissionId}`);
		expect((record.transfers as IDataObject[]).map((t) => t.amount)).toEqual([U64_MAX, '9007199254740993']);
	});

	it('Deposits (JSON) keeps a u64 amount written as a bare JSON number exact', async () => {
		const tokenId = hex(32);
		const id = tokenTransferId();
		await env.registerTransfer({ sparkTransferId: id, assetType: 'token', tokenId, amount: U64_MAX });
		const depositsJson = `[{"sparkTransferId":"${id}","assetType":"token","tokenId":"${tokenId}","amount":${U64_MAX}}]`;
		const [out] = await run(gatewayHarness(env, depositParams([], { options: { depositsJson } })));
		expect(out.status).toBe('ACCEPTED');
		expect(env.proxy.to('/api/v1/execute', 'POST')[0].body).toContain(`"amount":${U64_MAX}}`);
	});

	it('a deposit-and-execute intent: signedTxHash and the recovered signer, FINALIZED with the transaction hash', async () => {
		const sparkTransferId = btcTransferId();
		await env.registerTransfer({ sparkTransferId, amount: '5000' });
		const raw = evmTx();
		const [out] = await run(gatewayHarness(env, executeParams(raw, [{ sparkTransferId, assetType: 'btc', amount: '5000' }], WAIT)));
		const txHash = `0x${Buffer.from(keccak_256(Buffer.from(raw.slice(2), 'hex'))).toString('hex')}`;
		expect(out).toMatchObject({ status: 'FINALIZED', signedTxHash: txHash, evmSigner: EVM_ADDRESS, executionTxHash: txHash });
		expect(out.recipient).toBeUndefined();
		const canonical =
			`{"chainId":${chainId},"transfers":[{"transferId":"${sparkTransferId}","amountSats":5000,"assetType":"NativeSats"}],` +
			`"action":{"type":"execute","signedTxHash":"${txHash}"},"nonce":"${out.nonce}","expiresAt":${out.expiresAt}}`;
		expect(out.messageDigest).toBe(sha256Hex(canonical));
		expect(env.proxy.to('/api/v1/execute', 'POST')[0].body).toContain(`"evmTransaction":"${raw}","signature":`);
		const record = await env.control('GET', `/sandbox/intents/${out.submissionId}`);
		expect(record.recipient).toBe(EVM_ADDRESS.toLowerCase());
	});

	it('an execute intent without deposits is accepted (the list may be empty)', async () => {
		const [out] = await run(gatewayHarness(env, executeParams(evmTx(), [], WAIT)));
		expect(out.status).toBe('FINALIZED');
	});

	it('an oracle failure: EXPIRED with the reason parsed', async () => {
		const sparkTransferId = btcTransferId(); // never registered: the oracle cannot confirm it
		const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId, amount: '5000' }], { options: WAIT })));
		expect(out.status).toBe('EXPIRED');
		expect(out.statusMessage).toBe(`oracle_failure: transfer ${sparkTransferId} not found`);
		expect(out.statusReason).toEqual({ kind: 'oracle', code: 'oracle_failure', detail: `transfer ${sparkTransferId} not found` });
	});

	it('a revert with Error(string): EXPIRED with stage, outcome, intent index, tx hash, gas and the decoded message', async () => {
		const raw = evmTx(errorRevertCalldata('insufficient balance'));
		const [out] = await run(gatewayHarness(env, executeParams(raw, [], WAIT)));
		expect(out.status).toBe('EXPIRED');
		expect(out.statusReason).toMatchObject({
			kind: 'revert',
			stage: 'Execute',
			outcome: 'Reverted',
			intentIndex: 0,
			txHash: out.signedTxHash,
			decoded: { type: 'Error', message: 'insufficient balance' },
		});
		expect((out.statusReason as IDataObject).gasUsed).toMatch(/^\d+$/);
		expect((out.statusReason as IDataObject).output).toMatch(/^0x08c379a0/);
	});

	it('a revert with Panic(uint256): EXPIRED with the panic code and its meaning', async () => {
		const raw = evmTx(panicRevertCalldata(0x12));
		const [out] = await run(gatewayHarness(env, executeParams(raw, [], WAIT)));
		expect(out.statusReason).toMatchObject({ kind: 'revert', decoded: { type: 'Panic', code: '0x12', meaning: 'division or modulo by zero' } });
	});
});
