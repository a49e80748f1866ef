/**
 * handleDelivery and decideBatch alone (no n8n): the order of the door's checks, that nothing is looked
 * up before the signature and timestamp are verified, the bounds, and the run's owner decision.
 */
import { createHmac } from 'node:crypto';
import { handleDelivery, replayKeyOf, toleranceOf, type DeliveryInput } from '../../../nodes/OrchestrationTrigger/delivery';
import { eventSelectionOf } from '../../../nodes/OrchestrationTrigger/events';
import { decideBatch, runKeysOf, windowOf } from '../../../nodes/OrchestrationTrigger/runCheck';

const SECRET = 'whsec_unit_delivery_0123456789abcdef';
const NOW = 1_750_000_000_000;

function input(body: string | Buffer, opts: { ts?: number; secret?: string; runStarted?: DeliveryInput['runStarted'] } = {}): DeliveryInput {
	const ts = String(opts.ts ?? NOW);
	const signature = createHmac('sha256', opts.secret ?? SECRET).update(`${ts}.`).update(body).digest('hex');
	return {
		rawBody: body,
		headers: { 'x-service-signature': signature, 'x-service-timestamp': ts },
		secret: SECRET,
		toleranceSeconds: 300,
		nowMs: NOW,
		events: eventSelectionOf(['*']),
		runStarted: opts.runStarted,
	};
}

const event = JSON.stringify({ event: 'order.completed', data: { id: 'ord_1', updatedAt: '2025-01-01T00:00:00.000Z' } });
const RECOVERY_SECRET = 'whsec_unit_recovery_0123456789abcdef';
const recovery = JSON.stringify({ event: 'order.recovery_required', data: { id: 'ord_1', status: 'processing', reviewStatus: 'pending_review', updatedAt: '2025-01-01T00:00:01.000Z' } });

/** The same delivery under the live service's header names (public-notes). */
function live(body: string, secret = SECRET): DeliveryInput {
	const { headers, ...rest } = input(body, { secret });
	return { ...rest, headers: { 'x-flashnet-signature': headers['x-service-signature'], 'x-flashnet-timestamp': headers['x-service-timestamp'] } };
}

describe('handleDelivery', () => {
	it('accepts a verified envelope with its duplicate key and the hashed key of the signed request', () => {
		const d = handleDelivery(input(event));
		expect(d).toMatchObject({ outcome: 'accepted', duplicateKey: JSON.stringify(['ord_1', 'order.completed', '2025-01-01T00:00:00.000Z']), signatureTimestampMs: NOW });
		const signature = input(event).headers['x-service-signature'] as string;
		expect(d.outcome === 'accepted' && d.replayKey).toBe(replayKeyOf(signature));
		expect(replayKeyOf(signature.toUpperCase())).toBe(replayKeyOf(signature));
		expect(JSON.stringify(d)).not.toContain(signature);
	});

	it('looks nothing up before the signature and the timestamp are verified', () => {
		const runStarted = jest.fn(() => true);
		for (const bad of [input(event, { secret: 'whsec_forged_0123456789abcdef', runStarted }), input(event, { ts: NOW - 301_000, runStarted }), input(event, { ts: NOW + 301_000, runStarted })]) {
			expect(handleDelivery(bad).outcome).toBe('rejected');
		}
		expect(handleDelivery({ ...input(event, { runStarted }), headers: {} }).outcome).toBe('rejected');
		expect(runStarted).not.toHaveBeenCalled();
		// Verified and selected: looked up once, and a key a run of this process had is a duplicate.
		expect(handleDelivery(input(event, { runStarted }))).toMatchObject({ outcome: 'ignored', reason: 'duplicate' });
		expect(runStarted).toHaveBeenCalledTimes(1);
	});

	it('refuses a body over 1 MiB with 413 before hashing it, signed or not', () => {
		const big = Buffer.alloc(1_048_577, 0x20);
		expect(handleDelivery(input(big))).toMatchObject({ outcome: 'rejected', status: 413, error: 'payload_too_large' });
		expect(handleDelivery({ ...input(big), headers: {} })).toMatchObject({ status: 413 });
		expect(handleDelivery(input(Buffer.alloc(1_048_576, 0x20)))).toMatchObject({ status: 400, error: 'invalid_json' });
	});

	it('verifies the live header names with the same rules, and refuses a delivery carrying both sets', () => {
		expect(handleDelivery(live(event))).toMatchObject({ outcome: 'accepted', subscription: 'orders', signatureTimestampMs: NOW });
		expect(handleDelivery({ ...live(event), nowMs: NOW + 301_000 })).toMatchObject({ status: 401, error: 'stale_timestamp' });
		expect(handleDelivery(live(event, 'whsec_forged_0123456789abcdef'))).toMatchObject({ status: 401, error: 'signature_mismatch', message: expect.stringMatching(/^X-Flashnet-Signature/) });
		const both = { ...input(event), headers: { ...input(event).headers, ...live(event).headers } };
		expect(handleDelivery(both)).toMatchObject({ status: 401, error: 'malformed_signature', message: expect.stringMatching(/Exactly one signature header/) });
		const twoTimestamps = { ...live(event), headers: { ...live(event).headers, 'x-service-timestamp': String(NOW) } };
		expect(handleDelivery(twoTimestamps)).toMatchObject({ status: 401, error: 'malformed_timestamp' });
	});

	it('the recovery secret verifies order.recovery_required only, the endpoint secret every kind but that one', () => {
		const withRecovery = (body: string, secret: string) => ({ ...input(body, { secret }), recoverySecret: RECOVERY_SECRET });
		expect(handleDelivery(withRecovery(recovery, RECOVERY_SECRET))).toMatchObject({ outcome: 'accepted', subscription: 'recovery' });
		expect(handleDelivery(withRecovery(event, SECRET))).toMatchObject({ outcome: 'accepted', subscription: 'orders' });
		expect(handleDelivery(withRecovery(event, RECOVERY_SECRET))).toMatchObject({ outcome: 'rejected', status: 401, error: 'wrong_subscription' });
		expect(handleDelivery(withRecovery(recovery, SECRET))).toMatchObject({ outcome: 'rejected', status: 401, error: 'wrong_subscription' });
		// Without a recovery subscription, the endpoint's secret still does not verify recovery events.
		expect(handleDelivery(input(recovery))).toMatchObject({ outcome: 'rejected', status: 401, error: 'wrong_subscription' });
		// One secret given for both (an existing endpoint set up so) carries every kind.
		expect(handleDelivery({ ...input(recovery), recoverySecret: SECRET })).toMatchObject({ outcome: 'accepted', subscription: 'recovery' });
		expect(handleDelivery({ ...input(event), recoverySecret: SECRET })).toMatchObject({ outcome: 'accepted', subscription: 'orders' });
		// A recovery secret that is set but cannot be an HMAC key is a configuration problem.
		expect(handleDelivery({ ...input(event), recoverySecret: 'short' })).toMatchObject({ status: 500, error: 'secret_unavailable', message: expect.stringMatching(/recovery secret has 5 characters/) });
	});

	it('while a secret is replaced, the previous secret verifies order events as the current one does, never recovery events', () => {
		const PREVIOUS = 'whsec_previous_0123456789abcdef';
		const rotating = (body: string, secret: string) => ({ ...input(body, { secret }), secret: SECRET, previousSecret: PREVIOUS });
		expect(handleDelivery(rotating(event, PREVIOUS))).toMatchObject({ outcome: 'accepted', subscription: 'orders' });
		expect(handleDelivery(rotating(event, SECRET))).toMatchObject({ outcome: 'accepted', subscription: 'orders' });
		expect(handleDelivery(rotating(recovery, PREVIOUS))).toMatchObject({ outcome: 'rejected', status: 401, error: 'wrong_subscription' });
		expect(handleDelivery({ ...input(event, { secret: PREVIOUS }) })).toMatchObject({ outcome: 'rejected', status: 401 });
		expect(handleDelivery({ ...input(event), previousSecret: 'short' })).toMatchObject({ status: 500, error: 'secret_unavailable', message: expect.stringMatching(/previous webhook secret has 5 characters/) });
	});

	it('refuses JSON nested deeper than 64 levels with 400 before parsing it; 64 levels pass', () => {
		const nested = (depth: number) => JSON.stringify({ event: 'order.completed', data: { id: 'ord_deep', x: JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) } });
		expect(handleDelivery(input(nested(62)))).toMatchObject({ outcome: 'accepted' });
		expect(handleDelivery(input(nested(63)))).toMatchObject({ outcome: 'rejected', status: 400, error: 'json_too_deep' });
		const deep = `{"event":"order.completed","data":{"id":"ord_deep","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
		const parse = jest.spyOn(JSON, 'parse');
		try {
			expect(handleDelivery(input(deep))).toMatchObject({ outcome: 'rejected', status: 400, error: 'json_too_deep' });
			expect(parse).not.toHaveBeenCalled();
		} finally {
			parse.mockRestore();
		}
		// Unsigned, it is refused for its signature first.
		expect(handleDelivery({ ...input(deep), headers: {} })).toMatchObject({ status: 401, error: 'missing_signature' });
	});

	it('bounds the tolerance at 900 s (the default when unset or invalid)', () => {
		expect(toleranceOf(undefined)).toBe(300);
		expect(toleranceOf('abc')).toBe(300);
		expect(toleranceOf(-5)).toBe(300);
		expect(toleranceOf(60)).toBe(60);
		expect(toleranceOf(86_400)).toBe(900);
	});
});

describe('the run decision (n8n store answered for [owner, check], both now recorded)', () => {
	const keys = runKeysOf({ duplicateKey: 'k', replayKey: 'sig:r', deliveryId: 'd1' }, true)!;
	it('takes the event key with deduplication, the signed request key without, and needs a delivery id', () => {
		expect(keys).toEqual({ check: 'k', owner: 'own:d1' });
		expect(runKeysOf({ duplicateKey: 'k', replayKey: 'sig:r', deliveryId: 'd1' }, false)).toEqual({ check: 'sig:r', owner: 'own:d1' });
		expect(runKeysOf({ duplicateKey: 'k' }, true)).toBeUndefined();
		expect(runKeysOf(undefined, true)).toBeUndefined();
	});
	it('runs the first and the owner lineage, drops a copy', () => {
		const one = (processed: string[]) => decideBatch([keys], new Set(processed))[0];
		expect(one([])).toBe('run');
		expect(one(['k'])).toBe('drop');
		expect(one(['k', 'own:d1'])).toBe('run');
		expect(one(['own:d1'])).toBe('run');
	});
	it('decides a batch taken in one turn: the first request of a new event owns it, its copies drop; an owner retry wins', () => {
		const req = (check: string, id: string) => runKeysOf({ duplicateKey: check, deliveryId: id }, true)!;
		expect(decideBatch([req('a', '1'), req('b', '2'), req('a', '3'), req('c', '4')], new Set())).toEqual(['run', 'run', 'drop', 'run']);
		// 'a' already stored: every request of it drops, unless it is the owner's retry.
		expect(decideBatch([req('a', '3'), req('a', '1'), req('b', '2')], new Set(['a', 'own:1']))).toEqual(['drop', 'run', 'run']);
		// The owner's mark without its key (the key evicted): only the owner runs.
		expect(decideBatch([req('a', '3'), req('a', '1')], new Set(['own:1']))).toEqual(['drop', 'run']);
	});
	it('sizes the window: default 10,000 events, at most 250,000', () => {
		expect(windowOf(undefined)).toBe(10_000);
		expect(windowOf(0)).toBe(10_000);
		expect(windowOf(5)).toBe(5);
		expect(windowOf(1e9)).toBe(250_000);
	});
});

describe('the duplicate key never includes a delivery time', () => {
	const data = { id: 'ord_1', status: 'completed', amountIn: '100', source: { chain: 'base', asset: 'USDC' } };
	const keyOf = (body: Record<string, unknown>, ts: number) => {
		const decision = handleDelivery(input(JSON.stringify(body), { ts }));
		expect(decision.outcome).toBe('accepted');
		return (decision as { duplicateKey: string }).duplicateKey;
	};

	it('without data.updatedAt: the same event with two delivery timestamps (envelope and signature) has one key', () => {
		// issue 42: the key was a hash of the raw body, the envelope's delivery timestamp included
		const first = keyOf({ event: 'order.completed', timestamp: '2026-11-28T10:00:00.000Z', data }, NOW);
		const retried = keyOf({ event: 'order.completed', timestamp: '2026-11-28T10:00:01.500Z', data }, NOW + 1500);
		expect(retried).toBe(first);
		// members in another order are the same data
		expect(keyOf({ data: { source: { asset: 'USDC', chain: 'base' }, amountIn: '100', status: 'completed', id: 'ord_1' }, event: 'order.completed' }, NOW)).toBe(first);
	});

	it('another event or other data is another key', () => {
		const first = keyOf({ event: 'order.completed', data }, NOW);
		expect(keyOf({ event: 'order.refunded', data }, NOW)).not.toBe(first);
		expect(keyOf({ event: 'order.completed', data: { ...data, amountIn: '101' } }, NOW)).not.toBe(first);
	});
});
