/** The public client's normalisation before signing (issue 10), and statuses in any letter case. */
import { normalizeEvmTransaction, normalizeRecipient, normalizeTransferId, normalizeWireIntent } from '../../../nodes/shared/gateway/intentFields';
import { isFinalIntentStatus, normalizeIntentStatus } from '../../../nodes/shared/gateway/responses';
import { ProtocolError } from '../../../nodes/shared/errors';

describe('normalisation before signing', () => {
	it('transfer ids: dashed UUIDs and 0x become plain lower-case hex; anything else stays for validation', () => {
		expect(normalizeTransferId('0A1B2C3D-4E5F-6789-ABCD-EF0123456789')).toBe('0a1b2c3d4e5f6789abcdef0123456789');
		expect(normalizeTransferId('0xABCDEF')).toBe('abcdef');
		expect(normalizeTransferId('0XABCDEF')).toBe('abcdef');
		expect(normalizeTransferId('abcd-ef')).toBe('abcd-ef');
		expect(normalizeTransferId('0xzz')).toBe('0xzz');
	});

	it('recipient: checked as given, then lower case', () => {
		expect(normalizeRecipient('0x2c7536E3605D9C16a7a3D7b1898e529396a65c23')).toBe('0x2c7536e3605d9c16a7a3d7b1898e529396a65c23');
		expect(normalizeRecipient('0x2C7536E3605D9C16A7A3D7B1898E529396A65C23')).toBe('0x2c7536e3605d9c16a7a3d7b1898e529396a65c23');
		expect(() => normalizeRecipient('0x2c7536E3605D9C16a7a3D7b1898e529396a65C23')).toThrow(ProtocolError);
	});

	it('evmTransaction: always with 0x', () => {
		expect(normalizeEvmTransaction('02f8ab')).toBe('0x02f8ab');
		expect(normalizeEvmTransaction('0X02f8ab')).toBe('0x02f8ab');
		expect(normalizeEvmTransaction('0x02f8ab')).toBe('0x02f8ab');
	});

	it('a wire intent: deposits and action normalised, the rest untouched', () => {
		const out = normalizeWireIntent({
			chainId: 5,
			deposits: [{ sparkTransferId: '0xAB', asset: { type: 'btc' }, amount: '1' }],
			recipient: '0x2C7536E3605D9C16A7A3D7B1898E529396A65C23',
			nonce: 'N',
			expiresAt: 9,
		});
		expect(out).toEqual({
			chainId: 5,
			deposits: [{ sparkTransferId: 'ab', asset: { type: 'btc' }, amount: '1' }],
			recipient: '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23',
			nonce: 'N',
			expiresAt: 9,
		});
	});
});

describe('intent statuses in any letter case', () => {
	it('come out in the spec spelling; unknown values pass unchanged', () => {
		expect(normalizeIntentStatus('accepted')).toBe('ACCEPTED');
		expect(normalizeIntentStatus('Included_Pending_Finality')).toBe('INCLUDED_PENDING_FINALITY');
		expect(normalizeIntentStatus(' finalized ')).toBe('FINALIZED');
		expect(normalizeIntentStatus('queued')).toBe('queued');
		expect(normalizeIntentStatus(3)).toBe(3);
	});

	it('final states match in any case', () => {
		expect(['finalized', 'EXPIRED', 'Expired'].every(isFinalIntentStatus)).toBe(true);
		expect(['accepted', 'included_pending_finality', 'queued', undefined].some(isFinalIntentStatus)).toBe(false);
	});
});
