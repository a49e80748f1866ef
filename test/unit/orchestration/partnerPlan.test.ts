import { ProtocolError } from '../../../nodes/shared/errors';
import {
	affiliateIdOf,
	affiliatePath,
	planClaim,
	nextPage,
	payoutDestinationsOf,
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
		expect(planStandingInstruction(input({ reference: 'a b?c#d%' }))).toEqual({
			path: '/v1/standing-deposit-addresses/a%20b%3Fc%23d%25',
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
		[{ destination: { chain: 'Mars', asset: 'USDC', address: 'x' } }, 'destinationChain', 'invalid_chain'],
		[{ destination: { chain: 'base', asset: 'US DC', address: 'x' } }, 'destinationAsset', 'invalid_asset'],
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
	it('an ID by the docs\' rule: trimmed, lowercased, then ^[a-z0-9][a-z0-9_-]{0,63}$; sent in that form', () => {
		expect(affiliateIdOf('aff_sandbox_alpha-1')).toBe('aff_sandbox_alpha-1');
		expect(affiliateIdOf('  Aff_Partner_SHOP ')).toBe('aff_partner_shop');
		expect(affiliateIdOf('x'.repeat(64))).toBe('x'.repeat(64));
		for (const bad of ['', '  ', '-a', '_a', 'a/b', 'a b', 'a.b', '..', 'x'.repeat(65), 'é']) expect(() => affiliateIdOf(bad)).toThrow(ProtocolError);
		expect(failure(() => affiliateIdOf('aff.shop', 'affiliateIds[2].affiliateId'))).toMatchObject({
			field: 'affiliateIds[2].affiliateId',
			reason: 'invalid_affiliate_id',
			message: '"aff.shop" is not an affiliate ID: 1 to 64 letters, digits, "_" or "-", starting with a letter or digit (trimmed and lowercased first)',
		});
	});

	it('a claim\'s chains are chain names by syntax, never the spec\'s list', () => {
		const fields = { settlementChain: 'stellar', settlementAsset: 'USDC', payoutChain: 'stellar', payoutAsset: 'XLM', payoutAddress: 'G' };
		expect(planClaim({ affiliateId: 'AFF_1', fields })).toEqual({ path: '/v1/affiliates/aff_1/claim', body: fields, fields });
		const bad = failure(() => planClaim({ affiliateId: 'aff_1', fields: { ...fields, settlementChain: 'Mars' } }));
		expect([bad.field, bad.reason]).toEqual(['settlementChain', 'invalid_chain']);
		const asset = failure(() => planClaim({ affiliateId: 'aff_1', fields: { ...fields, payoutAsset: 'X Y' } }));
		expect([asset.field, asset.reason]).toEqual(['payoutAsset', 'invalid_asset']);
	});

	it('a claim\'s Additional Body Fields are checked as the form is: no payout destination slips past its rules', () => {
		// issue 40: {"payoutAddress": ...} alone in the raw body skipped every check before
		const raw = (additionalFields: Record<string, unknown>) => planClaim({ affiliateId: 'aff_1', fields: {}, additionalFields });
		expect(raw({ payoutAddress: '0xabc' })).toEqual({ path: '/v1/affiliates/aff_1/claim', body: { payoutAddress: '0xabc' }, fields: { payoutAddress: '0xabc' } });
		const lightning = failure(() => raw({ payoutChain: 'lightning', payoutAsset: 'BTC', payoutAddress: 'x@y.z' }));
		expect([lightning.field, lightning.reason]).toEqual(['payoutChain', 'invalid_payout_destination']);
		const unpaired = failure(() => raw({ payoutChain: 'base', payoutAddress: '0xabc' }));
		expect([unpaired.field, unpaired.reason]).toEqual(['payoutAsset', 'blank']);
		const chain = failure(() => raw({ payoutChain: 'Mars', payoutAsset: 'USDC', payoutAddress: '0xabc' }));
		expect([chain.field, chain.reason]).toEqual(['payoutChain', 'invalid_chain']);
		const notText = failure(() => raw({ payoutAddress: { to: '0xabc' } }));
		expect([notText.field, notText.reason]).toEqual(['additionalFields', 'type']);
		for (const hidden of [{ payoutDestination: { address: '0xabc' } }, { recipientAddress: '0xabc' }, { extra: { walletAddress: '0xabc' } }]) {
			const refused = failure(() => raw(hidden));
			expect([refused.field, refused.reason]).toEqual(['additionalFields', 'unchecked_address_field']);
		}
		expect(raw({ memo: 'x' }).body).toEqual({ memo: 'x' });
	});

	it('a standing-address fee override is 1 to 9999 bps (public-notes, fourth harvest)', () => {
		const zero = failure(() => planStandingInstruction(input({ affiliates: [{ affiliateId: 'aff_a', feeBps: 0 }] })));
		expect([zero.field, zero.reason]).toEqual(['affiliateIds[0].feeBps', 'range']);
		expect(planStandingInstruction(input({ affiliates: [{ affiliateId: 'aff_a', feeBps: 1 }] })).body.affiliateIds).toEqual([{ affiliateId: 'aff_a', feeBps: 1 }]);
	});

	it('standing addresses and affiliate paths send the normalized ID', () => {
		expect(planStandingInstruction(input({ affiliates: [{ affiliateId: ' AFF_A ' }] })).body.affiliateIds).toEqual(['aff_a']);
		const twice = failure(() => planStandingInstruction(input({ affiliates: [{ affiliateId: 'aff_a' }, { affiliateId: 'AFF_A' }] })));
		expect([twice.field, twice.reason]).toEqual(['affiliateIds[1].affiliateId', 'duplicate']);
		expect(affiliatePath(' Aff_A ', '/claims')).toBe('/v1/affiliates/aff_a/claims');
	});

	it('a profile: fee under 10,000 bps, a chain of the service but not Lightning', () => {
		const ok = { affiliateId: 'a', feeBps: 9999, payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: '0x' };
		expect(planAffiliateProfile(ok)).toEqual({ path: '/v1/affiliates/a', body: { feeBps: 9999, payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: '0x' } });
		expect(failure(() => planAffiliateProfile({ ...ok, payoutChain: 'lightning' })).reason).toBe('invalid_payout_destination');
		expect(failure(() => planAffiliateProfile({ ...ok, feeBps: undefined })).field).toBe('feeBps');
		expect(failure(() => planAffiliateProfile({ ...ok, payoutChain: 'Mars' })).reason).toBe('invalid_chain');
		// a chain outside the spec's list is a name like any other: the routes listing decides (checkOffered)
		expect(planAffiliateProfile({ ...ok, payoutChain: 'stellar' }).body.payoutChain).toBe('stellar');
	});

	it('a profile fee of at least 1 bps: the live service refuses 0 (public-notes "Upsert: feeBps 1..9999, required")', () => {
		const ok = { affiliateId: 'a', feeBps: 1, payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: '0x' };
		expect(planAffiliateProfile(ok).body).toMatchObject({ feeBps: 1 });
		const zero = failure(() => planAffiliateProfile({ ...ok, feeBps: 0 }));
		expect([zero.field, zero.reason]).toEqual(['feeBps', 'range']);
		expect(zero.message).toMatch(/from 1 to 9999/);
	});

	it('pages: all in pages of the maximum until a short page; a limit across pages', () => {
		expect(nextPage(undefined, 1000, 0)).toEqual({ limit: 1000, offset: 0 });
		expect(nextPage(undefined, 1000, 1000, false)).toEqual({ limit: 1000, offset: 1000 });
		expect(nextPage(undefined, 1000, 1400, true)).toBeUndefined();
		expect(nextPage(250, 200, 0)).toEqual({ limit: 200, offset: 0 });
		expect(nextPage(250, 200, 200, false)).toEqual({ limit: 50, offset: 200 });
		expect(nextPage(250, 200, 250, false)).toBeUndefined();
	});

	it('payout destinations read leniently (the answer\'s shape is not shown): a list under destinations or payoutDestinations, or the answer itself', () => {
		const base = { chain: 'base', asset: 'USDC', chainDisplayName: 'Base' };
		expect(payoutDestinationsOf({ destinations: [base] })).toEqual([base]);
		expect(payoutDestinationsOf({ payoutDestinations: [base, 'solana:USDC'] })).toEqual([base, { chain: 'solana', asset: 'USDC' }]);
		expect(payoutDestinationsOf([base, 'not a pair', 7, null])).toEqual([base]);
		expect(payoutDestinationsOf({ destinations: [] })).toEqual([]);
		for (const none of [{}, { destinations: 'base:USDC' }, null, 'text', undefined]) expect(payoutDestinationsOf(none)).toBeUndefined();
	});
});

describe('webhook paths', () => {
	it('encodes the id as one segment, recovery under /recovery', () => {
		expect(webhookPath('wh 1', 'orders')).toBe('/v1/webhooks/wh%201');
		expect(() => webhookPath('wh/1', 'orders')).toThrow(/must not contain "\/"/);
		expect(webhookPath('whr_1', 'recovery')).toBe('/v1/webhooks/recovery/whr_1');
		expect(() => webhookPath('..', 'orders')).toThrow(ProtocolError);
	});
});
