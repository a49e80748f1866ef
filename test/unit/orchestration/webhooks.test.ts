import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import {
	computeWebhookSignature,
	jsonNestingExceeds,
	LIVE_SIGNATURE_HEADER,
	LIVE_TIMESTAMP_HEADER,
	MAX_WEBHOOK_JSON_DEPTH,
	SIGNATURE_HEADER_NAMES,
	verifyWebhookDelivery,
	MIN_WEBHOOK_SECRET_LENGTH,
	webhookSecretProblem,
	payloadHash,
	ProtocolError,
	readWebhookHeaders,
	SIGNATURE_HEADER,
	signWebhookDelivery,
	TIMESTAMP_HEADER,
	verifyWebhookSignature,
	WEBHOOK_REJECTION_REASONS,
	webhookDuplicateKey,
	type WebhookVerification,
	type WebhookVerificationInput,
} from '../../../nodes/shared/orchestration';

// Independent reference: plain node:crypto over the exact bytes `timestamp + "." + raw_body` (spec 6).
function reference(secret: string, timestamp: string, raw: Buffer): string {
	return createHmac('sha256', secret)
		.update(Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), raw]))
		.digest('hex');
}

const SECRET = 'whsec_test_secret';
const TS = '1700000000000';
const NOW = 1_700_000_000_000;
const BODY_TEXT =
	'{"event":"order.completed","data":{"id":"ord_1","status":"completed","updatedAt":"2024-01-01T00:00:00Z","asset":"USD₮0"}}';
const BODY = Buffer.from(BODY_TEXT, 'utf8');
// Computed outside this code base: printf '%s' "$TS.$BODY" | openssl dgst -sha256 -hmac whsec_test_secret
const OPENSSL_SIGNATURE = 'a2e6538830965ca0e609bbe40c639f633961983930688c52576791b508f32e9d';
// printf '%s' "$BODY" | sha256sum
const OPENSSL_BODY_SHA256 = '09df7599589826bdd29d68f608c7f0d1f4622b7fc207025f2adede0874d23776';

function verify(overrides: Partial<WebhookVerificationInput> = {}): WebhookVerification {
	return verifyWebhookSignature({
		secret: SECRET,
		signature: OPENSSL_SIGNATURE,
		timestamp: TS,
		rawBody: BODY,
		nowMs: NOW,
		...overrides,
	});
}

function expectRejected(result: WebhookVerification, reason: string): void {
	expect(result).toMatchObject({ ok: false, reason });
	if (result.ok) return;
	expect(result.message.length).toBeGreaterThan(0);
}

describe('computeWebhookSignature (spec 6)', () => {
	test('matches a vector computed with openssl over the raw bytes', () => {
		expect(computeWebhookSignature(SECRET, TS, BODY)).toBe(OPENSSL_SIGNATURE);
		expect(computeWebhookSignature(SECRET, TS, BODY_TEXT)).toBe(OPENSSL_SIGNATURE);
	});

	test('matches node:crypto for arbitrary secrets, timestamps and byte bodies', () => {
		fc.assert(
			fc.property(
				fc.string({ minLength: 1 }),
				fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }),
				fc.uint8Array({ maxLength: 2048 }),
				(secret, ts, bytes) => {
					const raw = Buffer.from(bytes);
					const signature = computeWebhookSignature(secret, ts.toString(), raw);
					expect(signature).toBe(reference(secret, ts.toString(), raw));
					expect(signature).toMatch(/^[0-9a-f]{64}$/);
				},
			),
		);
	});

	test('the secret cache does not leak one secret into the next', () => {
		const a = computeWebhookSignature('secret-a', TS, BODY);
		const b = computeWebhookSignature('secret-b', TS, BODY);
		expect(a).toBe(reference('secret-a', TS, BODY));
		expect(b).toBe(reference('secret-b', TS, BODY));
		expect(computeWebhookSignature('secret-a', TS, BODY)).toBe(a);
	});

	test('signWebhookDelivery produces headers that verify', () => {
		const signed = signWebhookDelivery(SECRET, BODY, NOW + 5);
		expect(signed.timestamp).toBe(String(NOW + 5));
		expect(signed.headers[SIGNATURE_HEADER]).toBe(reference(SECRET, signed.timestamp, BODY));
		expect(signed.headers[TIMESTAMP_HEADER]).toBe(signed.timestamp);
		expect(verify({ signature: signed.signature, timestamp: signed.timestamp })).toEqual({
			ok: true,
			timestampMs: NOW + 5,
		});
	});
});

describe('verifyWebhookSignature: acceptance', () => {
	test('accepts the openssl vector, as Buffer and as string', () => {
		expect(verify()).toEqual({ ok: true, timestampMs: NOW });
		expect(verify({ rawBody: BODY_TEXT })).toEqual({ ok: true, timestampMs: NOW });
	});

	test('upper-case hex is accepted (same bytes; documented choice)', () => {
		expect(verify({ signature: OPENSSL_SIGNATURE.toUpperCase() }).ok).toBe(true);
	});

	test('non-ASCII bodies are verified over the received bytes, not re-serialized JSON', () => {
		// Re-serializing changes bytes (spacing, escaping) and must fail.
		const reserialized = JSON.stringify(JSON.parse(BODY_TEXT), null, 1);
		expectRejected(verify({ rawBody: reserialized }), 'mismatch');
		const escaped = JSON.stringify(JSON.parse(BODY_TEXT)).replace('₮', '\\u20ae');
		expect(JSON.parse(escaped)).toEqual(JSON.parse(BODY_TEXT));
		expectRejected(verify({ rawBody: escaped }), 'mismatch');
		// Decoding the bytes with the wrong charset changes them too.
		expectRejected(verify({ rawBody: BODY.toString('latin1') }), 'mismatch');
	});

	test('random signed deliveries verify; any single changed byte is a mismatch', () => {
		fc.assert(
			fc.property(
				fc.string({ minLength: 1, maxLength: 64 }),
				fc.uint8Array({ minLength: 1, maxLength: 512 }),
				fc.nat(),
				fc.integer({ min: 1, max: 255 }),
				(secret, bytes, position, delta) => {
					const raw = Buffer.from(bytes);
					const signature = reference(secret, TS, raw);
					const base = { secret, signature, timestamp: TS, nowMs: NOW };
					expect(verifyWebhookSignature({ ...base, rawBody: raw }).ok).toBe(true);
					const tampered = Buffer.from(raw);
					const i = position % tampered.length;
					tampered[i] = (tampered[i] + delta) % 256;
					expect(verifyWebhookSignature({ ...base, rawBody: tampered })).toMatchObject({ reason: 'mismatch' });
				},
			),
		);
	});
});

describe('verifyWebhookSignature: every rejection reason', () => {
	test('missing_signature: absent or empty header', () => {
		expectRejected(verify({ signature: undefined }), 'missing_signature');
		expectRejected(verify({ signature: '' }), 'missing_signature');
	});

	test('missing_timestamp: absent or empty header', () => {
		expectRejected(verify({ timestamp: undefined }), 'missing_timestamp');
		expectRejected(verify({ timestamp: '' }), 'missing_timestamp');
	});

	test('malformed_signature: repeated header, wrong length, non-hex, prefixes', () => {
		expectRejected(verify({ signature: [OPENSSL_SIGNATURE] }), 'malformed_signature');
		expect(verify({ signature: [OPENSSL_SIGNATURE] })).toMatchObject({ message: expect.stringMatching(/more than once/) });
		expect(verify({ timestamp: [TS] })).toMatchObject({ message: expect.stringMatching(/more than once/) });
		expectRejected(verify({ signature: [OPENSSL_SIGNATURE, OPENSSL_SIGNATURE] }), 'malformed_signature');
		expectRejected(verify({ signature: OPENSSL_SIGNATURE.slice(0, 63) }), 'malformed_signature');
		expectRejected(verify({ signature: `${OPENSSL_SIGNATURE}0` }), 'malformed_signature');
		expectRejected(verify({ signature: `sha256=${OPENSSL_SIGNATURE}` }), 'malformed_signature');
		expectRejected(verify({ signature: `${OPENSSL_SIGNATURE}, ${OPENSSL_SIGNATURE}` }), 'malformed_signature');
		expectRejected(verify({ signature: Buffer.from(BODY).toString('base64').slice(0, 64) }), 'malformed_signature');
	});

	test('malformed_signature: a non-hex character at any of the 64 positions', () => {
		for (let i = 0; i < 64; i++) {
			for (const bad of ['g', 'z', ' ', '-', 'é']) {
				const signature = OPENSSL_SIGNATURE.slice(0, i) + bad + OPENSSL_SIGNATURE.slice(i + 1);
				if (signature.length !== 64) continue;
				expectRejected(verify({ signature }), 'malformed_signature');
			}
		}
	});

	test('malformed_timestamp: repeated header, not digits, too long', () => {
		for (const timestamp of [
			[TS],
			`${TS}.5`,
			`-${TS}`,
			`+${TS}`,
			` ${TS}`,
			`${TS} `,
			'1.7e12',
			'2023-11-14T22:13:20Z',
			'0x18bcfe56800',
			'1234567890123456',
			'１７００',
		]) {
			expectRejected(verify({ timestamp }), 'malformed_timestamp');
		}
	});

	test('stale and future, with the tolerance edges in milliseconds', () => {
		const signedAt = (ms: number) => {
			const timestamp = String(ms);
			return { timestamp, signature: reference(SECRET, timestamp, BODY) };
		};
		// Exactly at the default 300 s tolerance: accepted either way.
		expect(verify({ ...signedAt(NOW - 300_000) }).ok).toBe(true);
		expect(verify({ ...signedAt(NOW + 300_000) }).ok).toBe(true);
		// One millisecond beyond.
		expectRejected(verify({ ...signedAt(NOW - 300_001) }), 'stale');
		expectRejected(verify({ ...signedAt(NOW + 300_001) }), 'future');
		// A custom tolerance.
		expect(verify({ ...signedAt(NOW - 10_000), toleranceSeconds: 10 }).ok).toBe(true);
		expectRejected(verify({ ...signedAt(NOW - 10_001), toleranceSeconds: 10 }), 'stale');
		expectRejected(verify({ ...signedAt(NOW + 10_001), toleranceSeconds: 10 }), 'future');
		// Zero tolerance: only the exact millisecond.
		expect(verify({ ...signedAt(NOW), toleranceSeconds: 0 }).ok).toBe(true);
		expectRejected(verify({ ...signedAt(NOW - 1), toleranceSeconds: 0 }), 'stale');
		expectRejected(verify({ ...signedAt(NOW + 1), toleranceSeconds: 0 }), 'future');
	});

	test('stale is decided before the HMAC: an old replay with a valid signature is still refused', () => {
		expectRejected(verify({ nowMs: NOW + 3_600_000 }), 'stale');
	});

	test('without nowMs the real clock is used', () => {
		const timestamp = String(Date.now());
		expect(
			verifyWebhookSignature({
				secret: SECRET,
				timestamp,
				signature: reference(SECRET, timestamp, BODY),
				rawBody: BODY,
			}).ok,
		).toBe(true);
		expectRejected(
			verifyWebhookSignature({ secret: SECRET, timestamp: TS, signature: OPENSSL_SIGNATURE, rawBody: BODY }),
			'stale',
		);
	});

	test('mismatch: wrong secret, body changed by one byte, timestamp header changed, signature changed', () => {
		expectRejected(verify({ secret: 'whsec_other' }), 'mismatch');
		const oneByte = Buffer.from(BODY);
		oneByte[oneByte.length - 2] ^= 0x01;
		expectRejected(verify({ rawBody: oneByte }), 'mismatch');
		expectRejected(verify({ rawBody: Buffer.concat([BODY, Buffer.from('\n')]) }), 'mismatch');
		expectRejected(verify({ timestamp: String(NOW + 1) }), 'mismatch');
		const flipped = (OPENSSL_SIGNATURE[0] === '0' ? '1' : '0') + OPENSSL_SIGNATURE.slice(1);
		expectRejected(verify({ signature: flipped }), 'mismatch');
	});

	test('all seven reasons are reachable and listed', () => {
		expect([...WEBHOOK_REJECTION_REASONS].sort()).toEqual(
			['future', 'malformed_signature', 'malformed_timestamp', 'mismatch', 'missing_signature', 'missing_timestamp', 'stale'].sort(),
		);
	});

	test('messages never contain the secret or the expected signature', () => {
		const secret = 'whsec_VERY_SECRET_VALUE_123';
		const expected = reference(secret, TS, BODY);
		const results = [
			verifyWebhookSignature({ secret, signature: undefined, timestamp: TS, rawBody: BODY, nowMs: NOW }),
			verifyWebhookSignature({ secret, signature: expected, timestamp: undefined, rawBody: BODY, nowMs: NOW }),
			verifyWebhookSignature({ secret, signature: 'xyz', timestamp: TS, rawBody: BODY, nowMs: NOW }),
			verifyWebhookSignature({ secret, signature: expected, timestamp: 'abc', rawBody: BODY, nowMs: NOW }),
			verifyWebhookSignature({ secret, signature: expected, timestamp: TS, rawBody: BODY, nowMs: NOW + 1e9 }),
			verifyWebhookSignature({ secret, signature: expected, timestamp: TS, rawBody: BODY, nowMs: NOW - 1e9 }),
			verifyWebhookSignature({ secret, signature: '0'.repeat(64), timestamp: TS, rawBody: BODY, nowMs: NOW }),
		];
		const reasons = new Set<string>();
		for (const result of results) {
			expect(result.ok).toBe(false);
			if (result.ok) continue;
			reasons.add(result.reason);
			expect(result.message).not.toContain(secret);
			expect(result.message).not.toContain(expected);
			expect(result.message.toLowerCase()).not.toContain(expected.slice(0, 16));
		}
		expect(reasons.size).toBe(7);
	});

	test('configuration errors throw instead of rejecting', () => {
		expect(() => verify({ secret: '' })).toThrow(ProtocolError);
		expect(() => verify({ toleranceSeconds: -1 })).toThrow(/toleranceSeconds/);
		expect(() => verify({ toleranceSeconds: Number.NaN })).toThrow(/toleranceSeconds/);
		expect(() => verify({ toleranceSeconds: Number.POSITIVE_INFINITY })).toThrow(/toleranceSeconds/);
	});
});

describe('readWebhookHeaders: the spec\'s names and the live ones (public-notes), exactly one of each', () => {
	const spec = { 'x-service-signature': 'a', 'x-service-timestamp': 'b' };
	const live = { 'x-flashnet-signature': 'c', 'x-flashnet-timestamp': 'd' };

	test('finds either pair whatever its case, and says which', () => {
		expect(readWebhookHeaders(spec)).toMatchObject({ ok: true, signature: 'a', timestamp: 'b', headerSet: { signatureName: 'X-Service-Signature' } });
		expect(readWebhookHeaders({ 'X-Service-Signature': 'a', 'X-SERVICE-TIMESTAMP': ['b', 'c'] })).toMatchObject({ ok: true, signature: 'a', timestamp: ['b', 'c'] });
		expect(readWebhookHeaders({ 'X-Flashnet-Signature': 'c', 'x-FLASHNET-timestamp': 'd' })).toMatchObject({
			ok: true,
			signature: 'c',
			timestamp: 'd',
			headerSet: { signatureName: 'X-Flashnet-Signature', timestampName: 'X-Flashnet-Timestamp' },
		});
		expect(SIGNATURE_HEADER_NAMES).toEqual([SIGNATURE_HEADER, TIMESTAMP_HEADER, LIVE_SIGNATURE_HEADER, LIVE_TIMESTAMP_HEADER]);
	});

	test('none: the spec\'s names are reported missing; one of a pair: the other of that pair', () => {
		expect(readWebhookHeaders({ other: 'x' })).toMatchObject({ ok: true, signature: undefined, timestamp: undefined, headerSet: { signatureName: 'X-Service-Signature' } });
		expect(readWebhookHeaders({ 'x-flashnet-timestamp': 'd' })).toMatchObject({ ok: true, signature: undefined, headerSet: { signatureName: 'X-Flashnet-Signature' } });
	});

	test('refuses a second signature or timestamp header, of either set, and a pair mixed from both', () => {
		expect(readWebhookHeaders({ ...spec, ...live })).toMatchObject({ ok: false, reason: 'malformed_signature', message: expect.stringMatching(/Exactly one signature header.*X-Service-Signature and X-Flashnet-Signature/) });
		expect(readWebhookHeaders({ ...spec, 'x-flashnet-signature': 'c' })).toMatchObject({ ok: false, reason: 'malformed_signature' });
		expect(readWebhookHeaders({ ...spec, 'x-flashnet-timestamp': 'd' })).toMatchObject({ ok: false, reason: 'malformed_timestamp', message: expect.stringMatching(/Exactly one timestamp header/) });
		expect(readWebhookHeaders({ 'x-service-signature': 'a', 'x-flashnet-timestamp': 'd' })).toMatchObject({
			ok: false,
			reason: 'malformed_timestamp',
			message: 'X-Service-Signature comes with X-Service-Timestamp, not X-Flashnet-Timestamp',
		});
		// The same name twice, in another case (a header map built by hand): never one of them chosen.
		expect(readWebhookHeaders({ ...live, 'X-Flashnet-Signature': 'e' })).toMatchObject({ ok: false, reason: 'malformed_signature', message: expect.stringMatching(/more than once/) });
		expect(readWebhookHeaders({ ...live, 'X-Flashnet-Timestamp': 'e' })).toMatchObject({ ok: false, reason: 'malformed_timestamp' });
	});
});

describe('verifyWebhookDelivery: one pass over the headers and the secrets', () => {
	const liveHeaders = (secret: string, timestamp = TS) => ({ 'x-flashnet-signature': reference(secret, timestamp, BODY), 'x-flashnet-timestamp': timestamp });

	test('a delivery signed under the live names verifies with the same rules as the spec\'s', () => {
		expect(verifyWebhookDelivery({ secrets: [SECRET], headers: liveHeaders(SECRET), rawBody: BODY, nowMs: NOW })).toMatchObject({
			ok: true,
			timestampMs: NOW,
			secretIndex: 0,
			signature: OPENSSL_SIGNATURE,
			headerSet: { signatureName: 'X-Flashnet-Signature' },
		});
		expect(verifyWebhookDelivery({ secrets: [SECRET], headers: { [SIGNATURE_HEADER]: OPENSSL_SIGNATURE, [TIMESTAMP_HEADER]: TS }, rawBody: BODY, nowMs: NOW })).toMatchObject({ ok: true });
		// Tolerance, raw body and format: named with the live headers.
		expect(verifyWebhookDelivery({ secrets: [SECRET], headers: liveHeaders(SECRET), rawBody: BODY, nowMs: NOW + 300_001 })).toMatchObject({
			ok: false,
			reason: 'stale',
			message: expect.stringMatching(/^X-Flashnet-Timestamp is 300001 ms old/),
		});
		expect(verifyWebhookDelivery({ secrets: [SECRET], headers: liveHeaders(SECRET), rawBody: BODY_TEXT.replace('ord_1', 'ord_2'), nowMs: NOW })).toMatchObject({
			ok: false,
			reason: 'mismatch',
			message: expect.stringMatching(/^X-Flashnet-Signature does not match/),
		});
		expect(verifyWebhookDelivery({ secrets: [SECRET], headers: { 'x-flashnet-timestamp': TS }, rawBody: BODY, nowMs: NOW })).toMatchObject({ reason: 'missing_signature', message: 'Missing X-Flashnet-Signature header' });
		// Both sets, even both correctly signed: refused before any HMAC.
		const both = { ...liveHeaders(SECRET), [SIGNATURE_HEADER]: OPENSSL_SIGNATURE, [TIMESTAMP_HEADER]: TS };
		expect(verifyWebhookDelivery({ secrets: [SECRET], headers: both, rawBody: BODY, nowMs: NOW })).toMatchObject({ ok: false, reason: 'malformed_signature' });
	});

	test('picks the secret whose signature matches, trying them in order', () => {
		const other = 'whsec_recovery_secret_0123';
		expect(verifyWebhookDelivery({ secrets: [SECRET, other], headers: liveHeaders(other), rawBody: BODY, nowMs: NOW })).toMatchObject({ ok: true, secretIndex: 1 });
		expect(verifyWebhookDelivery({ secrets: [SECRET, other], headers: liveHeaders(SECRET), rawBody: BODY, nowMs: NOW })).toMatchObject({ ok: true, secretIndex: 0 });
		expect(verifyWebhookDelivery({ secrets: [SECRET, other], headers: liveHeaders('whsec_neither_0000000'), rawBody: BODY, nowMs: NOW })).toMatchObject({ ok: false, reason: 'mismatch' });
		expect(() => verifyWebhookDelivery({ secrets: [SECRET, ''], headers: liveHeaders(SECRET), rawBody: BODY, nowMs: NOW })).toThrow(ProtocolError);
	});
});

describe('jsonNestingExceeds: depth read from the bytes, before parsing', () => {
	const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

	test('counts objects and arrays, not brackets inside strings or escaped quotes', () => {
		expect(MAX_WEBHOOK_JSON_DEPTH).toBe(64);
		expect(jsonNestingExceeds(nested(64), 64)).toBe(false);
		expect(jsonNestingExceeds(nested(65), 64)).toBe(true);
		expect(jsonNestingExceeds(Buffer.from(nested(65)), 64)).toBe(true);
		expect(jsonNestingExceeds('{"a":{"b":[{"c":1}]}}', 4)).toBe(false);
		expect(jsonNestingExceeds('{"a":{"b":[{"c":1}]}}', 3)).toBe(true);
		expect(jsonNestingExceeds(JSON.stringify({ a: '[[[[[[{{{{' }), 1)).toBe(false);
		expect(jsonNestingExceeds(JSON.stringify({ a: 'quote \\" [[[[ \\\\' , b: '{{{{' }), 1)).toBe(false);
		expect(jsonNestingExceeds(Buffer.from(JSON.stringify({ 'USD₮0 [': ['{'] })), 2)).toBe(false);
	});

	test('finds 100,000 levels in a delivery, and passes a flat megabyte', () => {
		const deep = Buffer.from(`{"event":"order.completed","data":{"id":"o","x":${nested(100_000)}}}`);
		expect(jsonNestingExceeds(deep, MAX_WEBHOOK_JSON_DEPTH)).toBe(true);
		expect(jsonNestingExceeds(Buffer.alloc(1_048_576, 0x20), MAX_WEBHOOK_JSON_DEPTH)).toBe(false);
	});
});

describe('duplicate keys (spec 6)', () => {
	const envelope = {
		event: 'order.completed',
		timestamp: '2024-01-01T00:00:05Z',
		data: { id: 'ord_1', status: 'completed', updatedAt: '2024-01-01T00:00:00Z' },
	};

	test('stable across retries: new timestamp header and signature, same key', () => {
		const raw = JSON.stringify(envelope);
		const first = signWebhookDelivery(SECRET, raw, NOW);
		const retry = signWebhookDelivery(SECRET, raw, NOW + 10_000);
		expect(first.signature).not.toBe(retry.signature);
		const keyOf = (body: string) => webhookDuplicateKey(JSON.parse(body));
		expect(keyOf(raw)).toBe(keyOf(raw));
		expect(webhookDuplicateKey(envelope)).toBe(JSON.stringify(['ord_1', 'order.completed', '2024-01-01T00:00:00Z']));
		expect(payloadHash(raw)).toBe(payloadHash(Buffer.from(raw)));
	});

	test('differs when any of id, event or updatedAt differs', () => {
		const base = webhookDuplicateKey(envelope);
		expect(webhookDuplicateKey({ ...envelope, event: 'order.failed' })).not.toBe(base);
		expect(webhookDuplicateKey({ ...envelope, data: { ...envelope.data, id: 'ord_2' } })).not.toBe(base);
		expect(webhookDuplicateKey({ ...envelope, data: { ...envelope.data, updatedAt: 'later' } })).not.toBe(base);
	});

	test('unambiguous when parts contain separators', () => {
		const a = webhookDuplicateKey({ event: 'c', data: { id: 'a|b', updatedAt: 'd' } });
		const b = webhookDuplicateKey({ event: 'b|c', data: { id: 'a', updatedAt: 'd' } });
		const c = webhookDuplicateKey({ event: 'x', data: { id: 'a","x', updatedAt: 'y' } });
		const d = webhookDuplicateKey({ event: 'x","y', data: { id: 'a', updatedAt: 'y' } });
		expect(new Set([a, b, c, d]).size).toBe(4);
		fc.assert(
			fc.property(fc.tuple(fc.string(), fc.string(), fc.string()), fc.tuple(fc.string(), fc.string(), fc.string()), (x, y) => {
				const kx = webhookDuplicateKey({ data: { id: x[0], updatedAt: x[2] }, event: x[1] });
				const ky = webhookDuplicateKey({ data: { id: y[0], updatedAt: y[2] }, event: y[1] });
				expect(kx === ky).toBe(x[0] === y[0] && x[1] === y[1] && x[2] === y[2]);
			}),
		);
	});

	test('payloadHash is the SHA-256 of the raw bytes', () => {
		expect(payloadHash(BODY)).toBe(OPENSSL_BODY_SHA256);
		expect(payloadHash(BODY_TEXT)).toBe(OPENSSL_BODY_SHA256);
		const bytes = Buffer.from([0, 255, 1, 254]);
		expect(payloadHash(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
	});
});

describe('webhookSecretProblem (a secret must never become a public key)', () => {
	test('refuses what String() would turn into "undefined", "null" or "[object Object]", and short secrets', () => {
		for (const value of [undefined, null, '', {}, [], 42, true, Symbol.iterator]) {
			expect(webhookSecretProblem(value)).toEqual(expect.any(String));
		}
		expect(webhookSecretProblem(null)).toBe('no webhook secret is set');
		expect(webhookSecretProblem({ a: 1 })).toBe('the webhook secret is not a string (it resolved to object)');
		expect(webhookSecretProblem(['x'])).toBe('the webhook secret is not a string (it resolved to an array)');
		expect(webhookSecretProblem('a'.repeat(MIN_WEBHOOK_SECRET_LENGTH - 1))).toMatch(/15 characters; at least 16/);
		expect(webhookSecretProblem(` ${'a'.repeat(10)} `.repeat(1))).toMatch(/at least 16/);
	});

	test('accepts a string of 16 characters or more, and never echoes the value', () => {
		expect(webhookSecretProblem('a'.repeat(MIN_WEBHOOK_SECRET_LENGTH))).toBeUndefined();
		expect(webhookSecretProblem('whsec_' + 'f'.repeat(64))).toBeUndefined();
		expect(webhookSecretProblem('short-secret')).not.toContain('short-secret');
	});
});
