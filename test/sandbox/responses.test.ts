/**
 * The sandbox's own reading of the answers the services give (sandbox/orchestration/responses.ts,
 * sandbox/gateway/wireSchemas.ts): the shapes the sandbox answers in and holds itself to, lenient
 * where the spec and the public notes leave the answer open, keeping unknown fields. They are the
 * oracle's, not the nodes' parsers (those are tested in test/unit and over the fixtures).
 */
import type { ZodTypeAny } from 'zod';
import {
	AccumulationAddressSchema,
	AffiliateListSchema,
	ErrorBodySchema,
	LimitsResponseSchema,
	LiquidationAddressListSchema,
	OnrampResponseSchema,
	OrderByQuoteResponseSchema,
	QuoteResponseSchema,
	ReindexResultSchema,
	RoutesResponseSchema,
	StatusResponseSchema,
	SubmitResponseSchema,
	SyncResultSchema,
	WebhookEnvelopeSchema,
} from '../../sandbox/orchestration/responses';
import { describeZodError } from '../../sandbox/orchestration/wire';
import { ChallengeRequestSchema, GatewayErrorBodySchema, VerifyRequestSchema } from '../../sandbox/gateway/wireSchemas';
import { longestPatternInput } from '../harness/patternInputs';

/** Issues as "<path>: <message>" text (the sandbox's own wording), or 'ok'. */
function check(schema: ZodTypeAny, value: unknown): string {
	const result = schema.safeParse(value);
	return result.success ? 'ok' : describeZodError(result.error);
}

const quote = {
	amountMode: 'exact_in',
	estimatedOut: '1500',
	amountIn: '1000000',
	feeAmount: '100',
	roundingFeeAmount: '0',
	totalFeeAmount: '100',
	feeBps: 10,
	feeAsset: 'USDC',
	route: ['USDC', 'BTC'],
	quoteId: 'q_1',
	depositAddress: '0xdeposit',
	expiresAt: '2024-01-01T00:02:00.000Z',
};

describe('orchestration answers are lenient and keep unknown fields', () => {
	test('QuoteResponseSchema: spec 2.2 plus public-notes optional fields, unknowns kept', () => {
		expect(check(QuoteResponseSchema, quote)).toBe('ok');
		const rich = {
			...quote,
			readToken: 'rt',
			depositMemo: '12345',
			deliveryMode: 'fixed',
			priceLockMode: 'strict_requote',
			lockedMinAmountOut: '1400',
			networkCostAmount: '5',
			networkCostAsset: 'ETH',
			networkCostRequired: true,
			networkCosts: [{ type: 'gas', amount: '5', asset: 'ETH', nativeAmount: '5', nativeAsset: 'ETH', assumption: 'x' }],
			reviewedTokenIdentities: ['base:0x1'],
			appFeeAmount: '3',
			unsignedTx: { to: '0x', data: '0x' },
		};
		expect(QuoteResponseSchema.parse(rich)).toEqual(rich);
		expect(check(QuoteResponseSchema, { ...quote, priceLockMode: 'whatever' })).toMatch(/^priceLockMode: /);
		expect(check(QuoteResponseSchema, { ...quote, amountIn: 1 })).toMatch(/^amountIn: /);
		expect(check(QuoteResponseSchema, { ...quote, quoteId: undefined })).toBe('quoteId: Required');
	});

	test('RoutesResponseSchema: to is "all" or an array of strings or objects, or {except}', () => {
		const asset = {
			id: 'base:USDC',
			chain: 'base',
			asset: 'USDC',
			assetDisplayName: 'USD Coin',
			assetDisplaySymbol: 'USDC',
			contractAddress: '0x833589',
			decimals: 6,
			chainId: 'eip155:8453',
			chainDisplayName: 'Base',
			chainIcon: '/icons/base.svg',
			route: { to: 'all', exactOutTo: ['bitcoin:BTC'], fixedTo: [{ id: 'lightning:BTC' }], extra: 1 },
			newField: true,
		};
		const native = { ...asset, id: 'bitcoin:BTC', contractAddress: null, chainId: null, route: { to: [] } };
		const body = { assets: [asset, native, { ...asset, route: { to: ['x', { chain: 'ton', asset: 'GRAM' }] } }] };
		expect(RoutesResponseSchema.parse(body)).toEqual(body);
		expect(check(RoutesResponseSchema, { assets: [{ ...asset, route: { to: 'some' } }] })).toMatch(/^assets\[0\]\.route\.to: /);
		// public-notes "Routes listing (v2)": {except: [...]} in any of the three sets
		const except = { ...asset, route: { to: { except: ['litecoin:LTC'] }, exactOutTo: ['lightning:BTC'], fixedTo: { except: [] } } };
		expect(RoutesResponseSchema.parse({ assets: [except] })).toEqual({ assets: [except] });
		expect(check(RoutesResponseSchema, { assets: [{ ...asset, route: { to: { only: [] } } }] })).toMatch(/^assets\[0\]\.route\.to: /);
		expect(check(RoutesResponseSchema, { assets: [{ ...asset, decimals: '6' }] })).toMatch(/^assets\[0\]\.decimals: /);
	});

	test('deprecated address records, sync and reindex results', () => {
		const acc = {
			accumulationAddressId: 'acc_1',
			label: 'main',
			sourceChain: 'solana',
			sourceAsset: 'USDC',
			destinationAsset: 'BTC',
			recipientSparkAddress: 'sp1',
			feeBps: 0,
			slippageBps: 50,
			enabled: true,
			depositAddress: 'So1',
			createdAt: 't',
			updatedAt: 't',
			disabledAt: null,
			subscriptions: [{ provider: 'p', chain: 'solana', address: 'So1', status: 'pending', lastError: null, createdAt: 't', updatedAt: 't' }],
			appFees: [{ recipient: 'r', feeBps: 5, affiliateId: 'a' }],
			other: 1,
		};
		expect(AccumulationAddressSchema.parse(acc)).toEqual(acc);
		const liq = {
			liquidationAddressId: 'liq_1',
			label: null,
			sparkAddress: 'sp',
			l1DepositAddress: 'bc1',
			destination: { chain: 'base', asset: 'USDC', address: '0x1' },
			feeBps: 0,
			slippageBps: 50,
			enabled: false,
			createdAt: 't',
			updatedAt: 't',
			disabledAt: 't2',
			appFees: [],
		};
		expect(check(LiquidationAddressListSchema, { liquidationAddresses: [liq] })).toBe('ok');
		expect(check(SyncResultSchema, { ok: true, enabledCount: 2, solanaAddressCount: 1, errors: [{ provider: 'p', error: 'e' }] })).toBe('ok');
		expect(
			check(ReindexResultSchema, {
				ok: true,
				accumulationAddressId: 'acc_1',
				sourceChain: 'solana',
				sourceAsset: 'USDC',
				depositAddress: 'So1',
				relay: { message: 'm', triggeredCurrencies: [{ currency: 'c', symbol: 's', balance: '1' }], checkedCurrencies: 1, failedCurrencies: 0 },
			}),
		).toBe('ok');
		expect(check(SyncResultSchema, { ok: 'yes', enabledCount: 0, solanaAddressCount: 0, errors: [] })).toMatch(/^ok: /);
	});

	test('affiliates, submit, onramp, limits, order by quote, error body', () => {
		const aff = {
			affiliateId: 'a',
			feeBps: 20,
			payoutChain: 'base',
			payoutAsset: 'USDC',
			payoutAddress: '0x1',
			enabled: true,
			createdAt: 't',
			updatedAt: 't',
			disabledAt: null,
		};
		expect(check(AffiliateListSchema, { affiliates: [aff] })).toBe('ok');
		expect(check(SubmitResponseSchema, { orderId: 'o', status: 'processing' })).toBe('ok');
		expect(check(SubmitResponseSchema, { orderId: 'o', status: 'processing', readToken: 'rt' })).toBe('ok');
		expect(
			check(OnrampResponseSchema, {
				orderId: 'o',
				quoteId: 'q',
				depositAddress: 'lnbc1',
				paymentLinks: { lightning: 'lightning:lnbc1' },
				amountIn: '1000',
				estimatedOut: '990',
				feeAmount: '10',
				expiresAt: 't',
			}),
		).toBe('ok');
		expect(check(LimitsResponseSchema, { generatedAt: 't', routes: [{ any: 'thing' }] })).toBe('ok');
		expect(check(OrderByQuoteResponseSchema, { quoteId: 'q', order: null })).toBe('ok');
		expect(check(OrderByQuoteResponseSchema, { quoteId: 'q', order: { id: 'o', status: 'completed' } })).toBe('ok');
		expect(check(ErrorBodySchema, { error: { code: 'scope_required', message: 'm', details: {} } })).toBe('ok');
		expect(check(ErrorBodySchema, { error: 'boom' })).toMatch(/^error: /);
	});

	test('WebhookEnvelopeSchema requires data.id, data.status and data.updatedAt', () => {
		const env = { event: 'order.completed', timestamp: 't', data: { id: 'o', status: 'completed', updatedAt: 't', x: 1 }, y: 2 };
		expect(WebhookEnvelopeSchema.parse(env)).toEqual(env);
		expect(check(WebhookEnvelopeSchema, { ...env, data: { id: 'o', status: 'completed' } })).toBe('data.updatedAt: Required');
		expect(check(WebhookEnvelopeSchema, { data: env.data })).toBe('event: Required');
	});

	test('StatusResponseSchema accepts the flat and the nested status (public-notes)', () => {
		const flat = { id: 'ord_1', status: 'completed', updatedAt: 't', amountIn: '100', stages: ['deposit_confirmed', 'swapped', 'delivered'], extra: 'kept' };
		const nested = {
			order: { id: 'ord_1', status: 'completed', updatedAt: 't', amountIn: '100', extra: 'kept' },
			stages: [
				{ name: 'deposit_confirmed', status: 'completed', completedAt: 't1' },
				{ name: 'delivered', status: 'completed', completedAt: null },
			],
		};
		expect(check(StatusResponseSchema, flat)).toBe('ok');
		expect(check(StatusResponseSchema, nested)).toBe('ok');
	});
});

describe('gateway wire schemas', () => {
	test('requests are strict', () => {
		const publicKey = '02' + 'ab'.repeat(32);
		expect(ChallengeRequestSchema.safeParse({ publicKey }).success).toBe(true);
		expect(ChallengeRequestSchema.safeParse({ publicKey, extra: 1 }).success).toBe(false);
		expect(ChallengeRequestSchema.safeParse({ publicKey: '04' + 'ab'.repeat(32) }).success).toBe(false);
		expect(VerifyRequestSchema.safeParse({ publicKey, signature: '3006020101020101' }).success).toBe(true);
		expect(VerifyRequestSchema.safeParse({ publicKey, signature: 'xyz' }).success).toBe(false);
	});

	test('the error body is {error: {code, message}}', () => {
		expect(GatewayErrorBodySchema.parse({ error: { code: 'nonce_replayed', message: 'm' } }).error.code).toBe('nonce_replayed');
		expect(GatewayErrorBodySchema.safeParse({ message: 'm' }).success).toBe(false);
	});
});

describe('answers of hostile size are refused in linear time (no pattern scans a long field)', () => {
	// The time it takes: `npm run bench -- bounds`.
	it.each([100_000, 1_000_000])('%i-character amounts in a quote answer', (n) => {
		for (const value of [`${'1'.repeat(n)}x`, `${'0'.repeat(n)}1`, `${'1'.repeat(n)}e`, `1.${'0'.repeat(n)}1`]) {
			let parsed: { success: boolean } | undefined;
			expect(longestPatternInput(() => (parsed = QuoteResponseSchema.safeParse({ ...quote, estimatedOut: value, amountIn: value })))).toBeLessThanOrEqual(100);
			expect(parsed?.success).toBe(false);
		}
	});

	it('a long amount is refused by its length', () => {
		expect(QuoteResponseSchema.safeParse({ ...quote, amountIn: '1'.repeat(101) }).success).toBe(false);
	});
});
