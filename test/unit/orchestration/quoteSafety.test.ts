/** Quote > Create's safety rules, pure: the refund rule before sending, and whether an answer is still payable. */
import { REQUOTE_KEY_PREFIX, requoteIdempotencyKey, validateIdempotencyKey } from '../../../nodes/shared/orchestration/idempotency';
import { isReplayed } from '../../../nodes/shared/orchestration/idempotency';
import { checkRefund, planQuote, unpayableQuote, type QuoteInput } from '../../../nodes/shared/orchestration/quotePlan';
import { protocolFailure } from './protocolFailure';

const REQUEST = {
	sourceChain: 'base',
	sourceAsset: 'USDC',
	destinationChain: 'lightning',
	destinationAsset: 'BTC',
	recipientAddress: 'alice@example.com',
	amountMode: 'exact_in',
};
const INPUT: QuoteInput = {
	request: REQUEST,
	amount: { value: '1000000', format: 'smallestUnit' },
	additionalFields: {},
	idempotencyKey: undefined,
	isClientKey: false,
	refundRule: true,
};
const EVM = '0x1111111111111111111111111111111111111111';

describe('the refund rule (public-notes: required for exact_out and Lightning destinations)', () => {
	it('refuses a Lightning destination or an Exact Out quote without a refund address, naming the field', () => {
		const lightning = protocolFailure(() => planQuote(INPUT));
		expect(lightning).toMatchObject({ field: 'refundAddress', reason: 'refund_address_required' });
		expect(lightning.message).toMatch(/Lightning destinations.*source chain \(base\)/);
		const exactOut = { ...REQUEST, destinationChain: 'bitcoin', recipientAddress: 'bc1qxy', amountMode: 'exact_out' };
		expect(protocolFailure(() => planQuote({ ...INPUT, request: exactOut })).message).toMatch(/^is required for Exact Out quotes/);
	});

	it('needs nothing for an Exact In quote to another chain, and applies only where asked (estimates, offramps)', () => {
		const plain = { ...REQUEST, destinationChain: 'bitcoin', recipientAddress: 'bc1qxy' };
		expect(planQuote({ ...INPUT, request: plain }).draft).not.toHaveProperty('refundAddress');
		expect(planQuote({ ...INPUT, refundRule: false }).draft).not.toHaveProperty('refundAddress');
	});

	it('defaults the refund chain to the source chain and refuses another chain', () => {
		expect(planQuote({ ...INPUT, request: { ...REQUEST, refundAddress: EVM } }).draft).toMatchObject({ refundAddress: EVM, refundChain: 'base' });
		const wrong = protocolFailure(() => planQuote({ ...INPUT, request: { ...REQUEST, refundAddress: EVM, refundChain: 'ethereum' } }));
		expect(wrong).toMatchObject({ field: 'refundChain', reason: 'refund_chain_not_source' });
	});

	it('counts a refund address given in Additional Body Fields', () => {
		expect(planQuote({ ...INPUT, additionalFields: { refundAddress: EVM } }).draft.refundChain).toBe('base');
		const draft: Record<string, unknown> = { ...REQUEST, refundAddress: EVM, refundChain: 'base' };
		checkRefund(draft);
		expect(draft.refundChain).toBe('base');
	});
});

describe('unpayableQuote: a quote is payable until expiresAt, with a margin (§1, §2.2)', () => {
	const now = Date.parse('2026-11-25T12:00:00.000Z');
	const quote = (secondsLeft: number) => ({ quoteId: 'q_1', expiresAt: new Date(now + secondsLeft * 1000).toISOString() });

	it('accepts a quote with at least the margin left', () => {
		expect(unpayableQuote(quote(120), { replayed: false, marginSeconds: 10, nowMs: now })).toBeUndefined();
		expect(unpayableQuote(quote(10), { replayed: true, marginSeconds: 10, nowMs: now })).toBeUndefined();
		expect(unpayableQuote(quote(1), { replayed: true, marginSeconds: 0, nowMs: now })).toBeUndefined();
		expect(unpayableQuote({ quoteId: 'q_1' }, { replayed: true, marginSeconds: 10, nowMs: now })).toBeUndefined();
	});

	it('refuses a replayed, expired quote with the next step (a new key, or the re-quote option)', () => {
		const problem = unpayableQuote(quote(-3600), { replayed: true, marginSeconds: 10, nowMs: now });
		expect(problem?.requotable).toBe(true);
		expect(problem?.message).toBe(
			'Quote q_1 expired at 2026-11-25T11:00:00.000Z (3600 s ago): the service replayed an earlier answer to this idempotency key, so its deposit address must not be paid',
		);
		expect(problem?.nextStep).toMatch(/new Idempotency Key.*"Re-Quote When Expired"/);
		expect(unpayableQuote(quote(0), { replayed: true, marginSeconds: 0, nowMs: now })?.message).toMatch(/expired at/);
	});

	it('refuses a quote inside the margin; a fresh answer is not cured by a new key', () => {
		const problem = unpayableQuote(quote(5), { replayed: false, marginSeconds: 10, nowMs: now });
		expect(problem).toMatchObject({ requotable: false });
		expect(problem?.message).toMatch(/in 5 s, less than the margin of 10 s/);
	});

	it('reads X-Idempotency-Replayed as the transport passes headers', () => {
		expect(isReplayed({ 'x-idempotency-replayed': 'true' })).toBe(true);
		expect(isReplayed({ 'x-idempotency-replayed': ['TRUE'] })).toBe(true);
		expect(isReplayed({ 'x-idempotency-replayed': 'false' })).toBe(false);
		expect(isReplayed({})).toBe(false);
		expect(isReplayed(undefined)).toBe(false);
	});
});

describe('requoteIdempotencyKey', () => {
	it('is deterministic per key and execution, a valid key, and differs from the old one', () => {
		const key = requoteIdempotencyKey('payout-7', 'exec-1');
		expect(key).toBe(requoteIdempotencyKey('payout-7', 'exec-1'));
		expect(key.startsWith(REQUOTE_KEY_PREFIX)).toBe(true);
		expect(validateIdempotencyKey(key)).toBeUndefined();
		expect(key).not.toBe(requoteIdempotencyKey('payout-7', 'exec-2'));
		expect(key).not.toBe(requoteIdempotencyKey('payout-8', 'exec-1'));
		expect(requoteIdempotencyKey(key, 'exec-1')).not.toBe(key);
	});
});
