import { completeQuote, planQuote, type AssetLookup, type QuoteInput } from '../../../nodes/shared/orchestration/quotePlan';
import type { RouteAsset } from '../../../nodes/shared/orchestration/responseSchemas';
import { protocolFailure } from './protocolFailure';

const REQUEST = {
	sourceChain: 'base',
	sourceAsset: 'USDC',
	destinationChain: 'solana',
	destinationAsset: 'USDC',
	recipientAddress: 'So1anaRecipient',
	amountMode: 'exact_in',
	affiliateId: '',
};
const INPUT: QuoteInput = { request: REQUEST, amount: { value: '1.5', format: 'decimal' }, additionalFields: {}, idempotencyKey: undefined, isClientKey: false };

const asset = (chain: string, symbol: string, decimals: number): RouteAsset => ({ id: `${chain}:${symbol}`, chain, asset: symbol, decimals, route: { to: 'all' } }) as RouteAsset;
/** A two-asset routes listing: the lookup the plan needs, nothing else. */
const LISTED = [asset('base', 'USDC', 6), asset('solana', 'USDC', 6)];
const ROUTES: AssetLookup = {
	find: (chain, symbol) => LISTED.find((a) => a.chain === chain && a.asset === symbol),
	chainNames: () => ['base', 'solana'],
	idsOnChain: (chain) => LISTED.filter((a) => a.chain === chain).map((a) => a.id),
};

describe('planQuote: Quote > Create checked before the first request (§4.1)', () => {
	it('needs the routes listing first only for a decimal amount, and holds no placeholder amount', () => {
		const plan = planQuote(INPUT);
		expect(plan.routes).toBe('required');
		expect(plan.draft).not.toHaveProperty('amount');
		expect(plan.draft).not.toHaveProperty('affiliateId');
		expect(planQuote({ ...INPUT, amount: { value: '1500000', format: 'smallestUnit' } }).routes).toBe('optional');
	});

	it('writes the amount in smallest units of the side it counts, in the request order the service sees', () => {
		const { request, source } = completeQuote(planQuote(INPUT), ROUTES);
		expect(Object.keys(request).slice(0, 5)).toEqual(['sourceChain', 'sourceAsset', 'destinationChain', 'destinationAsset', 'amount']);
		expect(request.amount).toBe('1500000');
		expect(source?.decimals).toBe(6);
		expect(protocolFailure(() => completeQuote(planQuote(INPUT), undefined)).field).toBe('amount');
	});

	it('refuses a stablecoin exact_out amount that is not whole cents', () => {
		const plan = planQuote({ ...INPUT, request: { ...REQUEST, amountMode: 'exact_out' }, amount: { value: '1.505', format: 'decimal' } });
		expect(protocolFailure(() => completeQuote(plan, ROUTES)).field).toBe('amount');
	});

	it('names the field: schema, additional-field collision (amount included), client fee fields, idempotency key', () => {
		expect(protocolFailure(() => planQuote({ ...INPUT, request: { ...REQUEST, sourceChain: 'Mars' } })).field).toBe('sourceChain');
		const collision = protocolFailure(() => planQuote({ ...INPUT, additionalFields: { amount: '1', zeroconfEnabled: true } }));
		expect(collision).toMatchObject({ field: 'additionalFields', message: expect.stringContaining('"amount"') });
		const fees = { ...REQUEST, appFees: [{ recipient: 'r', feeBps: 10 }] };
		expect(protocolFailure(() => planQuote({ ...INPUT, request: fees, isClientKey: true })).field).toBe('appFees');
		expect(planQuote({ ...INPUT, request: fees }).draft.appFees).toEqual(fees.appFees);
		expect(protocolFailure(() => planQuote({ ...INPUT, idempotencyKey: 'é' })).field).toBe('idempotencyKey');
		expect(planQuote({ ...INPUT, idempotencyKey: ' payout-7 ' }).idempotencyKey).toBe(' payout-7 ');
	});
});
