/**
 * Intent > Execute's item as the core reads it (intentInput.ts): exact u64 amounts, the deposits
 * list or JSON, one action, expiry in milliseconds; each mistake a ProtocolError with its field and
 * the gateway's code as the reason.
 */
import { ProtocolError } from '../../../nodes/shared/errors';
import { actionFieldOf, intentInputOf, type IntentItem } from '../../../nodes/shared/gateway/intentInput';

const TRANSFER = 'ab'.repeat(16);
const RECIPIENT = `0x${'11'.repeat(20)}`;
const item = (over: Partial<IntentItem> = {}): IntentItem => ({ depositList: [], action: 'deposit', actionValue: RECIPIENT, ...over });

function refusal(over: Partial<IntentItem>): { field?: string; reason?: string; message: string } {
	try {
		intentInputOf(item(over));
	} catch (error) {
		expect(error).toBeInstanceOf(ProtocolError);
		const { field, reason, message } = error as ProtocolError;
		return { field, reason, message };
	}
	throw new Error('no refusal');
}

describe('intentInputOf', () => {
	it('reads the list, the action and the options; 0 chain id and empty nonce are unset', () => {
		const input = intentInputOf(
			item({ depositList: [{ sparkTransferId: ` ${TRANSFER} `, assetType: 'BTC', amount: 1000 }], expiresAt: '1900000000000', nonce: '', chainId: 0 }),
		);
		expect(input).toEqual({
			deposits: [{ sparkTransferId: TRANSFER, asset: { type: 'btc' }, amount: '1000' }],
			action: { recipient: RECIPIENT },
			expiresAt: 1_900_000_000_000,
			nonce: undefined,
			chainId: undefined,
		});
	});

	it('keeps u64 amounts of Deposits (JSON) exact, beyond 2^53', () => {
		const json = `[{"sparkTransferId":"${TRANSFER}","asset":{"type":"token","tokenId":"${'cd'.repeat(32)}"},"amount":18446744073709551615}]`;
		const [deposit] = intentInputOf(item({ depositsJson: json })).deposits;
		expect(deposit.amount).toBe(18446744073709551615n);
		expect(deposit.asset).toEqual({ type: 'token', tokenId: 'cd'.repeat(32) });
	});

	it('refuses an amount JavaScript no longer holds exactly', () => {
		const r = refusal({ depositList: [{ sparkTransferId: TRANSFER, amount: 2 ** 60 }] });
		expect(r).toMatchObject({ field: 'deposits[0].amount', reason: 'invalid_amount' });
		expect(r.message).toMatch(/pass it as a string of digits/);
	});

	it.each([
		['not JSON', '[{', /not valid JSON/],
		['not an array of objects', '[1]', /JSON array of/],
	])('refuses Deposits (JSON) that is %s', (_what, depositsJson, message) => {
		expect(refusal({ depositsJson })).toMatchObject({ field: 'depositsJson', reason: 'invalid_deposits', message: expect.stringMatching(message) });
	});

	it('refuses the list and JSON together', () => {
		const entry = { sparkTransferId: TRANSFER, amount: '1' };
		expect(refusal({ depositList: [entry], depositsJson: JSON.stringify([entry]) })).toMatchObject({ field: 'depositsJson', reason: 'invalid_deposits' });
	});

	it('refuses an empty action naming the parameter of the chosen action', () => {
		expect(actionFieldOf('execute')).toBe('evmTransaction');
		expect(refusal({ action: 'execute', actionValue: ' ' })).toMatchObject({ field: 'evmTransaction', reason: 'invalid_action' });
		expect(refusal({ actionValue: '' })).toMatchObject({ field: 'recipient', reason: 'invalid_action' });
	});

	it('refuses unix seconds and unparsable expiries', () => {
		expect(refusal({ expiresAt: 1_900_000_000 })).toMatchObject({ field: 'expiresAt', reason: 'invalid_expires_at', message: expect.stringMatching(/unix seconds/) });
		expect(refusal({ expiresAt: 'tomorrow' })).toMatchObject({ field: 'expiresAt', reason: 'invalid_expires_at' });
		expect(intentInputOf(item({ expiresAt: '2030-01-01T12:00:00Z' })).expiresAt).toBe(Date.parse('2030-01-01T12:00:00Z'));
	});

	it('refuses a nonce that is not text', () => {
		expect(refusal({ nonce: { a: 1 } })).toMatchObject({ field: 'nonce' });
	});
});
