/**
 * Issue 10, gateway side, over HTTP against the sandbox: lowercase statuses (the live service's),
 * the public client's normalisation before signing, `paused` as advisory, exact inputs.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { clearNetworkInfoCache } from '../../../nodes/ExecutionGateway/helpers/gateway';
import { signEip1559 } from '../../../nodes/shared/gateway/eip1559';
import {
	btcTransferId,
	depositParams,
	emptyRunData,
	executeWithRunData,
	gatewayHarness,
	run,
	runError,
	sha256Hex,
	startGatewayEnv,
	type GatewayEnv,
	EVM_ADDRESS,
	EVM_KEY,
	WAIT,
} from '../../harness/gateway';


describe('Execution Gateway against the live service behaviour', () => {
	let env: GatewayEnv;
	let chainId: number;
	let evmNonce = 0;
	beforeAll(async () => {
		env = await startGatewayEnv();
		chainId = env.sb.keys.gateway.chainId;
	});
	afterAll(async () => {
		await env.close();
	});
	beforeEach(async () => {
		await env.control('POST', '/sandbox/gateway/config', { paused: false, lowercaseStatuses: false, admitWhenPaused: false });
		// Network info is cached 60 s per gateway; each test sets the network state it needs.
		clearNetworkInfoCache();
		env.proxy.reset();
	});

	const funded = async (amount = '5000'): Promise<string> => {
		const sparkTransferId = btcTransferId();
		await env.registerTransfer({ sparkTransferId, amount });
		return sparkTransferId;
	};
	const sentBody = (): IDataObject => JSON.parse(env.proxy.to('/api/v1/execute', 'POST')[0].body) as IDataObject;

	describe('statuses in lower case', () => {
		beforeEach(() => env.control('POST', '/sandbox/gateway/config', { lowercaseStatuses: true }));

		it('execute outputs the spec spelling although the gateway answers "accepted"', async () => {
			const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId: await funded(), amount: '5000' }])));
			expect(JSON.parse(env.proxy.to('/api/v1/execute', 'POST')[0].response!).status).toBe('accepted');
			expect(out.status).toBe('ACCEPTED');
		});

		it('waiting ends at "finalized" instead of running to its timeout', async () => {
			const started = Date.now();
			const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId: await funded(), amount: '5000' }], { options: WAIT })));
			expect(out.status).toBe('FINALIZED');
			expect(out.waitTimedOut).toBeUndefined();
			const answers = env.proxy.to(`/api/v1/intents/${String(out.submissionId)}`).map((r) => JSON.parse(r.response!).status as string);
			expect(answers.at(-1)).toBe('finalized');
			expect(Date.now() - started).toBeLessThan(15_000);
		});

		it('Get with Wait Until Final returns at once for an intent already final, and an expired one keeps its reason', async () => {
			await env.control('POST', '/sandbox/gateway/config', { autoAdvance: false });
			try {
				const [submitted] = await run(gatewayHarness(env, depositParams([{ sparkTransferId: await funded(), amount: '5000' }])));
				await env.control('POST', `/sandbox/intents/${String(submitted.submissionId)}/advance`, { status: 'EXPIRED', statusMessage: 'oracle_timeout: no attestation' });
				env.proxy.reset();
				const [out] = await run(gatewayHarness(env, { resource: 'intent', operation: 'get', submissionId: submitted.submissionId as string, options: { ...WAIT, waitTimeout: 60 } }));
				expect(out.status).toBe('EXPIRED');
				expect(out.statusReason).toMatchObject({ kind: 'oracle', code: 'oracle_timeout' });
				expect(env.proxy.to(`/api/v1/intents/${String(submitted.submissionId)}`).filter((r) => r.status === 200)).toHaveLength(1);
			} finally {
				await env.control('POST', '/sandbox/gateway/config', { autoAdvance: true });
			}
		});
	});

	describe('normalisation before signing (as the public client)', () => {
		it('a checksummed recipient goes in lower case into both the signed message and the request', async () => {
			const sparkTransferId = await funded();
			const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId, amount: '5000' }], { recipient: EVM_ADDRESS })));
			expect(sentBody().recipient).toBe(EVM_ADDRESS.toLowerCase());
			const canonical =
				`{"chainId":${chainId},"transfers":[{"transferId":"${sparkTransferId}","amountSats":5000,"assetType":"NativeSats"}],` +
				`"action":{"type":"deposit","recipient":"${EVM_ADDRESS.toLowerCase()}"},"nonce":"${String(out.nonce)}","expiresAt":${String(out.expiresAt)}}`;
			expect(out.messageDigest).toBe(sha256Hex(canonical));
			expect(out.status).toBe('ACCEPTED');
		});

		it('a recipient with a wrong EIP-55 checksum is still refused before sending', async () => {
			const bad = EVM_ADDRESS.replace('E', 'e').replace('a7a3', 'A7a3');
			const error = await runError(gatewayHarness(env, depositParams([{ sparkTransferId: await funded(), amount: '5000' }], { recipient: bad })));
			expect(error.message).toMatch(/^Invalid "recipient" in item 0: .*checksum/);
			expect(env.proxy.to('/api/v1/execute')).toEqual([]);
		});

		it('evmTransaction without its 0x is sent with it', async () => {
			const raw = signEip1559(
				{ chainId, nonce: evmNonce++, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gasLimit: 21_000, to: `0x${'44'.repeat(20)}`, value: 0, data: '0x' },
				EVM_KEY,
			);
			const parameters: INodeParameters = {
				resource: 'intent',
				operation: 'execute',
				deposits: { deposit: [{ sparkTransferId: await funded(), assetType: 'btc', amount: '5000' }] },
				action: 'execute',
				evmTransaction: raw.slice(2),
			};
			const [out] = await run(gatewayHarness(env, parameters));
			expect(sentBody().evmTransaction).toBe(raw);
			expect(out.status).toBe('ACCEPTED');
		});

		it.each([
			['a dashed UUID', (id: string) => `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`.toUpperCase()],
			['a 0x prefix', (id: string) => `0x${id}`],
		])('a transfer id given as %s is sent as plain lower-case hex', async (_name, spell) => {
			const sparkTransferId = await funded();
			const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId: spell(sparkTransferId), amount: '5000' }])));
			expect((sentBody().deposits as IDataObject[])[0].sparkTransferId).toBe(sparkTransferId);
			expect(out.status).toBe('ACCEPTED');
		});

		it('the default nonce is 32 lower-case hex characters, and a retried item reuses it', async () => {
			const h = gatewayHarness(env, depositParams([{ sparkTransferId: await funded(), amount: '5000' }]));
			const runData = emptyRunData();
			const [first] = await executeWithRunData(h, [{}], runData);
			const [again] = await executeWithRunData(h, [{}], runData);
			expect(first.json.nonce).toMatch(/^[0-9a-f]{32}$/);
			expect(sentBody().nonce).toBe(first.json.nonce);
			expect(again.json.nonce).toBe(first.json.nonce);
			expect(env.proxy.to('/api/v1/execute', 'POST')).toHaveLength(1);
		});
	});

	describe('paused is advisory', () => {
		beforeEach(async () => {
			await env.control('POST', '/sandbox/gateway/config', { paused: true, admitWhenPaused: true });
			clearNetworkInfoCache();
		});

		it('by default the intent is sent and the output carries a warning', async () => {
			const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId: await funded(), amount: '5000' }], { options: {} })));
			expect(out.status).toBe('ACCEPTED');
			expect(out.warning).toMatch(/paused: true; the intent was submitted anyway/);
			expect(env.proxy.to('/api/v1/execute', 'POST')).toHaveLength(1);
		});

		it('"Refuse When Paused" refuses before sending', async () => {
			const error = await runError(gatewayHarness(env, depositParams([{ sparkTransferId: await funded(), amount: '5000' }], { options: { refuseWhenPaused: true } })));
			expect(error.errorCode).toBe('network_paused');
			expect(env.proxy.to('/api/v1/execute')).toEqual([]);
		});

		it('node version 1 keeps refusing by default (existing workflows keep their meaning)', async () => {
			const error = await runError(gatewayHarness(env, depositParams([{ sparkTransferId: await funded(), amount: '5000' }]), { typeVersion: 1 }));
			expect(error.message).toMatch(/paused \(item 0\)/);
			expect(env.proxy.to('/api/v1/execute')).toEqual([]);
		});

		it('minDepositSats stays a pre-check (§8)', async () => {
			await env.control('POST', '/sandbox/gateway/config', { minDepositSats: 7000 });
			clearNetworkInfoCache();
			try {
				const error = await runError(gatewayHarness(env, depositParams([{ sparkTransferId: await funded('6999'), amount: '6999' }])));
				expect(error.errorCode).toBe('below_min_deposit');
				expect(env.proxy.to('/api/v1/execute')).toEqual([]);
			} finally {
				await env.control('POST', '/sandbox/gateway/config', { minDepositSats: 1000 });
			}
		});
	});

	describe('exact inputs', () => {
		afterEach(() => expect(env.proxy.to('/api/v1/execute')).toEqual([]));

		it.each([
			['a number beyond 2^53', Number('1234567890123456789'), /1234567890123456800 is not a whole number .* pass it as a string of digits/],
			['a fraction', 1.5, /1\.5 is not a whole number .* pass it as a string of digits/],
			['a negative number', -5, /-5 is not a whole number .* pass it as a string of digits/],
			['a boolean', true, /got a boolean; pass it as a string of digits/],
			['an object', { v: 1 }, /got an object; pass it as a string of digits/],
			['an array', ['5000'], /got an array; pass it as a string of digits/],
		])('a deposit amount given as %s is refused before sending', async (_name, amount, problem) => {
			const error = await runError(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: amount as unknown as string }])));
			expect(error.message).toMatch(/^Invalid "deposits\[0\]\.amount" in item 0: /);
			expect(error.message).toMatch(problem);
		});

		it.each([
			['recipient', { recipient: { address: '0x1' } }, 'an object'],
			['recipient', { recipient: ['0x2c7536e3605d9c16a7a3d7b1898e529396a65c23'] }, 'an array'],
			['nonce', { options: { nonce: { id: 1 } } }, 'an object'],
			['nonce', { options: { nonce: true } }, 'a boolean'],
		])('"%s" that is not text is refused (%#)', async (field, extra, what) => {
			const error = await runError(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], extra as INodeParameters)));
			expect(error.message).toBe(`Invalid "${field}" in item 0: must be text, got ${what}; pass a string (an expression must resolve to text)`);
			// the gateway's admission code for the same mistake, through the one reader's field naming
			expect((error as { errorCode?: string }).errorCode).toBe(field === 'nonce' ? 'invalid_nonce' : 'invalid_recipient');
		});

		it('a spark transfer id, token id or signed transaction that is not text is refused', async () => {
			const id = await runError(gatewayHarness(env, depositParams([{ sparkTransferId: { id: 'x' } as unknown as string, amount: '5000' }])));
			expect(id.message).toBe('Invalid "deposits[0].sparkTransferId" in item 0: must be text, got an object; pass a string (an expression must resolve to text)');
			const token = await runError(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), assetType: 'token', tokenId: false as unknown as string, amount: '5' }])));
			expect(token.message).toBe('Invalid "deposits[0].tokenId" in item 0: must be text, got a boolean; pass a string (an expression must resolve to text)');
			const tx = await runError(gatewayHarness(env, { resource: 'intent', operation: 'execute', action: 'execute', evmTransaction: ['0x02'] as unknown as string, deposits: {} }));
			expect(tx.message).toBe('Invalid "evmTransaction" in item 0: must be text, got an array; pass a string (an expression must resolve to text)');
			const codes = [id, token, tx].map((e) => (e as { errorCode?: string }).errorCode);
			expect(codes).toEqual(['invalid_transfer_id', 'invalid_token_id', 'invalid_evm_transaction']);
		});

		it('Intent > Get refuses a submission id that is not text, before any request', async () => {
			const error = await runError(gatewayHarness(env, { resource: 'intent', operation: 'get', submissionId: { id: 1 } as unknown as string, options: {} }));
			expect(error.message).toBe('Invalid "submissionId" in item 0: must be text, got an object; pass a string (an expression must resolve to text)');
			expect(env.proxy.requests).toEqual([]);
		});
	});
});
