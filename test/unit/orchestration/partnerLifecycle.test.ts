/**
 * The pure rules behind a standing address's deposits, pause and resume, an affiliate claim's body,
 * reading and end, listings that answer `nextOffset`, and a payout destination change (public-notes
 * "Standing deposit addresses", "Affiliate management and claims").
 */
import { ProtocolError } from '../../../nodes/shared/errors';
import { claimAmountAssetOf, claimEndOf, claimIdOf, claimRecordOf, claimRecordsOf } from '../../../nodes/shared/orchestration/claims';
import {
	claimPath,
	LISTING_MAX_ITEMS,
	nextPageAfter,
	payoutChangeOf,
	planClaim,
	planStandingEnabled,
	requestPathOf,
	samePayoutDestination,
	standingDepositsPath,
	standingPath,
	type PageProgress,
} from '../../../nodes/shared/orchestration/partnerPlan';

const failure = (fn: () => unknown): ProtocolError => {
	try {
		fn();
	} catch (error) {
		if (error instanceof ProtocolError) return error;
		throw error;
	}
	throw new Error('did not throw');
};

describe('listings with nextOffset', () => {
	const after = (p: Partial<PageProgress>) =>
		nextPageAfter({ wanted: undefined, pageMax: 100, page: { limit: 100, offset: 0 }, received: 100, pageLength: 100, nextOffset: undefined, ...p });

	it('follows nextOffset, stops on null, and counts the limit across pages', () => {
		expect(after({ nextOffset: 100 })).toEqual({ limit: 100, offset: 100 });
		// the service's nextOffset wins over counting (a page may skip or repeat nothing the client can see)
		expect(after({ nextOffset: '250' })).toEqual({ limit: 100, offset: 250 });
		expect(after({ nextOffset: null })).toBeUndefined();
		expect(after({ wanted: 130, nextOffset: 100 })).toEqual({ limit: 30, offset: 100 });
		expect(after({ wanted: 100, nextOffset: 100 })).toBeUndefined();
	});

	it('without nextOffset (older answers) a short page ends the list, a full one goes on by count', () => {
		expect(after({})).toEqual({ limit: 100, offset: 100 });
		expect(after({ pageLength: 40, received: 40 })).toBeUndefined();
	});

	it('an empty page ends the list; a nextOffset that does not move forward or is not a number is refused', () => {
		expect(after({ pageLength: 0, received: 0, nextOffset: 100 })).toBeUndefined();
		expect(failure(() => after({ page: { limit: 100, offset: 100 }, nextOffset: 100 })).reason).toBe('invalid_next_offset');
		expect(failure(() => after({ nextOffset: -1 })).reason).toBe('invalid_next_offset');
		expect(failure(() => after({ nextOffset: 'next' })).field).toBe('nextOffset');
		expect(failure(() => after({ nextOffset: { at: 1 } })).reason).toBe('invalid_next_offset');
	});

	it('bounds what one read collects', () => {
		expect(failure(() => after({ received: LISTING_MAX_ITEMS, page: { limit: 100, offset: LISTING_MAX_ITEMS - 100 }, nextOffset: LISTING_MAX_ITEMS })).reason).toBe('too_many');
	});
});

describe('standing addresses: deposits, pause and resume', () => {
	it('the deposits of a reference and the enabled switch, the reference as one encoded segment', () => {
		expect(standingPath('customer 42 ä', '/deposits')).toBe('/v1/standing-deposit-addresses/customer%2042%20%C3%A4/deposits');
		// issue 40: a "/" was sent as %2F, which a proxy may decode into another path
		for (const bad of ['customer/42', '..;', 'a\u0000', '%00']) expect(() => standingPath(bad)).toThrow(ProtocolError);
		expect(planStandingEnabled('a?b', false)).toEqual({ path: '/v1/standing-deposit-addresses/a%3Fb/enabled', body: { enabled: false } });
		expect(planStandingEnabled('r', true, '/v2/standing/{ref}:toggle')).toEqual({ path: '/v2/standing/r:toggle', body: { enabled: true } });
		expect(failure(() => standingPath('..', '/deposits')).field).toBe('reference');
		expect(standingDepositsPath('a b')).toBe('/v1/standing-deposit-addresses/a%20b/deposits');
		expect(standingDepositsPath('a b', '/v2/deposits/{ref}')).toBe('/v2/deposits/a%20b');
	});

	it.each([
		['', 'blank'],
		['v1/x/{ref}', 'invalid_path'],
		['//evil.example/{ref}', 'invalid_path'],
		['/v1/x/{ref}?enabled=1', 'invalid_path'],
		['/v1/x/{ref}#f', 'invalid_path'],
		['/v1/x /{ref}', 'invalid_path'],
		['/v1\\x/{ref}', 'invalid_path'],
		['/v1/x/enabled', 'invalid_path'],
		['/v1/../admin/{ref}', 'dot_segment'],
		['/v1/%2e%2E/{ref}', 'dot_segment'],
		['/v1/%zz/{ref}', 'invalid_path'],
		['/v1/{reference}/{ref}', 'invalid_path'],
		[`/${'a'.repeat(600)}/{ref}`, 'too_long'],
	])('path override %# is refused (%s)', (template, reason) => {
		const error = failure(() => requestPathOf(template, 'r'));
		expect([error.field, error.reason]).toEqual(['requestPath', reason]);
	});
});

describe('affiliate claims', () => {
	it('a plain claim sends no body; the optional body carries only what was set', () => {
		expect(planClaim({ affiliateId: 'aff_1', fields: {} })).toEqual({ path: '/v1/affiliates/aff_1/claim', body: undefined, fields: {} });
		expect(planClaim({ affiliateId: 'aff_1', fields: { settlementChain: 'base', settlementAsset: 'USDC', payoutAddress: '' } }).body).toEqual({
			settlementChain: 'base',
			settlementAsset: 'USDC',
		});
		const full = planClaim({
			affiliateId: 'aff_1',
			fields: { settlementChain: 'base', settlementAsset: 'USDC', payoutChain: 'ethereum', payoutAsset: 'USDT', payoutAddress: '0xabc' },
			additionalFields: { memo: 'x' },
		});
		expect(full.body).toEqual({ settlementChain: 'base', settlementAsset: 'USDC', payoutChain: 'ethereum', payoutAsset: 'USDT', payoutAddress: '0xabc', memo: 'x' });
		// a new address on the current payout chain needs no chain
		expect(planClaim({ affiliateId: 'aff_1', fields: { payoutAddress: '0xdef' } }).body).toEqual({ payoutAddress: '0xdef' });
	});

	it.each([
		[{ settlementChain: 'base' }, 'settlementAsset'],
		[{ settlementAsset: 'USDC' }, 'settlementChain'],
		[{ payoutChain: 'base', payoutAddress: '0x1' }, 'payoutAsset'],
		[{ payoutChain: 'base', payoutAsset: 'USDC' }, 'payoutAddress'],
		[{ payoutChain: 'lightning', payoutAsset: 'BTC', payoutAddress: 'a@b.c' }, 'payoutChain'],
	])('refuses %j naming %s', (fields, field) => {
		expect(failure(() => planClaim({ affiliateId: 'aff_1', fields })).field).toBe(field);
	});

	it('refuses an additional field the node already sends', () => {
		const error = failure(() => planClaim({ affiliateId: 'a', fields: { payoutAddress: '0x1' }, additionalFields: { payoutAddress: '0x2' } }));
		expect([error.field, error.reason]).toEqual(['additionalFields', 'collision']);
	});

	it('reads one claim back under /claims/{claimId}, encoded', () => {
		expect(claimPath('aff_1', 'clm 1')).toBe('/v1/affiliates/aff_1/claims/clm%201');
		expect(() => claimPath('aff_1', 'clm/1')).toThrow(ProtocolError);
		expect(failure(() => claimPath('aff_1', '..')).field).toBe('claimId');
		expect(failure(() => claimPath('aff_1', '')).reason).toBe('blank');
	});

	it('reads the newer {claim} and the older {claims[]} and flat answers', () => {
		const newer = { id: 'clm_1', settlementChain: 'base', settlementAsset: 'USDC', amount: '1' };
		expect(claimRecordsOf({ claim: newer })).toEqual([newer]);
		expect(claimRecordsOf({ claims: [{ claimId: 'c1', chain: 'base', asset: 'USDC' }, 'junk'] })).toEqual([{ claimId: 'c1', chain: 'base', asset: 'USDC' }]);
		expect(claimRecordsOf({ claimId: 'c2' })).toEqual([{ claimId: 'c2' }]);
		expect(claimRecordsOf(null)).toEqual([]);
		expect(claimRecordOf({ claim: newer })).toBe(newer);
		expect(claimIdOf(newer)).toBe('clm_1');
		expect(claimIdOf({ claimId: 'c1' })).toBe('c1');
		expect(claimAmountAssetOf(newer)).toEqual({ chain: 'base', asset: 'USDC' });
		expect(claimAmountAssetOf({ chain: 'solana', asset: 'USDC' })).toEqual({ chain: 'solana', asset: 'USDC' });
	});

	it('ends when paid (txHash) or failed for good; a retried attempt and any other status go on', () => {
		expect(claimEndOf({ status: 'processing', txHash: null })).toBeUndefined();
		expect(claimEndOf({ status: 'processing', txHash: '0xabc' })).toBe('paid');
		expect(claimEndOf({ status: 'completed', txHash: '0xabc' })).toBe('paid');
		expect(claimEndOf({ status: 'FAILED', errorMessage: null })).toBe('failed');
		expect(claimEndOf({ status: 'processing', errorMessage: 'relay down', nextAttemptAt: '2030-01-01T00:00:00Z' })).toBeUndefined();
		expect(claimEndOf({ status: 'processing', errorMessage: 'sanctioned address', nextAttemptAt: null })).toBe('failed');
		// a status the notes do not name ends nothing without a txHash
		expect(claimEndOf({ status: 'completed' })).toBeUndefined();
		expect(claimEndOf({ status: 'pending' })).toBeUndefined();
	});
});

describe('a payout destination change on upsert', () => {
	const planned = { payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: '0x2222222222222222222222222222222222222222' };
	const record = (overrides: Record<string, unknown> = {}) => ({ affiliateId: 'aff_shop', feeBps: 30, ...planned, ...overrides });

	it('none for a new affiliate or the same destination (an EVM address in another letter case is the same)', () => {
		expect(payoutChangeOf([record({ affiliateId: 'other', payoutAddress: '0x9' })], 'aff_shop', planned)).toBeUndefined();
		expect(payoutChangeOf([record()], 'aff_shop', planned)).toBeUndefined();
		expect(payoutChangeOf([record({ payoutAddress: planned.payoutAddress.toUpperCase().replace('0X', '0x') })], 'aff_shop', planned)).toBeUndefined();
		expect(samePayoutDestination({ ...planned, payoutAddress: 'bc1qAbC' }, { ...planned, payoutAddress: 'bc1qabc' })).toBe(false);
	});

	it('names the old and the new destination when the address, the asset or the chain differs', () => {
		const from = { payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: '0x1111111111111111111111111111111111111111' };
		expect(payoutChangeOf([record(from)], 'aff_shop', planned)).toEqual({ from, to: planned });
		expect(payoutChangeOf([record({ payoutAsset: 'USDT' })], 'aff_shop', planned)?.from?.payoutAsset).toBe('USDT');
		expect(payoutChangeOf([record({ payoutChain: 'ethereum' })], 'aff_shop', planned)?.from?.payoutChain).toBe('ethereum');
	});

	it('a record without a readable destination cannot rule a change out', () => {
		expect(payoutChangeOf([{ affiliateId: 'aff_shop', feeBps: 30 }], 'aff_shop', planned)).toEqual({ from: undefined, to: planned });
	});
});
