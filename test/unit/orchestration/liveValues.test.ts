/**
 * The request side open to what the live service adds (public-notes "Chains", app fees, affiliate
 * IDs): chains and assets by syntax, then against the routes listing when it could be read; the
 * live app-fee form; the docs' affiliate ID rule; Create Offramp's refund rule and the payable guard.
 */
import { checkOffered, ROUTES_LISTING, type OfferedRoutes } from '../../../nodes/shared/orchestration/enums';
import { completeOnramp, planOnramp, type OnrampInput } from '../../../nodes/shared/orchestration/orderPlan';
import {
	completeOfframp,
	completeQuote,
	planQuote,
	unpayableQuote,
	type QuoteInput,
	type RoutesLookup,
} from '../../../nodes/shared/orchestration/quotePlan';
import type { RouteAsset } from '../../../nodes/shared/orchestration/responseSchemas';
import { EstimateDraftSchema, OfframpDraftSchema, OnrampRequestSchema, QuoteRequestSchema } from '../../../nodes/shared/orchestration/schemas';
import { protocolFailure } from './protocolFailure';

const asset = (chain: string, symbol: string, decimals: number): RouteAsset => ({ id: `${chain}:${symbol}`, chain, asset: symbol, decimals, route: { to: 'all' } }) as RouteAsset;

/** A routes listing with a chain the spec does not list (stellar), as the node's catalogue answers. */
function listing(assets: RouteAsset[]): RoutesLookup {
	const byId = new Map(assets.map((a) => [a.id, a]));
	return {
		find: (chain, input) => (input.includes(':') ? byId.get(input) : byId.get(`${chain}:${input}`)),
		byRoutingKey: (id) => byId.get(id),
		decimalsOfSymbol: () => undefined,
		chainNames: () => [...new Set(assets.map((a) => a.chain))].sort(),
		idsOnChain: (chain) => assets.filter((a) => a.chain === chain).map((a) => a.id),
	};
}

const LISTED = listing([asset('base', 'USDC', 6), asset('bitcoin', 'BTC', 8), asset('lightning', 'BTC', 8), asset('stellar', 'USDC', 7), asset('stellar', 'XLM', 7)]);

const QUOTE: QuoteInput = {
	request: {
		sourceChain: 'stellar',
		sourceAsset: 'USDC',
		destinationChain: 'bitcoin',
		destinationAsset: 'BTC',
		recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
		amountMode: 'exact_in',
	},
	amount: { value: '12.5', format: 'decimal' },
	additionalFields: {},
	idempotencyKey: undefined,
	isClientKey: false,
	refundRule: true,
};

const withRequest = (request: Record<string, unknown>, rest: Partial<QuoteInput> = {}): QuoteInput => ({ ...QUOTE, ...rest, request: { ...QUOTE.request, ...request } });

describe('checkOffered: the routes listing is the authority on chains and assets', () => {
	it('lets through what the listing offers, the spec\'s list or not', () => {
		expect(() =>
			checkOffered(LISTED, [
				{ chainField: 'sourceChain', chain: 'stellar', assetField: 'sourceAsset', asset: 'XLM' },
				{ chainField: 'destinationChain', chain: 'base', assetField: 'destinationAsset', asset: 'stellar:USDC' },
			]),
		).not.toThrow();
	});

	it('refuses a chain the listing does not offer, naming the field, the value and the listing', () => {
		const error = protocolFailure(() => checkOffered(LISTED, [{ chainField: 'sourceChain', chain: 'foo', assetField: 'sourceAsset', asset: 'USDC' }]));
		expect(error).toMatchObject({
			field: 'sourceChain',
			reason: 'unsupported_route',
			message: `"foo" is not a chain the routes listing offers (${ROUTES_LISTING} lists 4: base, bitcoin, lightning, stellar)`,
		});
	});

	it('refuses an asset the listing does not offer on the chain, and a routing key whose chain it does not offer', () => {
		const onChain = protocolFailure(() => checkOffered(LISTED, [{ chainField: 'sourceChain', chain: 'stellar', assetField: 'sourceAsset', asset: 'EURC' }]));
		expect(onChain).toMatchObject({
			field: 'sourceAsset',
			message: `"EURC" is not an asset the routes listing offers on stellar (${ROUTES_LISTING} lists there: stellar:USDC, stellar:XLM)`,
		});
		const keyed = protocolFailure(() => checkOffered(LISTED, [{ chainField: 'destinationChain', chain: 'base', assetField: 'destinationAsset', asset: 'foo:USDC' }]));
		expect(keyed.field).toBe('destinationAsset');
		expect(keyed.message).toMatch(/^"foo:USDC" names the chain "foo", which the routes listing does not offer \(GET \/v2\/orchestration\/routes lists 4: /);
	});

	it('without a listing (unreadable) or with an empty one, refuses nothing: the syntax was checked, the service decides', () => {
		const side = [{ chainField: 'sourceChain', chain: 'foo', assetField: 'sourceAsset', asset: 'BAR' }];
		expect(() => checkOffered(undefined, side)).not.toThrow();
		const empty: OfferedRoutes = { chainNames: () => [], find: () => undefined, idsOnChain: () => [] };
		expect(() => checkOffered(empty, side)).not.toThrow();
	});

	it('names at most 50 chains and 20 assets of a chain, then how many more', () => {
		const many = listing(Array.from({ length: 55 }, (_, n) => asset(`chain${String(n).padStart(2, '0')}`, 'USDC', 6)));
		const error = protocolFailure(() => checkOffered(many, [{ chainField: 'payoutChain', chain: 'foo' }]));
		expect(error.message).toMatch(/lists 55: chain00, .*, chain49 and 5 more\)$/);
		const tokens = listing(Array.from({ length: 25 }, (_, n) => asset('base', `T${String(n).padStart(2, '0')}`, 6)));
		const asset25 = protocolFailure(() => checkOffered(tokens, [{ chainField: 'sourceChain', chain: 'base', assetField: 'sourceAsset', asset: 'X' }]));
		expect(asset25.message).toMatch(/lists there: base:T00, .*, base:T19 and 5 more\)$/);
	});
});

describe('a quote on a chain outside the spec\'s list (stellar)', () => {
	it('is planned and completed with the listing\'s decimals (7 for stellar:USDC)', () => {
		const { request, source } = completeQuote(planQuote(QUOTE), LISTED);
		expect(request).toMatchObject({ sourceChain: 'stellar', sourceAsset: 'USDC', amount: '125000000' });
		expect(source?.id).toBe('stellar:USDC');
		const keyed = completeQuote(planQuote(withRequest({ sourceAsset: 'stellar:XLM' })), LISTED);
		expect(keyed.request).toMatchObject({ sourceAsset: 'stellar:XLM', amount: '125000000' });
	});

	it('goes through, syntax-checked only, when the listing could not be read (smallest units need no decimals)', () => {
		const plan = planQuote(withRequest({ sourceChain: 'newchain', sourceAsset: 'NEWCOIN' }, { amount: { value: '5', format: 'smallestUnit' } }));
		expect(completeQuote(plan, undefined).request).toMatchObject({ sourceChain: 'newchain', sourceAsset: 'NEWCOIN', amount: '5' });
	});

	it('is refused before any request when the listing does not offer the chain', () => {
		const error = protocolFailure(() => completeQuote(planQuote(withRequest({ destinationChain: 'foo' })), LISTED));
		expect(error.field).toBe('destinationChain');
	});

	it('refund chains, estimates, offramps and onramps take a listed chain too', () => {
		const refund = planQuote(withRequest({ amountMode: 'exact_out', refundAddress: 'GSANDBOX', refundChain: 'stellar' }));
		expect(refund.draft.refundChain).toBe('stellar');
		expect(() => planQuote({ ...withRequest({}), refundRule: false }, EstimateDraftSchema)).not.toThrow();
		const onramp: OnrampInput = {
			request: { destinationChain: 'stellar', destinationAsset: 'XLM', recipientAddress: 'GSANDBOX' },
			amount: { value: '0.001', format: 'decimal' },
			additionalFields: {},
			idempotencyKey: undefined,
			isClientKey: false,
		};
		expect(completeOnramp(planOnramp(onramp), LISTED).request).toMatchObject({ destinationChain: 'stellar', amount: '100000' });
		const unlisted = protocolFailure(() => completeOnramp(planOnramp({ ...onramp, request: { ...onramp.request, destinationAsset: 'EURC' } }), LISTED));
		expect(unlisted.field).toBe('destinationAsset');
		expect(OnrampRequestSchema.safeParse({ ...onramp.request, amount: '1' }).success).toBe(true);
	});
});

describe('app fees in the live service\'s form (public-notes)', () => {
	const fees = (appFees: unknown[]) => withRequest({ appFees });

	it('accepts {recipient, feeBps} (the spec\'s, the default) and {recipient, fee} (the live request form)', () => {
		expect(planQuote(fees([{ recipient: 'r', feeBps: 25 }])).draft.appFees).toEqual([{ recipient: 'r', feeBps: 25 }]);
		expect(planQuote(fees([{ recipient: 'r', fee: 25 }])).draft.appFees).toEqual([{ recipient: 'r', fee: 25 }]);
		const additional = planQuote({ ...QUOTE, additionalFields: { appFees: [{ recipient: 'r', fee: 25 }] } });
		expect(additional.draft.appFees).toEqual([{ recipient: 'r', fee: 25 }]);
	});

	it('asks for the fee once, naming the entry', () => {
		expect(protocolFailure(() => planQuote(fees([{ recipient: 'r' }])))).toMatchObject({
			field: 'appFees[0].feeBps',
			message: "Required: the fee in basis points, as feeBps (the spec's form) or fee (the live service's request form)",
		});
		expect(protocolFailure(() => planQuote(fees([{ recipient: 'r', feeBps: 1 }, { recipient: 'r', feeBps: 1, fee: 1 }]))).field).toBe('appFees[1].feeBps');
		expect(protocolFailure(() => planQuote(fees([{ recipient: 'r', fee: 10_001 }]))).field).toBe('appFees[0].fee');
	});

	it('stays a fee field client keys may not send, in either form', () => {
		expect(protocolFailure(() => planQuote({ ...fees([{ recipient: 'r', fee: 5 }]), isClientKey: true })).reason).toBe('client_key_fee_fields_forbidden');
		expect(QuoteRequestSchema.safeParse({ ...QUOTE.request, amount: '1', appFees: [{ recipient: 'r', fee: 5 }] }).success).toBe(true);
	});
});

describe('the docs\' affiliate ID rule on every affiliate ID of a request', () => {
	it('sends IDs trimmed and lowercased: affiliateId, affiliateIds (ids and overrides), app fee entries', () => {
		const plan = planQuote(withRequest({ affiliateId: ' Aff_Shop ' }));
		expect(plan.draft.affiliateId).toBe('aff_shop');
		const list = planQuote(withRequest({ affiliateIds: ['AFF-1', { affiliateId: 'Aff_2 ', feeBps: 5 }] }));
		expect(list.draft.affiliateIds).toEqual(['aff-1', { affiliateId: 'aff_2', feeBps: 5 }]);
		const app = planQuote(withRequest({ appFees: [{ recipient: 'r', feeBps: 5, affiliateId: 'AFF' }] }));
		expect(app.draft.appFees).toEqual([{ recipient: 'r', feeBps: 5, affiliateId: 'aff' }]);
	});

	it('refuses an ID that breaks ^[a-z0-9][a-z0-9_-]{0,63}$, naming where it is', () => {
		expect(protocolFailure(() => planQuote(withRequest({ affiliateId: 'aff.shop' }))).field).toBe('affiliateId');
		expect(protocolFailure(() => planQuote(withRequest({ affiliateIds: ['ok', '_bad'] }))).field).toBe('affiliateIds[1]');
		expect(protocolFailure(() => planQuote(withRequest({ affiliateIds: [{ affiliateId: 'x'.repeat(65), feeBps: 1 }] }))).field).toBe('affiliateIds[0].affiliateId');
		const estimate = protocolFailure(() => planQuote({ ...withRequest({ affiliateId: 'a b' }), refundRule: false }, EstimateDraftSchema));
		expect(estimate).toMatchObject({ field: 'affiliateId', message: expect.stringContaining('trimmed and lowercased first') });
	});
});

describe('Create Offramp: the refund rule of a Lightning destination, its source against the listing', () => {
	const OFFRAMP: QuoteInput = {
		request: { sourceChain: 'stellar', sourceAsset: 'USDC', recipientAddress: '$alice' },
		amount: { value: '50', format: 'decimal' },
		additionalFields: {},
		idempotencyKey: undefined,
		isClientKey: false,
		refundRule: true,
		destinationChain: 'lightning',
	};

	it('needs a refund address, and sends its chain (the source chain)', () => {
		const error = protocolFailure(() => planQuote(OFFRAMP, OfframpDraftSchema));
		expect(error).toMatchObject({ field: 'refundAddress', reason: 'refund_address_required' });
		expect(error.message).toMatch(/^is required for Lightning destinations \(this operation always pays out on lightning\): give an address on the source chain \(stellar\)/);
		const plan = planQuote({ ...OFFRAMP, request: { ...OFFRAMP.request, refundAddress: 'GSANDBOX' } }, OfframpDraftSchema);
		expect(plan.draft).toMatchObject({ refundAddress: 'GSANDBOX', refundChain: 'stellar' });
		const other = protocolFailure(() => planQuote({ ...OFFRAMP, request: { ...OFFRAMP.request, refundAddress: 'x', refundChain: 'base' } }, OfframpDraftSchema));
		expect(other.field).toBe('refundChain');
	});

	it('converts the amount with the source\'s decimals; an unlisted source is refused', () => {
		const plan = planQuote({ ...OFFRAMP, request: { ...OFFRAMP.request, refundAddress: 'GSANDBOX' } }, OfframpDraftSchema);
		const { request, destination } = completeOfframp(plan, LISTED);
		expect(Object.keys(request).slice(0, 3)).toEqual(['sourceChain', 'sourceAsset', 'amount']);
		expect(request.amount).toBe('500000000');
		expect(destination?.id).toBe('lightning:BTC');
		const unlisted = { ...plan, draft: { ...plan.draft, sourceChain: 'foo' } };
		expect(protocolFailure(() => completeOfframp(unlisted, LISTED)).field).toBe('sourceChain');
	});
});

describe('the payable guard of offramps and onramps', () => {
	it('names only the new key as the next step where the operation has no "Re-Quote When Expired"', () => {
		const body = { quoteId: 'q_1', expiresAt: new Date(Date.now() - 5_000).toISOString() };
		const problem = unpayableQuote(body, { replayed: true, marginSeconds: 0, requoteOption: false });
		expect(problem?.nextStep).toMatch(/new Idempotency Key/);
		expect(problem?.nextStep).not.toMatch(/Re-Quote/);
		expect(unpayableQuote(body, { replayed: true, marginSeconds: 0 })?.nextStep).toMatch(/Re-Quote When Expired/);
	});
});
