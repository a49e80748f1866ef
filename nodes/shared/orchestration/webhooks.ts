// Webhook signatures (spec 6): hex(HMAC_SHA256(secret, timestamp + "." + raw_body)) in
// X-Service-Signature, epoch milliseconds in X-Service-Timestamp. Verification runs over the exact
// received bytes and the header timestamp, never over re-serialized JSON or a payload time.
// The hot path is kept close to a bare createHmac call: no regexes, one small allocation.
import { createHmac, createSecretKey, timingSafeEqual, type Hmac, type KeyObject } from 'node:crypto';
import { ProtocolError } from '../errors';
import { sha256Hex } from '../sha256';
import { WEBHOOK_TOLERANCE_SECONDS } from './limits';

/** Header names as Node lower-cases them (spec 6: X-Service-Signature, X-Service-Timestamp). */
export const SIGNATURE_HEADER = 'x-service-signature';
export const TIMESTAMP_HEADER = 'x-service-timestamp';

export type WebhookRejectionReason =
	| 'missing_signature'
	| 'missing_timestamp'
	| 'malformed_signature'
	| 'malformed_timestamp'
	| 'stale'
	| 'future'
	| 'mismatch';

export const WEBHOOK_REJECTION_REASONS: readonly WebhookRejectionReason[] = [
	'missing_signature',
	'missing_timestamp',
	'malformed_signature',
	'malformed_timestamp',
	'stale',
	'future',
	'mismatch',
];

export type WebhookVerification =
	| { ok: true; timestampMs: number }
	| { ok: false; reason: WebhookRejectionReason; message: string };

export interface WebhookVerificationInput {
	secret: string;
	signature: string | string[] | undefined;
	timestamp: string | string[] | undefined;
	/** The exact received bytes; a string is taken as its UTF-8 encoding. */
	rawBody: Buffer | string;
	/** Accepted clock skew either way, default 300 s; exactly at the tolerance is still accepted. */
	toleranceSeconds?: number;
	/** The receiver's clock, default Date.now(). */
	nowMs?: number;
}

// createHmac with a cached KeyObject is measurably faster than with a string key (the key is not
// re-imported per call); only the most recent secret is kept, since a receiver uses one or two.
let cachedSecret: string | undefined;
let cachedKey: KeyObject | undefined;

function keyFor(secret: string): KeyObject {
	if (secret !== cachedSecret || cachedKey === undefined) {
		cachedKey = createSecretKey(secret, 'utf8');
		cachedSecret = secret;
	}
	return cachedKey;
}

function hmacOf(secret: string, timestamp: string, rawBody: Buffer | string): Hmac {
	const hmac = createHmac('sha256', keyFor(secret));
	// A string body is concatenated (one native call); a Buffer is fed as is, never re-encoded.
	if (typeof rawBody === 'string') hmac.update(timestamp + '.' + rawBody);
	else hmac.update(timestamp + '.').update(rawBody);
	return hmac;
}

function hmacHex(secret: string, timestamp: string, rawBody: Buffer | string): string {
	return hmacOf(secret, timestamp, rawBody).digest('hex');
}

// Scratch space for the constant-time comparison (no allocation per call). Verification is
// synchronous, so calls cannot interleave; what stays behind is a signature already sent in clear.
const expectedBytes = Buffer.alloc(32);
const givenBytes = Buffer.alloc(32);

/** Lowercase hex HMAC-SHA256 over `timestamp + "." + rawBody` (spec 6). */
export function computeWebhookSignature(secret: string, timestamp: string, rawBody: Buffer | string): string {
	return hmacHex(secret, timestamp, rawBody);
}

/** Signs one delivery attempt the way the service does (spec 6: fresh timestamp per attempt). */
export function signWebhookDelivery(
	secret: string,
	rawBody: Buffer | string,
	timestampMs: number = Date.now(),
): { timestamp: string; signature: string; headers: Record<string, string> } {
	const timestamp = String(Math.trunc(timestampMs));
	const signature = computeWebhookSignature(secret, timestamp, rawBody);
	return { timestamp, signature, headers: { [SIGNATURE_HEADER]: signature, [TIMESTAMP_HEADER]: timestamp } };
}

function reject(reason: WebhookRejectionReason, message: string): WebhookVerification {
	return { ok: false, reason, message };
}

const SIG = 'X-Service-Signature';
const TS = 'X-Service-Timestamp';

/** Digits only, at most 15 so the value stays an exact integer in a double (a linear scan). */
function isEpochMillis(timestamp: string): boolean {
	if (timestamp.length > 15) return false;
	for (let i = 0; i < timestamp.length; i++) {
		const c = timestamp.charCodeAt(i);
		if (c < 48 || c > 57) return false;
	}
	return true;
}

/**
 * Verifies one delivery. Order of checks: presence, format, clock window, then the HMAC, so cheap
 * rejections cost no hashing. The signature is compared as decoded bytes in constant time, so
 * upper-case hex is accepted too: case carries no information and the spec's sender emits lowercase.
 * A header given as an array (sent twice) is malformed. Messages never contain the secret or the
 * expected signature.
 */
export function verifyWebhookSignature(input: WebhookVerificationInput): WebhookVerification {
	const { secret, signature, timestamp } = input;
	if (typeof secret !== 'string' || secret.length === 0) {
		throw new ProtocolError('The webhook secret is empty', { field: 'secret', reason: 'missing_secret' });
	}
	if (signature === undefined || signature === '') return reject('missing_signature', `Missing ${SIG} header`);
	if (timestamp === undefined || timestamp === '') return reject('missing_timestamp', `Missing ${TS} header`);
	if (typeof signature !== 'string') {
		return reject('malformed_signature', `${SIG} must be one header value (it was sent more than once)`);
	}
	// Node's hex decoder stops at the first non-hex pair, so 64 chars -> 32 bytes proves all were hex.
	if (signature.length !== 64 || givenBytes.write(signature, 'hex') !== 32) {
		return reject('malformed_signature', `${SIG} must be 64 hexadecimal characters (HMAC-SHA256)`);
	}
	if (typeof timestamp !== 'string') {
		return reject('malformed_timestamp', `${TS} must be one header value (it was sent more than once)`);
	}
	if (!isEpochMillis(timestamp)) return reject('malformed_timestamp', `${TS} must be epoch milliseconds (digits only)`);
	const timestampMs = Number(timestamp);
	const toleranceSeconds = input.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
	if (!(toleranceSeconds >= 0) || !Number.isFinite(toleranceSeconds)) {
		throw new ProtocolError('toleranceSeconds must be a finite number >= 0', {
			field: 'toleranceSeconds',
			reason: 'invalid_tolerance',
		});
	}
	const skewMs = (input.nowMs ?? Date.now()) - timestampMs;
	const toleranceMs = toleranceSeconds * 1000;
	if (skewMs > toleranceMs) {
		return reject('stale', `${TS} is ${skewMs} ms old; the tolerance is ${toleranceSeconds} s (replayed or delayed delivery)`);
	}
	if (-skewMs > toleranceMs) {
		return reject('future', `${TS} is ${-skewMs} ms in the future; the tolerance is ${toleranceSeconds} s (check the clock)`);
	}
	// The 32 digest bytes as a one-byte-per-char (latin1) string: cheaper than digest() into a fresh Buffer
	// or a hex round trip (measured by npm run bench), and the comparison stays on raw bytes.
	expectedBytes.write(hmacOf(secret, timestamp, input.rawBody).digest('binary'), 'binary');
	if (!timingSafeEqual(expectedBytes, givenBytes)) {
		return reject(
			'mismatch',
			`${SIG} does not match: wrong secret, or the body was changed (verify the raw received bytes, not re-serialized JSON)`,
		);
	}
	return { ok: true, timestampMs };
}

/** Reads both signature headers from a header map, case-insensitively. */
export function readWebhookHeaders(headers: Record<string, string | string[] | undefined>): {
	signature: string | string[] | undefined;
	timestamp: string | string[] | undefined;
} {
	let signature = headers[SIGNATURE_HEADER];
	let timestamp = headers[TIMESTAMP_HEADER];
	if (signature === undefined || timestamp === undefined) {
		for (const name of Object.keys(headers)) {
			const lower = name.toLowerCase();
			if (signature === undefined && lower === SIGNATURE_HEADER) signature = headers[name];
			else if (timestamp === undefined && lower === TIMESTAMP_HEADER) timestamp = headers[name];
		}
	}
	return { signature, timestamp };
}

/**
 * Duplicate key of spec 6: (data.id, event, data.updatedAt). Never the signature timestamp, which
 * changes on every retry. JSON of the tuple stays unambiguous whatever the parts contain.
 */
export function webhookDuplicateKey(envelope: { event: string; data: { id: string; updatedAt: string } }): string {
	return JSON.stringify([envelope.data.id, envelope.event, envelope.data.updatedAt]);
}

/** The other safe duplicate key of spec 6: lowercase hex SHA-256 of the raw payload bytes. */
export function payloadHash(rawBody: Buffer | string): string {
	return sha256Hex(rawBody);
}

/** Shortest secret accepted as an HMAC key (the service's secrets are far longer). */
export const MIN_WEBHOOK_SECRET_LENGTH = 16;

/**
 * Why a configured secret cannot be an HMAC key, or undefined when it can. An expression that
 * resolved to undefined, null or an object must never become the public key "undefined", "null"
 * or "[object Object]". The message describes the value's kind and length, never the value.
 */
export function webhookSecretProblem(secret: unknown): string | undefined {
	if (secret === undefined || secret === null || secret === '') return 'no webhook secret is set';
	if (typeof secret !== 'string') return `the webhook secret is not a string (it resolved to ${Array.isArray(secret) ? 'an array' : typeof secret})`;
	if (secret.trim().length < MIN_WEBHOOK_SECRET_LENGTH) {
		return `the webhook secret has ${secret.trim().length} characters; at least ${MIN_WEBHOOK_SECRET_LENGTH} are expected`;
	}
	return undefined;
}
