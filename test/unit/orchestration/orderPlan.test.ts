import { SUBMIT_KEY_PREFIX, submitIdempotencyKey } from '../../../nodes/shared/orchestration/idempotency';
import {
	completeOnramp,
	ONRAMP_SOURCE,
	planOnramp,
	planSubmit,
	type OnrampInput,
} from '../../../nodes/shared/orchestration/orderPlan';
import type { RoutesLookup } from '../../../nodes/shared/orchestration/quotePlan';
import { type RouteAsset } from '../../../nodes/shared/orchestration/responseSchemas';
import { OnrampRequestSchema } from '../../../nodes/shared/orchestration/schemas';
import { protocolFailure } from './protocolFailure';

const asset = (chain: string, symbol: string, decimals: number): RouteAsset => ({ id: `${chain}:${symbol}`, chain, asset: symbol, decimals, route: { to: 'all' } }) as RouteAsset;
const ASSETS = [asset('lightning', 'BTC', 8), asset('base', 'USDC', 6)];
/** A two-asset routes listing: what the onramp plan reads, nothing else. */
const ROUTES: RoutesLookup = {
	find: (chain, symbol) => ASSETS.find((a) => a.chain === chain && a.asset === symbol),
	byRoutingKey: (id) => ASSETS.find((a) => a.id === id),
	decimalsOfSymbol: () => undefined,
	chainNames: () => ['base', 'lightning'],
	idsOnChain: (chain) => ASSETS.filter((a) => a.chain === chain).map((a) => a.id),
};

describe('planSubmit: Order > Submit checked before the first request (public-notes)', () => {
	const SUBMIT = { request: { quoteId: 'q_1', txHash: '0xabc', sourceAddress: '' }, additionalFields: {}, idempotencyKey: undefined };

	it('derives the key from the quote and the deposit reference only, so one payment is one submit', () => {
		const plan = planSubmit(SUBMIT);
		expect(plan.request).toEqual({ quoteId: 'q_1', txHash: '0xabc' });
		expect(plan.idempotencyKey).toBe(submitIdempotencyKey({ quoteId: 'q_1', txHash: '0xabc' }));
		expect(plan.idempotencyKey.startsWith(SUBMIT_KEY_PREFIX)).toBe(true);
		const extra = planSubmit({ ...SUBMIT, additionalFields: { note: 'x' } });
		expect(extra.idempotencyKey).toBe(plan.idempotencyKey);
	});

	it('keeps the key the user set, checked once', () => {
		expect(planSubmit({ ...SUBMIT, idempotencyKey: 'payout-7' }).idempotencyKey).toBe('payout-7');
		expect(protocolFailure(() => planSubmit({ ...SUBMIT, idempotencyKey: 'bad\nkey' })).field).toBe('idempotencyKey');
	});

	it('names the field: schema, additional-field collision', () => {
		expect(protocolFailure(() => planSubmit({ ...SUBMIT, request: { quoteId: '' } })).field).toBe('quoteId');
		expect(protocolFailure(() => planSubmit({ ...SUBMIT, additionalFields: { quoteId: 'other' } })).field).toBe('additionalFields');
	});
});

describe('planOnramp: Order > Create Onramp without a placeholder amount (§4.6, §5)', () => {
	const REQUEST = { destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: '0xRecipient', amountFiatUsd: undefined };
	const SATS: OnrampInput = { request: REQUEST, amount: { value: '0.001', format: 'decimal' }, additionalFields: {}, idempotencyKey: undefined, isClientKey: false };

	it('holds no amount until the routes listing gives its decimals, then writes it after the recipient', () => {
		const plan = planOnramp(SATS);
		expect(plan.routes).toBe('required');
		expect(plan.draft).not.toHaveProperty('amount');
		const { request, source, destination } = completeOnramp(plan, ROUTES);
		expect(Object.keys(request)).toEqual(['destinationChain', 'destinationAsset', 'recipientAddress', 'amount']);
		expect(request.amount).toBe('100000');
		expect(source?.id).toBe(ONRAMP_SOURCE);
		expect(destination?.id).toBe('base:USDC');
		expect(OnrampRequestSchema.safeParse(request).success).toBe(true);
		expect(protocolFailure(() => completeOnramp(plan, undefined)).field).toBe('amount');
	});

	it('counts an exact_out amount in the destination asset', () => {
		const plan = planOnramp({ ...SATS, request: { ...REQUEST, amountMode: 'exact_out' }, amount: { value: '25', format: 'decimal' } });
		expect(completeOnramp(plan, ROUTES).request.amount).toBe('25000000');
	});

	it('sends a USD onramp as it is, without an amount', () => {
		const plan = planOnramp({ ...SATS, amount: undefined, request: { ...REQUEST, amountFiatUsd: '25.50' } });
		expect(plan.routes).toBe('optional');
		expect(completeOnramp(plan, undefined).request).toEqual({ ...REQUEST, amountFiatUsd: '25.50' });
	});

	it('asks for exactly one of sats and USD, naming the same field as the request schema', () => {
		const neither = protocolFailure(() => planOnramp({ ...SATS, amount: undefined }));
		expect(neither).toMatchObject({ field: 'amount', message: 'required: amount (sats) or amountFiatUsd' });
		const both = protocolFailure(() => planOnramp({ ...SATS, additionalFields: { amountFiatUsd: '5' } }));
		expect(both).toMatchObject({ field: 'amountFiatUsd', message: 'give either amount (sats) or amountFiatUsd, not both' });
	});

	it('names the field: schema, amount collision, client fee fields, idempotency key', () => {
		expect(protocolFailure(() => planOnramp({ ...SATS, request: { ...REQUEST, destinationChain: 'Mars' } })).field).toBe('destinationChain');
		expect(protocolFailure(() => planOnramp({ ...SATS, additionalFields: { amount: '1' } })).field).toBe('additionalFields');
		const fees = { ...SATS, additionalFields: { appFees: [{ recipient: 'r', feeBps: 10 }] }, isClientKey: true };
		expect(protocolFailure(() => planOnramp(fees)).field).toBe('appFees');
		expect(protocolFailure(() => planOnramp({ ...SATS, idempotencyKey: '' + 'x'.repeat(256) })).field).toBe('idempotencyKey');
	});
});
