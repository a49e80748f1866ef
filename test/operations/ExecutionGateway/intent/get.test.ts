/**
 * Intent > Get through the node against the sandbox gateway: the §2.3 fields, a revert parsed on
 * lookup, waiting and its timeout, not_found with a hint, and no reading another keypair's intent.
 */
import {
	btcTransferId,
	depositParams,
	evmTransaction,
	executeParams,
	gatewayHarness,
	run,
	runError,
	sleepMs,
	startGatewayEnv,
	type GatewayEnv,
	EVM_KEY,
	WAIT,
} from '../../../harness/gateway';

describe('Intent > Get', () => {
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

	describe('with the sandbox holding intents (autoAdvance off)', () => {
		beforeAll(async () => {
			await env.control('POST', '/sandbox/gateway/config', { autoAdvance: false });
		});
		afterAll(async () => {
			await env.control('POST', '/sandbox/gateway/config', { autoAdvance: true });
		});

		it('intent.get returns the §2.3 fields; a revert forced by the control endpoint is parsed on lookup', async () => {
			const [accepted] = await run(gatewayHarness(env, executeParams(evmTx(), [])));
			const h = gatewayHarness(env, { resource: 'intent', operation: 'get', submissionId: accepted.submissionId as string, options: {} });
			const [pending] = await run(h);
			expect(Object.keys(pending).sort()).toEqual(['createdAt', 'executionTxHash', 'intentId', 'status', 'statusMessage', 'submissionId', 'updatedAt']);
			expect(pending).toMatchObject({ status: 'ACCEPTED', statusMessage: null, executionTxHash: null, intentId: accepted.intentId });
			await env.control('POST', `/sandbox/intents/${accepted.submissionId}/revert`, { kind: 'panic', code: 17 });
			const [expired] = await run(h);
			expect(expired.statusReason).toMatchObject({ kind: 'revert', decoded: { type: 'Panic', code: '0x11', meaning: 'arithmetic overflow or underflow' } });
		});

		it('waiting: a status change made while polling is picked up', async () => {
			const [accepted] = await run(gatewayHarness(env, executeParams(evmTx(), [])));
			const h = gatewayHarness(env, { resource: 'intent', operation: 'get', submissionId: accepted.submissionId as string, options: WAIT });
			const lookups = () => env.proxy.to(`/api/v1/intents/${accepted.submissionId}`).filter((r) => r.status === 200);
			const waiting = run(h);
			while (lookups().length === 0) await sleepMs(10);
			expect(JSON.parse(lookups()[0].response!).status).toBe('ACCEPTED');
			await env.control('POST', `/sandbox/intents/${accepted.submissionId}/advance`, { status: 'FINALIZED' });
			const [done] = await waiting;
			expect(done.status).toBe('FINALIZED');
			expect(lookups().length).toBe(2);
		});

		it('a wait timeout fails the item by default, or returns the last status when asked', async () => {
			const [accepted] = await run(gatewayHarness(env, executeParams(evmTx(), [])));
			const options = { waitUntilFinal: true, pollInterval: 1, waitTimeout: 1 };
			const params = { resource: 'intent', operation: 'get', submissionId: accepted.submissionId as string };
			const started = Date.now();
			const error = await runError(gatewayHarness(env, { ...params, options }));
			expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
			expect(error.message).toMatch(/still ACCEPTED after 1 s/);
			expect(error.errorCode).toBe('wait_timeout');
			const [last] = await run(gatewayHarness(env, { ...params, options: { ...options, onTimeout: 'returnLast' } }));
			expect(last).toMatchObject({ status: 'ACCEPTED', waitTimedOut: true });
		});
	});

	it('intent.get of an unknown submission id fails with not_found and a hint', async () => {
		const error = await runError(gatewayHarness(env, { resource: 'intent', operation: 'get', submissionId: 'no-such-intent', options: {} }));
		expect(error.message).toMatch(/^not_found/);
		expect(error.description).toMatch(/No intent|Nothing with this identifier/);
	});

	it("another keypair cannot read this keypair's intent (404)", async () => {
		const sparkTransferId = btcTransferId();
		const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId, amount: '5000' }])));
		const other = gatewayHarness(env, { resource: 'intent', operation: 'get', submissionId: out.submissionId as string, options: {} }, { privateKey: EVM_KEY });
		const error = await runError(other);
		expect(error.message).toMatch(/^not_found/);
	});
});
