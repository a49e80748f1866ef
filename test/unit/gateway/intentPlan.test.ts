import { buildCanonicalIntent, closeCanonicalBody, serializeCanonicalIntent, signedTxHashOf } from '../../../nodes/shared/gateway/canonical';
import { ProtocolError } from '../../../nodes/shared/errors';
import { canonicalBodyOf, checkAgainstNetwork, planIntent, wireIntent, type IntentInput } from '../../../nodes/shared/gateway/intentPlan';
import type { NetworkInfo } from '../../../nodes/shared/gateway/responses';

/** Mainnet EIP-1559 transaction 0x0ec0b6a2... on chain 1 (see eip1559.test.ts for its provenance). */
const MAINNET_RAW =
	'02f8b00142843b9aca008504a817c80082ad62946069a6c32cf691f5982febae4faf8a6f3ab2f0f680b844a22cb465' +
	'0000000000000000000000005eee75727d804a2b13038928d36f8b188945a57a' +
	'0000000000000000000000000000000000000000000000000000000000000000c080' +
	'a0840cfc572845f5786e702984c2a582528cad4b49b2a10b9db1be7fca90058565' +
	'a025e7109ceb98168d95b09b18bbf6b685130e0562f233877d492b94eee0c5b6d1';

const NOW = 1_700_000_000_000;
const DEPOSIT: IntentInput = {
	deposits: [{ sparkTransferId: '01234567-89AB-CDEF-0123-456789ABCDEF', asset: { type: 'btc' }, amount: '150000' }],
	action: { recipient: '0x52908400098527886E0F7030069857D2E4169EE7' },
};
const INFO = { execution: { chainId: 1 }, minDepositSats: '1000', paused: false } as unknown as NetworkInfo;

function reasonOf(fn: () => unknown): { field?: string; reason?: string } {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(ProtocolError);
		const e = error as ProtocolError;
		return { field: e.field, reason: e.reason };
	}
	throw new Error('expected a ProtocolError');
}

describe('planIntent: the checks of Intent > Execute before anything is signed or sent', () => {
	it('normalises once: the message and the request carry the same transfer id and recipient', () => {
		const plan = planIntent(DEPOSIT, NOW);
		const header = { chainId: 1, nonce: 'n-1', expiresAt: NOW + 60_000 };
		const wire = wireIntent(plan, header);
		expect(wire.deposits[0].sparkTransferId).toBe('0123456789abcdef0123456789abcdef');
		expect(wire.recipient).toBe('0x52908400098527886e0f7030069857d2e4169ee7');
		// The planned message is the one the gateway rebuilds from the request (§2.4).
		expect(closeCanonicalBody(canonicalBodyOf(plan, header.chainId), header)).toBe(serializeCanonicalIntent(buildCanonicalIntent(wire)));
	});

	it('decodes the signed transaction once: its hash is the action, its chain is kept for the network check', () => {
		const plan = planIntent({ ...DEPOSIT, action: { evmTransaction: MAINNET_RAW } }, NOW);
		expect(plan.action).toEqual({ evmTransaction: `0x${MAINNET_RAW}` });
		expect(plan.canonicalAction).toEqual({ type: 'execute', signedTxHash: signedTxHashOf(`0x${MAINNET_RAW}`) });
		expect(plan.evm?.chainId).toBe(1n);
		expect(() => checkAgainstNetwork(plan, INFO)).not.toThrow();
		expect(reasonOf(() => checkAgainstNetwork(plan, { ...INFO, execution: { chainId: 5 } } as NetworkInfo))).toEqual({
			field: 'evmTransaction',
			reason: 'invalid_evm_transaction',
		});
	});

	it('refuses what the gateway would refuse, naming the field, with no placeholder values', () => {
		const twice = { ...DEPOSIT, deposits: [DEPOSIT.deposits[0], { ...DEPOSIT.deposits[0], sparkTransferId: '0123456789ABCDEF0123456789ABCDEF' }] };
		expect(reasonOf(() => planIntent(twice, NOW))).toEqual({ field: 'deposits[1].sparkTransferId', reason: 'duplicate_transfer_id' });
		expect(reasonOf(() => planIntent({ ...DEPOSIT, expiresAt: NOW + 25 * 3600_000 }, NOW)).field).toBe('expiresAt');
		expect(reasonOf(() => planIntent({ ...DEPOSIT, nonce: '' }, NOW)).field).toBe('nonce');
		expect(reasonOf(() => planIntent({ ...DEPOSIT, chainId: -1 }, NOW)).field).toBe('chainId');
		expect(reasonOf(() => planIntent({ ...DEPOSIT, action: { evmTransaction: '0x02' } }, NOW)).field).toBe('evmTransaction');
		// Unset options stay unset: Network Info and the derived nonce fill them later.
		expect(planIntent(DEPOSIT, NOW)).toMatchObject({ chainId: undefined, nonce: undefined, expiresAt: undefined });
	});

	it('checks against Network Info: the chain the user gave and the minimum deposit (§2.3a, §8)', () => {
		expect(reasonOf(() => checkAgainstNetwork(planIntent({ ...DEPOSIT, chainId: 7 }, NOW), INFO))).toEqual({ field: 'chainId', reason: 'chain_id_mismatch' });
		const small = planIntent({ ...DEPOSIT, deposits: [{ ...DEPOSIT.deposits[0], amount: '999' }] }, NOW);
		expect(reasonOf(() => checkAgainstNetwork(small, INFO))).toEqual({ field: 'deposits[0].amount', reason: 'below_min_deposit' });
	});
});
