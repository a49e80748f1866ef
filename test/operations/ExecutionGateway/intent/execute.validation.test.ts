/**
 * intent.execute checks everything it can before sending: each failure names the field and the
 * item, carries the code the gateway would answer, and the gateway never sees a submission.
 */
import { rlpDecode, rlpEncode, signEip1559, type RlpItem } from '../../../../nodes/shared/gateway/eip1559';
import { clearNetworkInfoCache } from '../../../../nodes/ExecutionGateway/helpers/gateway';
import type { INodeParameters } from 'n8n-workflow';
import {
	btcTransferId,
	depositParams,
	gatewayHarness,
	hex,
	run,
	runError,
	startGatewayEnv,
	tokenTransferId,
	type GatewayEnv,
} from '../../../harness/gateway';

const EVM_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function tx(chainId: number, data = '0x'): string {
	return signEip1559({ chainId, nonce: 0, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gasLimit: 100_000, to: `0x${'22'.repeat(20)}`, value: 0, data }, EVM_KEY);
}

/** The same transaction with s replaced by n - s and the parity flipped: valid but high S (EIP-2). */
function highS(raw: string): string {
	const fields = rlpDecode(Buffer.from(raw.slice(4), 'hex')) as Uint8Array[];
	const s = BigInt(`0x${Buffer.from(fields[11]).toString('hex')}`);
	const flipped = (SECP256K1_N - s).toString(16).padStart(64, '0');
	fields[11] = Buffer.from(flipped, 'hex');
	fields[9] = fields[9].length ? new Uint8Array(0) : new Uint8Array([1]);
	return `0x02${Buffer.from(rlpEncode(fields as RlpItem[])).toString('hex')}`;
}

function unsigned(raw: string): string {
	const fields = rlpDecode(Buffer.from(raw.slice(4), 'hex')) as RlpItem[];
	return `0x02${Buffer.from(rlpEncode(fields.slice(0, 9))).toString('hex')}`;
}

const executeParams = (evmTransaction: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'intent',
	operation: 'execute',
	deposits: { deposit: [{ sparkTransferId: btcTransferId(), assetType: 'btc', amount: '5000' }] },
	action: 'execute',
	evmTransaction,
	...extra,
});

describe('Intent > Execute: checks before sending', () => {
	let env: GatewayEnv;
	let chainId: number;
	beforeAll(async () => {
		env = await startGatewayEnv();
		chainId = env.sb.keys.gateway.chainId;
	});
	afterAll(async () => {
		await env.close();
	});
	beforeEach(async () => {
		clearNetworkInfoCache();
		await env.control('POST', '/sandbox/gateway/config', { paused: false, minDepositSats: 1000 });
		env.proxy.requests.length = 0;
	});
	afterEach(async () => {
		// Nothing reached the gateway's execute endpoint, and it holds no intent.
		expect(env.proxy.to('/api/v1/execute')).toEqual([]);
		expect(await env.intents()).toEqual([]);
	});

	async function expectRejected(parameters: INodeParameters, field: string, code: string, problem?: RegExp): Promise<void> {
		const error = await runError(gatewayHarness(env, parameters));
		expect(error.message).toContain(`"${field}"`);
		expect(error.message).toContain('item 0');
		expect(error.errorCode).toBe(code);
		if (problem) expect(error.message).toMatch(problem);
	}

	const u64Max = '18446744073709551615';

	it.each([
		['one above u64', '18446744073709551616', /unsigned 64-bit maximum/],
		['negative', '-1', /sign/],
		['a fraction', '1.5', /decimal point/],
		['an exponent', '1e9', /exponent/],
		['empty', '', /empty/],
	])('amount %s is rejected as invalid_amount', async (_name, amount, problem) => {
		await expectRejected(depositParams([{ sparkTransferId: tokenTransferId(), assetType: 'token', tokenId: hex(32), amount }]), 'deposits[0].amount', 'invalid_amount', problem);
	});

	it('an amount that reached the node as an unsafe JS number is refused, not rounded', async () => {
		const parameters = depositParams([{ sparkTransferId: tokenTransferId(), assetType: 'token', tokenId: hex(32), amount: '={{ $json.amount }}' }]);
		const error = await runError(gatewayHarness(env, parameters), [{ amount: 2 ** 53 + 2 }]);
		expect(error.errorCode).toBe('invalid_amount');
		expect(error.message).toMatch(/2\^53/);
	});

	it('a BTC amount below minDepositSats (from network info) is rejected', async () => {
		await env.control('POST', '/sandbox/gateway/config', { minDepositSats: 7000 });
		await expectRejected(depositParams([{ sparkTransferId: btcTransferId(), amount: '6999' }]), 'deposits[0].amount', 'below_min_deposit', /6999 sats is below the gateway minimum of 7000/);
	});

	it('a paused network is rejected before sending with Refuse When Paused', async () => {
		await env.control('POST', '/sandbox/gateway/config', { paused: true });
		const error = await runError(gatewayHarness(env, depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], { options: { refuseWhenPaused: true } })));
		expect(error.message).toMatch(/paused \(item 0\)/);
		expect(error.errorCode).toBe('network_paused');
	});

	it.each([
		['a BTC id of 64 characters', 'btc', () => tokenTransferId(), /32 hex characters/],
		['a token id of 32 characters', 'token', () => btcTransferId(), /64 hex characters/],
		['dashes that do not make a UUID', 'btc', () => `${hex(4)}-${hex(12)}`, /only hex digits/],
		['non-hex characters', 'btc', () => 'g'.repeat(32), /only hex digits/],
	])('transfer id with %s is rejected', async (_name, assetType, id, problem) => {
		const deposit = { sparkTransferId: id(), assetType, amount: '5000', ...(assetType === 'token' ? { tokenId: hex(32) } : {}) };
		await expectRejected(depositParams([deposit]), 'deposits[0].sparkTransferId', 'invalid_transfer_id', problem);
	});

	it('a token id that is not 32 bytes is rejected', async () => {
		await expectRejected(depositParams([{ sparkTransferId: tokenTransferId(), assetType: 'token', tokenId: hex(31), amount: '1' }]), 'deposits[0].tokenId', 'invalid_token_id', /64 hex characters/);
	});

	it('the same transfer twice in one intent is rejected', async () => {
		const id = btcTransferId();
		await expectRejected(
			depositParams([
				{ sparkTransferId: id, amount: '5000' },
				{ sparkTransferId: id.toUpperCase(), amount: '5000' },
			]),
			'deposits[1].sparkTransferId',
			'duplicate_transfer_id',
		);
	});

	it.each([
		['in the past', () => String(Date.now() - 1000), /not in the future/],
		['beyond 24 hours', () => new Date(Date.now() + 24 * 3600_000 + 60_000).toISOString(), /more than 24 hours/],
		['in seconds instead of milliseconds', () => String(Math.floor(Date.now() / 1000) + 600), /unix seconds/],
		['not a time', () => 'tomorrow', /unix milliseconds or an ISO 8601/],
	])('expiresAt %s is rejected', async (_name, value, problem) => {
		await expectRejected(depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], { options: { expiresAt: value() } }), 'expiresAt', 'invalid_expires_at', problem);
	});

	it('exactly one action: an empty recipient or an empty EVM transaction is rejected', async () => {
		await expectRejected(depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], { recipient: '' }), 'recipient', 'invalid_action', /exactly one action/);
		await expectRejected(executeParams(''), 'evmTransaction', 'invalid_action', /exactly one action/);
	});

	it('a recipient that is not an EVM address is rejected', async () => {
		await expectRejected(depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], { recipient: '0x1234' }), 'recipient', 'invalid_recipient');
	});

	it.each([
		['not hex', () => '0xzz', /not valid hex/],
		['a legacy (non-1559) transaction', () => `0xf8${hex(40)}`, /type byte 0x02/],
		['unsigned', () => unsigned(tx(3637)), /unsigned/],
		['high S', () => highS(tx(3637)), /low S/],
		['garbage after the type byte', () => `0x02${hex(20)}`, /malformed RLP|RLP/],
	])('an EVM transaction that is %s is rejected', async (_name, raw, problem) => {
		await expectRejected(executeParams(raw()), 'evmTransaction', 'invalid_evm_transaction', problem);
	});

	it('an EVM transaction signed for another chain is rejected', async () => {
		await expectRejected(executeParams(tx(chainId + 1)), 'evmTransaction', 'invalid_evm_transaction', new RegExp(`chain ${chainId + 1}.*chain ${chainId}`));
	});

	it('a chain id that differs from network info is rejected', async () => {
		await expectRejected(depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], { options: { chainId: chainId + 5 } }), 'chainId', 'chain_id_mismatch');
	});

	it('Deposits (JSON): invalid JSON, a non-array, or both lists are rejected', async () => {
		await expectRejected(depositParams([], { options: { depositsJson: '[{' } }), 'depositsJson', 'invalid_deposits', /not valid JSON/);
		await expectRejected(depositParams([], { options: { depositsJson: '{"a":1}' } }), 'depositsJson', 'invalid_deposits', /JSON array/);
		await expectRejected(
			depositParams([{ sparkTransferId: btcTransferId(), amount: '5000' }], {
				options: { depositsJson: JSON.stringify([{ sparkTransferId: btcTransferId(), assetType: 'btc', amount: '5000' }]) },
			}),
			'depositsJson',
			'invalid_deposits',
			/not both/,
		);
		await expectRejected(depositParams([], { options: { depositsJson: `[{"sparkTransferId":"${tokenTransferId()}","assetType":"token","tokenId":"${hex(32)}","amount":${u64Max}1}]` } }), 'deposits[0].amount', 'invalid_amount');
	});

	it('with Continue On Fail, the invalid item becomes an error item naming its index; nothing is sent for it', async () => {
		await env.control('POST', '/sandbox/gateway/config', { paused: true });
		const parameters = depositParams([{ sparkTransferId: '={{ $json.id }}', amount: '={{ $json.amount }}' }]);
		const out = await run(gatewayHarness(env, parameters, { continueOnFail: true }), [
			{ id: btcTransferId(), amount: 'x' },
			{ id: 'short', amount: '5000' },
		]);
		expect(out).toHaveLength(2);
		expect(out[0]).toMatchObject({ errorCode: 'invalid_amount' });
		expect(String(out[0].error)).toContain('item 0');
		expect(out[1]).toMatchObject({ errorCode: 'invalid_transfer_id' });
		expect(String(out[1].error)).toContain('item 1');
	});
});
