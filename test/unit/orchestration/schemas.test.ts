import type { ZodTypeAny } from 'zod';
import { AffiliateRefSchema, AmountSchema, AssetInputSchema, EstimateRequestSchema, formatZodError, normalizeStatusResponse, NormalizedAssetInputSchema, OfframpRequestSchema, OnrampRequestSchema, OrderSchema, ProtocolError, QuoteRequestSchema, ReviewedIdentitiesSchema, reachableHas, reachableIdsOf, routeTargetId, StageEntrySchema, SubmitRequestSchema, WebhookCreateRequestSchema, WebhookCreateResponseSchema } from '../../../nodes/shared/orchestration';

/** Issues as "<path>: <message>" text, or 'ok'. */
function check(schema: ZodTypeAny, value: unknown): string {
	const result = schema.safeParse(value);
	return result.success ? 'ok' : formatZodError(result.error);
}

const minimalQuote = {
	sourceChain: 'base',
	sourceAsset: 'USDC',
	destinationChain: 'bitcoin',
	destinationAsset: 'BTC',
	amount: '1000000',
	recipientAddress: 'bc1qexample',
};
const fees = (n: number) => Array.from({ length: n }, (_, i) => ({ recipient: `r${i}`, feeBps: 10 }));
const affiliates = (n: number) => Array.from({ length: n }, (_, i) => `aff_${i}`);

describe('building blocks', () => {
	test('AmountSchema is ^[0-9]+$', () => {
		for (const ok of ['0', '1', '007', '123456789012345678901234567890']) expect(check(AmountSchema, ok)).toBe('ok');
		for (const bad of ['', '1.5', '-1', '+1', '1e5', ' 1', '1 ', '0x10', '１']) {
			expect(check(AmountSchema, bad)).not.toBe('ok');
		}
		expect(check(AmountSchema, 100)).toMatch(/Expected string/);
	});

	test('AssetInputSchema: symbol, routing key or TON alias, by syntax (the routes listing says what exists)', () => {
		for (const ok of ['USDC', 'USD₮0', 'USDC.e', 'PathUSD', 'ethereum:USDC', 'ton:GRAM', 'TON', 'XLM', 'stellar:XLM']) {
			expect(check(AssetInputSchema, ok)).toBe('ok');
		}
		for (const bad of ['Nowhere:USDC', '', 'TON ', 'US DC', 'base:', 'a:b:c', 'X'.repeat(65)]) expect(check(AssetInputSchema, bad)).not.toBe('ok');
		expect(NormalizedAssetInputSchema.parse('TON')).toBe('ton:GRAM');
		expect(NormalizedAssetInputSchema.parse('GRAM')).toBe('GRAM');
	});

	test('AffiliateRefSchema: id or {affiliateId, feeBps}', () => {
		expect(check(AffiliateRefSchema, 'aff_1')).toBe('ok');
		expect(check(AffiliateRefSchema, { affiliateId: 'aff_1', feeBps: 25 })).toBe('ok');
		expect(check(AffiliateRefSchema, '')).not.toBe('ok');
		expect(check(AffiliateRefSchema, { affiliateId: 'aff_1', feeBps: 10001 })).toBe(
			'feeBps: Number must be less than or equal to 10000',
		);
		expect(check(AffiliateRefSchema, { feeBps: 1 })).toMatch(/^affiliateId: Required/);
	});

	test('ReviewedIdentitiesSchema: 1..32 strings', () => {
		const ids = (n: number) => Array.from({ length: n }, (_, i) => `base:0x${i}`);
		expect(check(ReviewedIdentitiesSchema, ids(0))).toMatch(/at least 1/);
		expect(check(ReviewedIdentitiesSchema, ids(1))).toBe('ok');
		expect(check(ReviewedIdentitiesSchema, ids(32))).toBe('ok');
		expect(check(ReviewedIdentitiesSchema, ids(33))).toMatch(/at most 32/);
		expect(check(ReviewedIdentitiesSchema, [1])).toMatch(/^\[0\]: Expected string/);
	});
});

describe('QuoteRequestSchema (spec 4.1)', () => {
	test('the minimal six-field request is valid', () => {
		expect(check(QuoteRequestSchema, minimalQuote)).toBe('ok');
	});

	test('each minimal field is required', () => {
		for (const key of Object.keys(minimalQuote)) {
			const body: Record<string, unknown> = { ...minimalQuote };
			delete body[key];
			expect(check(QuoteRequestSchema, body)).toBe(`${key}: Required`);
		}
		expect(check(QuoteRequestSchema, { ...minimalQuote, recipientAddress: '' })).toMatch(/^recipientAddress: /);
	});

	test('amount pattern', () => {
		expect(check(QuoteRequestSchema, { ...minimalQuote, amount: '1.5' })).toMatch(/^amount: /);
		expect(check(QuoteRequestSchema, { ...minimalQuote, amount: 1000000 })).toMatch(/^amount: Expected string/);
	});

	test('chains are chain names by syntax, never refused for being outside the spec\'s list; assets may use the TON alias', () => {
		expect(check(QuoteRequestSchema, { ...minimalQuote, sourceChain: 'Base' })).toMatch(/^sourceChain: "Base" is not a chain name/);
		expect(check(QuoteRequestSchema, { ...minimalQuote, sourceChain: 'stellar', sourceAsset: 'XLM' })).toBe('ok');
		expect(check(QuoteRequestSchema, { ...minimalQuote, sourceChain: 'x'.repeat(33) })).toMatch(/^sourceChain: /);
		expect(check(QuoteRequestSchema, { ...minimalQuote, destinationChain: 'ton', destinationAsset: 'TON' })).toBe('ok');
		expect(check(QuoteRequestSchema, { ...minimalQuote, refundChain: 'no where', refundAddress: 'x' })).toMatch(
			/^refundChain: /,
		);
		expect(check(QuoteRequestSchema, { ...minimalQuote, refundChain: 'base', refundAddress: '0x1' })).toBe('ok');
	});

	test('appFees: 0 / 1 / 16 / 17 entries, and entry limits', () => {
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: fees(0) })).toMatch(/^appFees: .*at least 1/);
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: fees(1) })).toBe('ok');
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: fees(16) })).toBe('ok');
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: fees(17) })).toMatch(/^appFees: .*at most 16/);
		const bad = fees(4);
		bad[3] = { recipient: 'r', feeBps: 1.5 };
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: bad })).toBe('appFees[3].feeBps: must be an integer');
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: [{ recipient: '', feeBps: 1 }] })).toMatch(
			/^appFees\[0\]\.recipient: /,
		);
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: [{ recipient: 'r', feeBps: -1 }] })).toMatch(
			/^appFees\[0\]\.feeBps: /,
		);
		// public-notes (fourth harvest): each 1 to 10000 bps, together at most 10000
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: [{ recipient: 'r', feeBps: 0, affiliateId: 'a' }] })).toMatch(/^appFees\[0\]\.feeBps: .*greater than or equal to 1/);
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: [{ recipient: 'r', fee: 10001 }] })).toMatch(/^appFees\[0\]\.fee: /);
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: [{ recipient: 'r', feeBps: 6000 }, { recipient: 's', fee: 4000 }] })).toBe('ok');
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: [{ recipient: 'r', feeBps: 6000 }, { recipient: 's', fee: 4001 }] })).toBe('appFees: add up to 10001 bps; together they may be at most 10000');
	});

	test('affiliateIds: 0 / 1 / 16 / 17 entries, ids and overrides', () => {
		expect(check(QuoteRequestSchema, { ...minimalQuote, affiliateIds: affiliates(0) })).toMatch(/at least 1/);
		expect(check(QuoteRequestSchema, { ...minimalQuote, affiliateIds: affiliates(1) })).toBe('ok');
		expect(check(QuoteRequestSchema, { ...minimalQuote, affiliateIds: affiliates(16) })).toBe('ok');
		expect(check(QuoteRequestSchema, { ...minimalQuote, affiliateIds: affiliates(17) })).toMatch(/at most 16/);
		expect(
			check(QuoteRequestSchema, { ...minimalQuote, affiliateIds: ['a', { affiliateId: 'b', feeBps: 30 }] }),
		).toBe('ok');
	});

	test('appFees and affiliateIds are mutually exclusive', () => {
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: fees(1), affiliateIds: affiliates(1) })).toBe(
			'affiliateIds: cannot be combined with appFees; send one or the other',
		);
		// affiliateId (single) may accompany appFees.
		expect(check(QuoteRequestSchema, { ...minimalQuote, appFees: fees(1), affiliateId: 'a' })).toBe('ok');
	});

	test('slippageBps: -1 / 0 / 1000 / 1001 / 1.5 / "50"', () => {
		expect(check(QuoteRequestSchema, { ...minimalQuote, slippageBps: -1 })).toMatch(/^slippageBps: .*greater than or equal to 0/);
		expect(check(QuoteRequestSchema, { ...minimalQuote, slippageBps: 0 })).toBe('ok');
		expect(check(QuoteRequestSchema, { ...minimalQuote, slippageBps: 1000 })).toBe('ok');
		expect(check(QuoteRequestSchema, { ...minimalQuote, slippageBps: 1001 })).toMatch(/^slippageBps: .*less than or equal to 1000/);
		expect(check(QuoteRequestSchema, { ...minimalQuote, slippageBps: 1.5 })).toBe('slippageBps: must be an integer');
		expect(check(QuoteRequestSchema, { ...minimalQuote, slippageBps: '50' })).toBe('slippageBps: must be a number');
	});

	test('modes: fixed delivery only with exact_in', () => {
		expect(check(QuoteRequestSchema, { ...minimalQuote, amountMode: 'exact_out' })).toBe('ok');
		expect(check(QuoteRequestSchema, { ...minimalQuote, deliveryMode: 'fixed' })).toBe('ok');
		expect(check(QuoteRequestSchema, { ...minimalQuote, deliveryMode: 'fixed', amountMode: 'exact_in' })).toBe('ok');
		expect(check(QuoteRequestSchema, { ...minimalQuote, deliveryMode: 'fixed', amountMode: 'exact_out' })).toBe(
			'deliveryMode: fixed delivery is only available with amountMode exact_in',
		);
		expect(check(QuoteRequestSchema, { ...minimalQuote, amountMode: 'exactIn' })).toMatch(/^amountMode: /);
		expect(check(QuoteRequestSchema, { ...minimalQuote, includeCalldata: 'yes' })).toMatch(/^includeCalldata: /);
		expect(check(QuoteRequestSchema, { ...minimalQuote, zeroconfEnabled: true, includeCalldata: false })).toBe('ok');
	});

	test('unknown top-level fields pass through untouched', () => {
		const body = { ...minimalQuote, partnerReference: 'po-1', someFutureField: { nested: [1, 2] } };
		const parsed = QuoteRequestSchema.parse(body);
		expect(parsed).toEqual(body);
		// Unknown keys inside app fee entries are kept as well, never silently stripped.
		expect(QuoteRequestSchema.parse({ ...minimalQuote, appFees: [{ recipient: 'r', feeBps: 1, x: 1 }] }).appFees).toEqual([
			{ recipient: 'r', feeBps: 1, x: 1 },
		]);
	});

	test('several problems are all reported', () => {
		const text = check(QuoteRequestSchema, { ...minimalQuote, amount: 'x', slippageBps: 5000, sourceChain: 'Mars' });
		expect(text.split('; ').map((line) => line.split(':')[0]).sort()).toEqual(['amount', 'slippageBps', 'sourceChain']);
	});
});

describe('other requests', () => {
	test('EstimateRequestSchema: route fields + amount; query-text slippage accepted', () => {
		const base = { ...minimalQuote };
		delete (base as Partial<typeof base>).recipientAddress;
		expect(check(EstimateRequestSchema, base)).toBe('ok');
		expect(EstimateRequestSchema.parse({ ...base, slippageBps: '50' }).slippageBps).toBe(50);
		expect(check(EstimateRequestSchema, { ...base, slippageBps: '1001' })).toMatch(/^slippageBps: /);
		expect(check(EstimateRequestSchema, { ...base, slippageBps: 'abc' })).toMatch(/^slippageBps: /);
		expect(check(EstimateRequestSchema, { ...base, deliveryMode: 'fixed', amountMode: 'exact_out' })).toMatch(
			/^deliveryMode: /,
		);
		expect(check(EstimateRequestSchema, { ...base, amount: undefined })).toBe('amount: Required');
	});

	test('SubmitRequestSchema', () => {
		expect(check(SubmitRequestSchema, { quoteId: 'q_1' })).toBe('ok');
		expect(check(SubmitRequestSchema, { quoteId: 'q_1', bitcoinTxid: 'ab', bitcoinVout: 0 })).toBe('ok');
		expect(check(SubmitRequestSchema, { quoteId: 'q_1', bitcoinVout: -1 })).toMatch(/^bitcoinVout: /);
		expect(check(SubmitRequestSchema, { quoteId: '' })).toMatch(/^quoteId: /);
		expect(SubmitRequestSchema.parse({ quoteId: 'q', extra: 1 })).toEqual({ quoteId: 'q', extra: 1 });
	});

	test('OnrampRequestSchema: exactly one of amount / amountFiatUsd', () => {
		const base = { destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: '0x1' };
		expect(check(OnrampRequestSchema, { ...base, amount: '100000' })).toBe('ok');
		expect(check(OnrampRequestSchema, { ...base, amountFiatUsd: '25.50' })).toBe('ok');
		expect(check(OnrampRequestSchema, { ...base, amountFiatUsd: '25' })).toBe('ok');
		expect(check(OnrampRequestSchema, base)).toBe('amount: required: amount (sats) or amountFiatUsd');
		expect(check(OnrampRequestSchema, { ...base, amount: '1', amountFiatUsd: '1' })).toMatch(/^amountFiatUsd: .*not both/);
		for (const bad of ['25.505', '-1', '1e2', '$25', '25.', '.5', '25,00']) {
			expect(check(OnrampRequestSchema, { ...base, amountFiatUsd: bad })).toMatch(/^amountFiatUsd: /);
		}
	});

	test('OfframpRequestSchema: $username or Lightning address, exact-in variable only', () => {
		const base = { sourceChain: 'base', sourceAsset: 'USDC', amount: '1000000' };
		expect(check(OfframpRequestSchema, { ...base, recipientAddress: '$alice' })).toBe('ok');
		expect(check(OfframpRequestSchema, { ...base, recipientAddress: 'alice@getalby.com' })).toBe('ok');
		for (const bad of ['alice', '$', 'alice@', '@host.com', 'bc1qxyz', 'alice@host']) {
			expect(check(OfframpRequestSchema, { ...base, recipientAddress: bad })).toMatch(/^recipientAddress: /);
		}
		expect(check(OfframpRequestSchema, { ...base, recipientAddress: '$a', amountMode: 'exact_out' })).toMatch(
			/^amountMode: /,
		);
		expect(check(OfframpRequestSchema, { ...base, recipientAddress: '$a', deliveryMode: 'fixed' })).toMatch(
			/^deliveryMode: /,
		);
	});

	test('WebhookCreateRequestSchema: http(s) URL', () => {
		expect(check(WebhookCreateRequestSchema, { url: 'https://example.com/hook' })).toBe('ok');
		expect(check(WebhookCreateRequestSchema, { url: 'http://127.0.0.1:5678/webhook/x' })).toBe('ok');
		for (const bad of ['ftp://example.com', 'example.com/hook', '', 'javascript:alert(1)', 'https://']) {
			expect(check(WebhookCreateRequestSchema, { url: bad })).toMatch(/^url: /);
		}
	});
});

describe('the nodes\' response schemas and helpers (the sandbox\'s own are tested in test/sandbox/responses.test.ts)', () => {
	test('routeTargetId reads string ids, {id} and {chain, asset} targets', () => {
		expect(routeTargetId('bitcoin:BTC')).toBe('bitcoin:BTC');
		expect(routeTargetId({ id: 'lightning:BTC' })).toBe('lightning:BTC');
		expect(routeTargetId({ chain: 'ton', asset: 'GRAM' })).toBe('ton:GRAM');
		expect(routeTargetId({ foo: 1 })).toBeUndefined();
	});

	test('reachableIdsOf reads "all", arrays and {except} sets; reachableHas asks them', () => {
		const except = reachableIdsOf({ except: ['litecoin:LTC', { chain: 'ton', asset: 'GRAM' }] });
		expect(reachableHas(except, 'litecoin:LTC')).toBe(false);
		expect(reachableHas(except, 'ton:GRAM')).toBe(false);
		expect(reachableHas(except, 'bitcoin:BTC')).toBe(true);
		expect(reachableHas(reachableIdsOf('all'), 'bitcoin:BTC')).toBe(true);
		const only = reachableIdsOf(['bitcoin:BTC', { id: 'lightning:BTC' }]);
		expect(reachableHas(only, 'lightning:BTC')).toBe(true);
		expect(reachableHas(only, 'litecoin:LTC')).toBe(false);
		expect(reachableHas(reachableIdsOf(undefined), 'bitcoin:BTC')).toBe(false);
	});

	test('WebhookCreateResponseSchema: webhookId and the secret shown once', () => {
		expect(check(WebhookCreateResponseSchema, { webhookId: 'wh_1', secret: 's' })).toBe('ok');
		expect(check(WebhookCreateResponseSchema, { webhookId: 'wh_1' })).toBe('secret: Required');
	});

	test('OrderSchema: nullable members and fee payouts', () => {
		const order = {
			id: 'o',
			status: 'completed',
			updatedAt: 't',
			quoteId: null,
			amountIn: null,
			feeAmount: null,
			paymentIntent: { amount: '1' },
			amountFiatUsd: '25.00',
			amountFiatCurrency: 'USD',
			spotUsdPerBtc: '65000.12',
			payLinkId: null,
			zeroconfOffer: null,
			feePlan: { appFees: [] },
			feePayouts: {
				entries: [
					{ role: 'app_fee', affiliateId: 'a', leg: 'holdback', amount: '100', platformCutAmount: '20', recipientAmount: '80' },
					{ role: 'recipient_payout', leg: 'full', amount: '900', platformCutAmount: null, recipientAmount: null },
				],
			},
			swap: null,
			unknownMember: 'kept',
		};
		expect(OrderSchema.parse(order)).toEqual(order);
		// issue 21: roles and legs the package does not know pass through; a missing role still fails
		const newKinds = { ...order, feePayouts: { entries: [{ role: 'affiliate_bonus', leg: 'deferred', amount: '1', x: 1 }] } };
		expect(OrderSchema.parse(newKinds)).toEqual(newKinds);
		const noRole = { ...order, feePayouts: { entries: [{ leg: 'full', amount: '1' }] } };
		expect(check(OrderSchema, noRole)).toMatch(/^feePayouts\.entries\[0\]\.role: /);
		expect(check(OrderSchema, { id: 'o', status: 'superseded' })).toBe('ok');
	});

});

describe('status responses: flat and nested', () => {
	const flat = {
		id: 'ord_1',
		status: 'completed',
		updatedAt: 't',
		amountIn: '100',
		stages: ['deposit_confirmed', 'swapped', 'delivered'],
		extra: 'kept',
	};
	const nested = {
		order: { id: 'ord_1', status: 'completed', updatedAt: 't', amountIn: '100', extra: 'kept' },
		stages: [
			{ name: 'deposit_confirmed', status: 'completed', completedAt: 't1' },
			{ name: 'swapped', status: 'completed', completedAt: 't2' },
			{ name: 'delivered', status: 'completed', completedAt: null },
		],
	};

	test('StageEntrySchema accepts both stage forms', () => {
		expect(check(StageEntrySchema, 'swept')).toBe('ok');
		expect(check(StageEntrySchema, { name: 'swept' })).toBe('ok');
		expect(check(StageEntrySchema, { status: 'completed' })).not.toBe('ok');
	});

	test('normalizeStatusResponse gives one shape for both', () => {
		const a = normalizeStatusResponse(flat);
		const b = normalizeStatusResponse(nested);
		for (const n of [a, b]) {
			expect(n.id).toBe('ord_1');
			expect(n.status).toBe('completed');
			expect(n.stages).toEqual(['deposit_confirmed', 'swapped', 'delivered']);
			expect(n.isFinal).toBe(true);
			expect(n.order).toEqual({ id: 'ord_1', status: 'completed', updatedAt: 't', amountIn: '100', extra: 'kept' });
		}
		expect(a.stageDetails).toEqual(flat.stages);
		expect(b.stageDetails).toEqual(nested.stages);
	});

	test('isFinal follows the status', () => {
		expect(normalizeStatusResponse({ ...flat, status: 'refunding' }).isFinal).toBe(false);
		expect(normalizeStatusResponse({ ...flat, status: 'unfulfilled' }).isFinal).toBe(false);
		expect(normalizeStatusResponse({ ...flat, status: 'expired' }).isFinal).toBe(true);
		expect(normalizeStatusResponse({ order: { id: 'o', status: 'processing' }, stages: [] })).toMatchObject({
			status: 'processing',
			stages: [],
			isFinal: false,
		});
	});

	test('invalid bodies throw a ProtocolError that says what is wrong', () => {
		// stages may be missing (issue 10); a missing status may not
		expect(() => normalizeStatusResponse({ id: 'o', stages: [] })).toThrow('Invalid status response: status: Required');
		expect(() => normalizeStatusResponse({ order: { status: 'x' }, stages: [] })).toThrow(/order\.id: Required/);
		expect(() => normalizeStatusResponse('nope')).toThrow(ProtocolError);
		expect(() => normalizeStatusResponse(null)).toThrow(ProtocolError);
		let caught: unknown;
		try {
			normalizeStatusResponse({ id: 'o', status: 'x', stages: [1] });
		} catch (err) {
			caught = err;
		}
		expect(caught).toMatchObject({ reason: 'invalid_status_response', field: 'stages[0]' });
	});
});
