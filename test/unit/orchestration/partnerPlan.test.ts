import { ProtocolError } from '../../../nodes/shared/errors';
import {
	affiliateIdOf,
	nextPage,
	planAffiliateProfile,
	planStandingInstruction,
	referenceSegment,
	type StandingInput,
} from '../../../nodes/shared/orchestration/partnerPlan';
import { webhookPath } from '../../../nodes/shared/orchestration/webhookPaths';

const input = (overrides: Partial<StandingInput> = {}): StandingInput => ({
	reference: 'ref',
	destination: { chain: 'base', asset: 'USDC', address: '0xabc' },
	affiliates: [],
	...overrides,
});

const failure = (fn: () => unknown): ProtocolError => {
	try {
		fn();
	} catch (error) {
		return error as ProtocolError;
	}
	throw new Error('did not throw');
};

describe('planStandingInstruction', () => {
	it('sends only what was set, the reference as one encoded segment', () => {
		expect(planStandingInstruction(input({ reference: 'a/b?c#d%' }))).toEqual({
			path: '/v1/standing-deposit-addresses/a%2Fb%3Fc%23d%25',
			body: { destination: { chain: 'base', asset: 'USDC', address: '0xabc' } },
		});
		const full = planStandingInstruction(
			input({ slippageBps: 0, feeBps: 9000, affiliates: [{ affiliateId: 'a1' }, { affiliateId: 'a2', feeBps: 999 }], refundAddresses: { bitcoin: 'bc1' } }),
		);
		expect(full.body).toEqual({
			destination: { chain: 'base', asset: 'USDC', address: '0xabc' },
			slippageBps: 0,
			feeBps: 9000,
			affiliateIds: ['a1', { affiliateId: 'a2', feeBps: 999 }],
			refundAddresses: { bitcoin: 'bc1' },
		});
	});

	it.each([
		[{ feeBps: 9000, affiliates: [{ affiliateId: 'a', feeBps: 1000 }] }, 'feeBps', 'fee_total'],
		[{ feeBps: 10000 }, 'feeBps', 'range'],
		[{ slippageBps: 10001 }, 'slippageBps', 'range'],
		[{ affiliates: Array.from({ length: 17 }, (_, n) => ({ affiliateId: `a${n}` })) }, 'affiliateIds', 'too_many'],
		[{ affiliates: [{ affiliateId: 'a' }, { affiliateId: 'a' }] }, 'affiliateIds[1].affiliateId', 'duplicate'],
		[{ affiliates: [{ affiliateId: 'a b' }] }, 'affiliateIds[0].affiliateId', 'invalid_affiliate_id'],
		[{ reference: '' }, 'reference', 'blank'],
		[{ reference: '.' }, 'reference', 'dot_segment'],
		[{ reference: 'r'.repeat(129) }, 'reference', 'too_long'],
		[{ destination: { chain: 'mars', asset: 'USDC', address: 'x' } }, 'destinationChain', 'invalid_chain'],
		[{ destination: { chain: 'base', asset: 'USDC', address: '' } }, 'destinationAddress', 'blank'],
	])('refuses %j naming %s', (overrides, field, reason) => {
		const error = failure(() => planStandingInstruction(input(overrides as Partial<StandingInput>)));
		expect([error.field, error.reason]).toEqual([field, reason]);
	});

	it('accepts 128 characters and 9,999 bps in total', () => {
		expect(referenceSegment('r'.repeat(128))).toHaveLength(128);
		expect(() => planStandingInstruction(input({ feeBps: 9000, affiliates: [{ affiliateId: 'a', feeBps: 999 }] }))).not.toThrow();
	});
});

describe('affiliates', () => {
	it('an ID: letters, digits, _ - . up to 128, starting with a letter or digit', () => {
		expect(affiliateIdOf('aff_sandbox.alpha-1')).toBe('aff_sandbox.alpha-1');
		for (const bad of ['', '-a', 'a/b', 'a b', '..', 'x'.repeat(129), 'é']) expect(() => affiliateIdOf(bad)).toThrow(ProtocolError);
	});

	it('a profile: fee under 10,000 bps, a chain of the service but not Lightning', () => {
		const ok = { affiliateId: 'a', feeBps: 9999, payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: '0x' };
		expect(planAffiliateProfile(ok)).toEqual({ path: '/v1/affiliates/a', body: { feeBps: 9999, payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: '0x' } });
		expect(failure(() => planAffiliateProfile({ ...ok, payoutChain: 'lightning' })).reason).toBe('invalid_payout_destination');
		expect(failure(() => planAffiliateProfile({ ...ok, feeBps: undefined })).field).toBe('feeBps');
		expect(failure(() => planAffiliateProfile({ ...ok, payoutChain: 'mars' })).reason).toBe('invalid_chain');
	});

	it('pages: all in pages of the maximum until a short page; a limit across pages', () => {
		expect(nextPage(undefined, 1000, 0)).toEqual({ limit: 1000, offset: 0 });
		expect(nextPage(undefined, 1000, 1000, false)).toEqual({ limit: 1000, offset: 1000 });
		expect(nextPage(undefined, 1000, 1400, true)).toBeUndefined();
		expect(nextPage(250, 200, 0)).toEqual({ limit: 200, offset: 0 });
		expect(nextPage(250, 200, 200, false)).toEqual({ limit: 50, offset: 200 });
		expect(nextPage(250, 200, 250, false)).toBeUndefined();
	});
});

describe('webhook paths', () => {
	it('encodes the id as one segment, recovery under /recovery', () => {
		expect(webhookPath('wh/1', 'orders')).toBe('/v1/webhooks/wh%2F1');
		expect(webhookPath('whr_1', 'recovery')).toBe('/v1/webhooks/recovery/whr_1');
		expect(() => webhookPath('..', 'orders')).toThrow(ProtocolError);
	});
});
