// Webhook signatures (spec 6): hex(HMAC_SHA256(secret, timestamp + "." + raw_body)) in
// X-Service-Signature, epoch milliseconds in X-Service-Timestamp. The live service sends the same
// two headers under its own prefix, X-Flashnet-Signature and X-Flashnet-Timestamp (public-notes,
// "Webhooks"): both sets are read, with the same rules. Verification runs over the exact received
// bytes and the header timestamp, never over re-serialized JSON or a payload time.
// The hot path is kept close to a bare createHmac call: no regexes, one small allocation.
import {
	createHmac,
	createSecretKey,
	timingSafeEqual,
	type Hmac,
	type KeyObject,
} from 'node:crypto';
import { ProtocolError } from '../errors';
import { sha256Hex } from '../sha256';
import { canonicalJson } from './idempotency';
import { WEBHOOK_TOLERANCE_SECONDS } from './limits';

/** Header names as Node lower-cases them (spec 6: X-Service-Signature, X-Service-Timestamp). */
export const SIGNATURE_HEADER = 'x-service-signature';
export const TIMESTAMP_HEADER = 'x-service-timestamp';
/** The live service's names for the same two headers (public-notes, "Webhooks"). */
export const LIVE_SIGNATURE_HEADER = 'x-flashnet-signature';
export const LIVE_TIMESTAMP_HEADER = 'x-flashnet-timestamp';

/** One pair of signature headers, with the names messages show. */
export interface WebhookHeaderSet {
	signature: string;
	timestamp: string;
	signatureName: string;
	timestampName: string;
}

/** The pairs a delivery may be signed under: the spec's first, then the live service's. */
export const WEBHOOK_HEADER_SETS: readonly WebhookHeaderSet[] = [
	{
		signature: SIGNATURE_HEADER,
		timestamp: TIMESTAMP_HEADER,
		signatureName: 'X-Service-Signature',
		timestampName: 'X-Service-Timestamp',
	},
	{
		signature: LIVE_SIGNATURE_HEADER,
		timestamp: LIVE_TIMESTAMP_HEADER,
		signatureName: 'X-Flashnet-Signature',
		timestampName: 'X-Flashnet-Timestamp',
	},
];

/** Every header that carries a signature or its timestamp, lower-cased (kept out of outputs by default). */
export const SIGNATURE_HEADER_NAMES: readonly string[] = WEBHOOK_HEADER_SETS.flatMap((set) => [
	set.signature,
	set.timestamp,
]);

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
	/** The header names the values came from (for messages); the spec's by default. */
	headerSet?: WebhookHeaderSet;
}

// createHmac with a cached KeyObject is measurably faster than with a string key (the key is not
// re-imported per call); the most recent secrets are kept, since a receiver uses one or two.
const cachedKeys = new Map<string, KeyObject>();

function keyFor(secret: string): KeyObject {
	let key = cachedKeys.get(secret);
	if (key === undefined) {
		key = createSecretKey(secret, 'utf8');
		if (cachedKeys.size >= 4) cachedKeys.delete(cachedKeys.keys().next().value as string);
		cachedKeys.set(secret, key);
	}
	return key;
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
export function computeWebhookSignature(
	secret: string,
	timestamp: string,
	rawBody: Buffer | string,
): string {
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
	return {
		timestamp,
		signature,
		headers: { [SIGNATURE_HEADER]: signature, [TIMESTAMP_HEADER]: timestamp },
	};
}

function reject(
	reason: WebhookRejectionReason,
	message: string,
): { ok: false; reason: WebhookRejectionReason; message: string } {
	return { ok: false, reason, message };
}

/** Digits only, at most 15 so the value stays an exact integer in a double (a linear scan). */
function isEpochMillis(timestamp: string): boolean {
	if (timestamp.length > 15) return false;
	for (let i = 0; i < timestamp.length; i++) {
		const c = timestamp.charCodeAt(i);
		if (c < 48 || c > 57) return false;
	}
	return true;
}

function usableSecret(secret: unknown): asserts secret is string {
	if (typeof secret !== 'string' || secret.length === 0) {
		throw new ProtocolError('The webhook secret is empty', {
			field: 'secret',
			reason: 'missing_secret',
		});
	}
}

interface SignedRequest {
	signature: string | string[] | undefined;
	timestamp: string | string[] | undefined;
	headerSet: WebhookHeaderSet;
	toleranceSeconds?: number;
	nowMs?: number;
}

/**
 * Everything but the HMAC, in order: presence, format, clock window, so cheap rejections cost no
 * hashing. On success the given signature's bytes are in `givenBytes`.
 */
function checkSignedRequest(
	input: SignedRequest,
):
	| { ok: true; timestampMs: number; timestamp: string }
	| { ok: false; reason: WebhookRejectionReason; message: string } {
	const { signature, timestamp } = input;
	const SIG = input.headerSet.signatureName;
	const TS = input.headerSet.timestampName;
	if (signature === undefined || signature === '')
		return reject('missing_signature', `Missing ${SIG} header`);
	if (timestamp === undefined || timestamp === '')
		return reject('missing_timestamp', `Missing ${TS} header`);
	if (typeof signature !== 'string') {
		return reject(
			'malformed_signature',
			`${SIG} must be one header value (it was sent more than once)`,
		);
	}
	// Node's hex decoder stops at the first non-hex pair, so 64 chars -> 32 bytes proves all were hex.
	if (signature.length !== 64 || givenBytes.write(signature, 'hex') !== 32) {
		return reject('malformed_signature', `${SIG} must be 64 hexadecimal characters (HMAC-SHA256)`);
	}
	if (typeof timestamp !== 'string') {
		return reject(
			'malformed_timestamp',
			`${TS} must be one header value (it was sent more than once)`,
		);
	}
	if (!isEpochMillis(timestamp))
		return reject('malformed_timestamp', `${TS} must be epoch milliseconds (digits only)`);
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
		return reject(
			'stale',
			`${TS} is ${skewMs} ms old; the tolerance is ${toleranceSeconds} s (replayed or delayed delivery)`,
		);
	}
	if (-skewMs > toleranceMs) {
		return reject(
			'future',
			`${TS} is ${-skewMs} ms in the future; the tolerance is ${toleranceSeconds} s (check the clock)`,
		);
	}
	return { ok: true, timestampMs, timestamp };
}

/** Whether `secret` signed the request whose signature bytes are in `givenBytes` (constant time). */
function signedWith(secret: string, timestamp: string, rawBody: Buffer | string): boolean {
	// The 32 digest bytes as a one-byte-per-char (latin1) string: cheaper than digest() into a fresh Buffer
	// or a hex round trip (measured by npm run bench), and the comparison stays on raw bytes.
	expectedBytes.write(hmacOf(secret, timestamp, rawBody).digest('binary'), 'binary');
	return timingSafeEqual(expectedBytes, givenBytes);
}

function mismatch(headerSet: WebhookHeaderSet): {
	ok: false;
	reason: WebhookRejectionReason;
	message: string;
} {
	return reject(
		'mismatch',
		`${headerSet.signatureName} does not match: wrong secret, or the body was changed (verify the raw received bytes, not re-serialized JSON)`,
	);
}

/**
 * Verifies one delivery against one secret, given the header values. The signature is compared as
 * decoded bytes in constant time, so upper-case hex is accepted too: case carries no information and
 * the spec's sender emits lowercase. A header given as an array (sent twice) is malformed. Messages
 * never contain the secret or the expected signature.
 */
export function verifyWebhookSignature(input: WebhookVerificationInput): WebhookVerification {
	usableSecret(input.secret);
	const checked = checkSignedRequest({
		...input,
		headerSet: input.headerSet ?? WEBHOOK_HEADER_SETS[0],
	});
	if (!checked.ok) return checked;
	if (!signedWith(input.secret, checked.timestamp, input.rawBody))
		return mismatch(input.headerSet ?? WEBHOOK_HEADER_SETS[0]);
	return { ok: true, timestampMs: checked.timestampMs };
}

export type WebhookHeaderRead =
	| {
			ok: true;
			signature: string | string[] | undefined;
			timestamp: string | string[] | undefined;
			headerSet: WebhookHeaderSet;
	  }
	| { ok: false; reason: WebhookRejectionReason; message: string };

/**
 * The signature and timestamp of a delivery, from a header map, case-insensitively, under the
 * spec's names or the live ones. Exactly one signature header and one timestamp header, of the
 * same set: a second one (the other set's, or the same name twice with other case) is refused,
 * never chosen from. Without any, the spec's names are reported missing.
 */
export function readWebhookHeaders(
	headers: Record<string, string | string[] | undefined>,
): WebhookHeaderRead {
	const found = new Map<string, Array<string | string[]>>();
	for (const name of Object.keys(headers)) {
		const lower = name.toLowerCase();
		const value = headers[name];
		if (value === undefined || !SIGNATURE_HEADER_NAMES.includes(lower)) continue;
		found.set(lower, [...(found.get(lower) ?? []), value]);
	}
	const signatures = WEBHOOK_HEADER_SETS.filter((set) => found.has(set.signature));
	const timestamps = WEBHOOK_HEADER_SETS.filter((set) => found.has(set.timestamp));
	const names = (sets: WebhookHeaderSet[], pick: (set: WebhookHeaderSet) => string) =>
		sets.map(pick).join(' and ');
	if (signatures.length > 1) {
		return reject(
			'malformed_signature',
			`Exactly one signature header is accepted; this delivery carries ${names(signatures, (s) => s.signatureName)}`,
		);
	}
	if (timestamps.length > 1) {
		return reject(
			'malformed_timestamp',
			`Exactly one timestamp header is accepted; this delivery carries ${names(timestamps, (s) => s.timestampName)}`,
		);
	}
	const twice = (name: string) => (found.get(name)?.length ?? 0) > 1;
	if (signatures.length === 1 && twice(signatures[0].signature)) {
		return reject(
			'malformed_signature',
			`${signatures[0].signatureName} must be one header value (it was sent more than once)`,
		);
	}
	if (timestamps.length === 1 && twice(timestamps[0].timestamp)) {
		return reject(
			'malformed_timestamp',
			`${timestamps[0].timestampName} must be one header value (it was sent more than once)`,
		);
	}
	const headerSet = signatures[0] ?? timestamps[0] ?? WEBHOOK_HEADER_SETS[0];
	if (timestamps.length === 1 && signatures.length === 1 && timestamps[0] !== headerSet) {
		return reject(
			'malformed_timestamp',
			`${headerSet.signatureName} comes with ${headerSet.timestampName}, not ${timestamps[0].timestampName}`,
		);
	}
	return {
		ok: true,
		signature: found.get(headerSet.signature)?.[0],
		timestamp: found.get(headerSet.timestamp)?.[0],
		headerSet,
	};
}

export interface WebhookDeliveryInput {
	/** The secrets the delivery may be signed with, in the order they are tried. */
	secrets: readonly string[];
	headers: Record<string, string | string[] | undefined>;
	rawBody: Buffer | string;
	toleranceSeconds?: number;
	nowMs?: number;
}

export type WebhookDeliveryVerification =
	| {
			ok: true;
			timestampMs: number;
			signature: string;
			secretIndex: number;
			headerSet: WebhookHeaderSet;
	  }
	| { ok: false; reason: WebhookRejectionReason; message: string };

/**
 * Verifies one delivery in one pass: its headers read once, format and clock checked once, then the
 * HMAC of each secret until one matches (`secretIndex`). An endpoint with a recovery subscription has
 * two secrets; nothing is verified twice.
 */
export function verifyWebhookDelivery(input: WebhookDeliveryInput): WebhookDeliveryVerification {
	for (const secret of input.secrets) usableSecret(secret);
	const read = readWebhookHeaders(input.headers);
	if (!read.ok) return read;
	const checked = checkSignedRequest({
		...read,
		toleranceSeconds: input.toleranceSeconds,
		nowMs: input.nowMs,
	});
	if (!checked.ok) return checked;
	const secretIndex = input.secrets.findIndex((secret) =>
		signedWith(secret, checked.timestamp, input.rawBody),
	);
	if (secretIndex < 0) return mismatch(read.headerSet);
	return {
		ok: true,
		timestampMs: checked.timestampMs,
		signature: read.signature as string,
		secretIndex,
		headerSet: read.headerSet,
	};
}

/**
 * Duplicate key of spec 6: (data.id, event, data.updatedAt). Never the signature timestamp, which
 * changes on every retry. JSON of the tuple stays unambiguous whatever the parts contain.
 */
export function webhookDuplicateKey(envelope: {
	event: string;
	data: { id: string; updatedAt: string };
}): string {
	return JSON.stringify([envelope.data.id, envelope.event, envelope.data.updatedAt]);
}

/**
 * The duplicate key of an event without `data.updatedAt` (the docs' `data` examples omit it): the
 * event and its data, never the envelope's `timestamp` or the signature's time, which a retried
 * delivery renews (public-notes: `timestamp` is the delivery time; delivery is at least once).
 */
export function eventDuplicateKey(event: string, data: Record<string, unknown>): string {
	return `sha256:${sha256Hex(canonicalJson([event, data]))}`;
}

/**
 * Deepest nesting of objects and arrays a delivery may have. The service's order snapshot nests
 * four levels; far deeper JSON parses, but n8n cannot store it (serializing it overflows the stack).
 */
export const MAX_WEBHOOK_JSON_DEPTH = 64;

/**
 * Whether JSON text nests objects and arrays deeper than `maxDepth`, read in one linear scan of the
 * bytes, before anything is parsed. Brackets inside strings do not count; the text need not be valid
 * JSON (the parser refuses that afterwards).
 */
export function jsonNestingExceeds(raw: Buffer | string, maxDepth: number): boolean {
	const text = typeof raw === 'string';
	let depth = 0;
	let inString = false;
	for (let i = 0; i < raw.length; i++) {
		const c = text ? (raw as string).charCodeAt(i) : (raw as Buffer)[i];
		if (inString) {
			if (c === 0x5c)
				i++; // a backslash escapes the next character (a quote included)
			else if (c === 0x22) inString = false;
		} else if (c === 0x22) inString = true;
		else if (c === 0x5b || c === 0x7b) {
			if (++depth > maxDepth) return true;
		} else if (c === 0x5d || c === 0x7d) depth--;
	}
	return false;
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
	if (typeof secret !== 'string')
		return `the webhook secret is not a string (it resolved to ${Array.isArray(secret) ? 'an array' : typeof secret})`;
	if (secret.trim().length < MIN_WEBHOOK_SECRET_LENGTH) {
		return `the webhook secret has ${secret.trim().length} characters; at least ${MIN_WEBHOOK_SECRET_LENGTH} are expected`;
	}
	return undefined;
}
