import { planZeroconfDecision, zeroconfIdempotencyKey } from '../../../nodes/shared/orchestration';
import { protocolFailure } from './protocolFailure';

describe('planZeroconfDecision (public-notes: zeroconf accept / decline)', () => {
	test('accept: the order id only, on the accept path', () => {
		const plan = planZeroconfDecision('accept', { orderId: 'ord_1', reason: 'ignored on accept' });
		expect(plan).toEqual({ path: '/v1/orchestration/zeroconf/accept', request: { orderId: 'ord_1' }, idempotencyKey: zeroconfIdempotencyKey('accept', 'ord_1') });
	});

	test('decline: the reason when given, nothing when empty', () => {
		expect(planZeroconfDecision('decline', { orderId: 'ord_1', reason: 'policy' }).request).toEqual({ orderId: 'ord_1', reason: 'policy' });
		expect(planZeroconfDecision('decline', { orderId: 'ord_1', reason: '' }).request).toEqual({ orderId: 'ord_1' });
		expect(planZeroconfDecision('decline', { orderId: 'ord_1' }).path).toBe('/v1/orchestration/zeroconf/decline');
	});

	test('the key depends on the order and the action only, so a retry or a re-run replays', () => {
		const key = zeroconfIdempotencyKey('accept', 'ord_1');
		expect(key).toMatch(/^n8n-zeroconf-accept-[0-9a-f]{64}$/);
		expect(zeroconfIdempotencyKey('accept', 'ord_1')).toBe(key);
		expect(zeroconfIdempotencyKey('accept', 'ord_2')).not.toBe(key);
		expect(zeroconfIdempotencyKey('decline', 'ord_1')).not.toBe(key);
		expect(planZeroconfDecision('decline', { orderId: 'ord_1', reason: 'a' }).idempotencyKey).toBe(planZeroconfDecision('decline', { orderId: 'ord_1', reason: 'b' }).idempotencyKey);
	});

	test('bad input names the field before anything is sent', () => {
		expect(protocolFailure(() => planZeroconfDecision('accept', { orderId: '' }))).toMatchObject({ field: 'orderId' });
		expect(protocolFailure(() => planZeroconfDecision('decline', { orderId: 'o', reason: 'x'.repeat(501) }))).toMatchObject({ field: 'reason' });
	});
});
