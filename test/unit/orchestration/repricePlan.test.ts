/** The plan of a price re-approval's answer (public-notes "Re-approvals"): its checks before any request, its key. */
import { planRepriceApproval, planRepriceRefund, planRepriceReject, repriceIdempotencyKey, repriceOf, repriceStateProblem } from '../../../nodes/shared/orchestration/repricePlan';
import { ProtocolError } from '../../../nodes/shared/errors';

const pending = { status: 'awaiting_approval', previousLockedMinAmountOut: '99000000', proposedMinAmountOut: '96500000', latestExpectedAmountOut: '97000000', reason: 'insufficient_input' };

function failure(f: () => unknown): { field?: string; reason?: string } {
	try {
		f();
	} catch (error) {
		expect(error).toBeInstanceOf(ProtocolError);
		return { field: (error as ProtocolError).field, reason: (error as ProtocolError).reason };
	}
	throw new Error('expected a ProtocolError');
}

describe('reprice', () => {
	it('reads the reprice leniently: amounts only as whole numbers', () => {
		expect(repriceOf({ reprice: { ...pending, proposedMinAmountOut: '1.5', latestExpectedAmountOut: 7 } })).toMatchObject({ proposedMinAmountOut: undefined, latestExpectedAmountOut: '7' });
		expect(repriceOf({ reprice: null })).toBeUndefined();
	});

	it('approves the proposed minimum by default, any other up to the locked one, never above', () => {
		expect(planRepriceApproval('ord_1', pending, undefined)).toEqual({ path: '/v1/orchestration/reprice/approve', request: { orderId: 'ord_1', approvedMinAmountOut: '96500000' }, idempotencyKey: repriceIdempotencyKey('approve', 'ord_1') });
		expect(planRepriceApproval('ord_1', pending, '99000000').request.approvedMinAmountOut).toBe('99000000');
		expect(failure(() => planRepriceApproval('ord_1', pending, '99000001'))).toEqual({ field: 'approvedMinAmountOut', reason: 'above_locked_minimum' });
		expect(failure(() => planRepriceApproval('ord_1', pending, '0'))).toEqual({ field: 'approvedMinAmountOut', reason: 'invalid_amount' });
		expect(failure(() => planRepriceApproval('ord_1', {}, undefined))).toEqual({ field: 'approvedMinAmountOut', reason: 'blank' });
	});

	it('keys on the order and the action only', () => {
		expect(repriceIdempotencyKey('approve', 'ord_1')).toBe(repriceIdempotencyKey('approve', 'ord_1'));
		expect(repriceIdempotencyKey('reject', 'ord_1')).not.toBe(repriceIdempotencyKey('approve', 'ord_1'));
		expect(repriceIdempotencyKey('approve', 'ord_2')).not.toBe(repriceIdempotencyKey('approve', 'ord_1'));
	});

	it('rejects with an optional reason; refunds only Bitcoin-source orders, to the quote\'s address unless given', () => {
		expect(planRepriceReject('ord_1', '').request).toEqual({ orderId: 'ord_1' });
		expect(planRepriceReject('ord_1', 'too low').request).toEqual({ orderId: 'ord_1', reason: 'too low' });
		expect(failure(() => planRepriceReject('ord_1', 'x'.repeat(501)))).toEqual({ field: 'reason', reason: 'too_long' });
		expect(planRepriceRefund('ord_1', 'bitcoin', '', undefined).request).toEqual({ orderId: 'ord_1' });
		expect(planRepriceRefund('ord_1', 'bitcoin', 'bc1q', 'no').request).toEqual({ orderId: 'ord_1', refundAddress: 'bc1q', reason: 'no' });
		expect(failure(() => planRepriceRefund('ord_1', 'base', '', undefined))).toEqual({ field: 'orderId', reason: 'refund_not_offered' });
	});

	it('has nothing to answer without a reprice; an answered one is sent again (the service replays it)', () => {
		expect(repriceStateProblem({ status: 'processing' })).toMatch(/has no price re-approval/);
		expect(repriceStateProblem({ status: 'awaiting_approval', zeroconfOffer: {} })).toMatch(/without a price re-approval/);
		expect(repriceStateProblem({ status: 'swapping', reprice: { ...pending, status: 'approved' } })).toBeUndefined();
	});
});
