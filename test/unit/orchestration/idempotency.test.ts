import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
	assertIdempotencyKey,
	canonicalJson,
	deriveIdempotencyKey,
	ProtocolError,
	validateIdempotencyKey,
} from '../../../nodes/shared/orchestration';

describe('canonicalJson', () => {
	test('sorts keys at every depth and keeps array order', () => {
		expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
			'{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
		);
	});

	test('follows JSON.stringify for special values', () => {
		expect(canonicalJson({ a: undefined, b: () => 1, c: null })).toBe('{"c":null}');
		expect(canonicalJson([undefined, Number.NaN, Number.POSITIVE_INFINITY, -0])).toBe('[null,null,null,0]');
		expect(canonicalJson(undefined)).toBe('null');
		expect(canonicalJson(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
		expect(canonicalJson(12345678901234567890n)).toBe('"12345678901234567890"');
		expect(canonicalJson('USD₮0 "quoted"\n')).toBe(JSON.stringify('USD₮0 "quoted"\n'));
	});

	test('throws on cycles but accepts shared references', () => {
		const shared = { x: 1 };
		expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
		const cyclic: Record<string, unknown> = {};
		cyclic.self = cyclic;
		expect(() => canonicalJson(cyclic)).toThrow(ProtocolError);
	});

	test('property: parses back to the same value and ignores key order', () => {
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				const text = canonicalJson(value);
				expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
				const reversed = JSON.parse(JSON.stringify(value), (_k, v) =>
					v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
				);
				expect(canonicalJson(reversed)).toBe(text);
			}),
		);
	});
});

describe('deriveIdempotencyKey', () => {
	const parts = {
		workflowId: 'wf1',
		executionId: '42',
		nodeName: 'Orchestration',
		itemIndex: 0,
		operation: 'quote:create',
		body: { amount: '100', sourceChain: 'base', appFees: [{ recipient: 'r', feeBps: 10 }] },
	};

	test('deterministic, independent of key order, and equal to n8n- + sha256(canonical parts)', () => {
		const key = deriveIdempotencyKey(parts);
		expect(key).toMatch(/^n8n-[0-9a-f]{64}$/);
		expect(validateIdempotencyKey(key)).toBeUndefined();
		expect(deriveIdempotencyKey({ ...parts })).toBe(key);
		expect(
			deriveIdempotencyKey({
				operation: 'quote:create',
				body: { appFees: [{ feeBps: 10, recipient: 'r' }], sourceChain: 'base', amount: '100' },
				itemIndex: 0,
				nodeName: 'Orchestration',
				executionId: '42',
				workflowId: 'wf1',
			}),
		).toBe(key);
		// Reference: hand-written canonical text of the parts, hashed with node:crypto.
		const text =
			'{"body":{"amount":"100","appFees":[{"feeBps":10,"recipient":"r"}],"sourceChain":"base"},' +
			'"executionId":"42","itemIndex":0,"nodeName":"Orchestration","operation":"quote:create","workflowId":"wf1"}';
		expect(key).toBe(`n8n-${createHash('sha256').update(text).digest('hex')}`);
	});

	test('changes with every part', () => {
		const key = deriveIdempotencyKey(parts);
		const variants = [
			{ ...parts, workflowId: 'wf2' },
			{ ...parts, executionId: '43' },
			{ ...parts, nodeName: 'Other' },
			{ ...parts, itemIndex: 1 },
			{ ...parts, operation: 'submit' },
			{ ...parts, body: { ...parts.body, amount: '101' } },
			{ ...parts, workflowId: undefined },
		];
		const keys = new Set(variants.map(deriveIdempotencyKey));
		expect(keys.size).toBe(variants.length);
		expect(keys.has(key)).toBe(false);
	});
});

describe('validateIdempotencyKey (1..255 printable ASCII)', () => {
	test.each([
		['a', true],
		['x'.repeat(255), true],
		[' ~!"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}', true],
		['', false],
		['x'.repeat(256), false],
		['tab\there', false],
		['new\nline', false],
		['del\u007f', false],
		['USD₮0', false],
		['é', false],
		['😀', false],
	])('%j valid=%s', (key, valid) => {
		expect(validateIdempotencyKey(key) === undefined).toBe(valid);
	});

	test('messages say why and where', () => {
		expect(validateIdempotencyKey('')).toMatch(/empty/);
		expect(validateIdempotencyKey('x'.repeat(256))).toMatch(/256 characters.*255/);
		expect(validateIdempotencyKey('ab\tc')).toMatch(/position 3 \(U\+0009\)/);
	});

	test('assertIdempotencyKey throws with the field and never echoes the key', () => {
		expect(() => assertIdempotencyKey('ok-key')).not.toThrow();
		try {
			assertIdempotencyKey('secret\tkey', 'options.idempotencyKey');
			throw new Error('expected a throw');
		} catch (err) {
			expect(err).toBeInstanceOf(ProtocolError);
			const e = err as ProtocolError;
			expect(e.field).toBe('options.idempotencyKey');
			expect(e.reason).toBe('invalid_idempotency_key');
			expect(e.message).toMatch(/^options\.idempotencyKey /);
			expect(e.message).not.toContain('secret');
		}
		expect(() => assertIdempotencyKey('')).toThrow(/^idempotencyKey must not be empty/);
	});
});
