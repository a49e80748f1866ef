// X-Idempotency-Key (spec 4): fresh per operation, reused when retrying the same request.
// The live service accepts 1..255 printable ASCII characters (public-notes).
import { ProtocolError } from '../errors';
import { sha256Hex } from '../sha256';

/** `X-Idempotency-Key`: 1 to 255 printable ASCII characters (spec 4; public-notes). */
export const IDEMPOTENCY_KEY_MIN_LENGTH = 1;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * Whether the service answered from its idempotency store (public-notes: `X-Idempotency-Replayed:
 * true` on a replayed answer): the one reading of the header, as the transport passes it (lower-case
 * name, text or a list), in any case.
 */
export function isReplayed(headers: Record<string, unknown> | undefined): boolean {
	const raw = headers?.['x-idempotency-replayed'];
	const value = Array.isArray(raw) ? raw[0] : raw;
	return typeof value === 'string' && value.trim().toLowerCase() === 'true';
}

/**
 * JSON with object keys sorted (by UTF-16 code units) at every depth, so equal values give equal
 * text whatever their key order. Follows JSON.stringify otherwise (toJSON honoured, undefined and
 * functions dropped from objects and nulled in arrays, non-finite numbers become null); a bigint is
 * written as a decimal string, a cycle throws.
 */
export function canonicalJson(value: unknown): string {
	return write(value, new Set()) ?? 'null';
}

function write(value: unknown, seen: Set<object>): string | undefined {
	if (
		value !== null &&
		typeof value === 'object' &&
		typeof (value as { toJSON?: unknown }).toJSON === 'function'
	) {
		value = (value as { toJSON: () => unknown }).toJSON();
	}
	switch (typeof value) {
		case 'string':
			return JSON.stringify(value);
		case 'number':
			return Number.isFinite(value) ? JSON.stringify(value) : 'null';
		case 'boolean':
			return value ? 'true' : 'false';
		case 'bigint':
			return JSON.stringify(value.toString());
		case 'undefined':
		case 'function':
		case 'symbol':
			return undefined;
	}
	if (value === null) return 'null';
	const obj = value as object;
	if (seen.has(obj))
		throw new ProtocolError('Cannot serialize a value that contains a cycle', { reason: 'cycle' });
	seen.add(obj);
	let out: string;
	if (Array.isArray(obj)) {
		out = `[${obj.map((item) => write(item, seen) ?? 'null').join(',')}]`;
	} else {
		const record = obj as Record<string, unknown>;
		const parts: string[] = [];
		for (const key of Object.keys(record).sort()) {
			const text = write(record[key], seen);
			if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
		}
		out = `{${parts.join(',')}}`;
	}
	seen.delete(obj);
	return out;
}

export interface IdempotencyKeyParts {
	workflowId?: string;
	executionId?: string;
	nodeName: string;
	itemIndex: number;
	operation: string;
	body: unknown;
}

/** Prefix that marks keys derived by this package. */
export const IDEMPOTENCY_KEY_PREFIX = 'n8n-';

/**
 * Same execution, node, item, operation and body -> same key, so n8n's retry-on-fail replays instead
 * of creating a second quote; a new execution gets a new key. 68 printable ASCII characters.
 */
export function deriveIdempotencyKey(parts: IdempotencyKeyParts): string {
	const { workflowId, executionId, nodeName, itemIndex, operation, body } = parts;
	const canonical = canonicalJson({
		workflowId,
		executionId,
		nodeName,
		itemIndex,
		operation,
		body,
	});
	return IDEMPOTENCY_KEY_PREFIX + sha256Hex(canonical);
}

/** Error text for an invalid key (1..255 chars, each 0x20..0x7E), or undefined when valid. */
export function validateIdempotencyKey(key: string): string | undefined {
	if (typeof key !== 'string') return `must be a string, got ${typeof key}`;
	if (key.length < IDEMPOTENCY_KEY_MIN_LENGTH)
		return 'must not be empty (1 to 255 printable ASCII characters)';
	if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
		return `is ${key.length} characters long; at most ${IDEMPOTENCY_KEY_MAX_LENGTH} are allowed`;
	}
	for (let i = 0; i < key.length; i++) {
		const c = key.charCodeAt(i);
		if (c < 0x20 || c > 0x7e) {
			const code = c.toString(16).toUpperCase().padStart(4, '0');
			return `has a character outside printable ASCII (0x20-0x7E) at position ${i + 1} (U+${code})`;
		}
	}
	return undefined;
}

/** Throws a ProtocolError naming `field` when the key is invalid; the key itself is not echoed. */
export function assertIdempotencyKey(key: string, field = 'idempotencyKey'): void {
	const problem = validateIdempotencyKey(key);
	if (problem !== undefined) {
		throw new ProtocolError(`${field} ${problem}`, { field, reason: 'invalid_idempotency_key' });
	}
}

/** Prefix of submit's default key, derived from the quote and the deposit reference only. */
export const SUBMIT_KEY_PREFIX = 'n8n-submit-';

/** The members of a submit body that identify one payment: the quote and its deposit reference. */
const SUBMIT_REFERENCE_FIELDS = [
	'quoteId',
	'txHash',
	'bitcoinTxid',
	'bitcoinVout',
	'sparkTxHash',
	'lightningReceiveRequestId',
];

/**
 * Submit's default key: the same quote and deposit reference give the same key in any execution or
 * workflow, so submitting one payment again replays the first answer instead of a second submit.
 */
export function submitIdempotencyKey(body: Record<string, unknown>): string {
	const reference: Record<string, unknown> = {};
	for (const field of SUBMIT_REFERENCE_FIELDS) reference[field] = body[field];
	return SUBMIT_KEY_PREFIX + sha256Hex(canonicalJson(reference));
}

/**
 * The key the user set, checked once (1..255 printable ASCII); undefined when unset. The reader
 * passes it as text and untrimmed: it must stay the key earlier runs sent.
 */
export function explicitIdempotencyKey(key: string | undefined): string | undefined {
	if (key === undefined || key === '') return undefined;
	const problem = validateIdempotencyKey(key);
	if (problem !== undefined)
		throw new ProtocolError(problem, {
			field: 'idempotencyKey',
			reason: 'invalid_idempotency_key',
		});
	return key;
}

/** Prefix of the key a re-quote is sent under (Quote > Create, "Re-Quote When Expired"). */
export const REQUOTE_KEY_PREFIX = 'n8n-requote-';

/**
 * The key of a new quote replacing the expired one replayed under `key`: derived from that key and
 * the execution, so n8n's Retry On Fail walks the same keys and replays the same new quote, while a
 * later execution gets a quote of its own. 76 printable ASCII characters.
 */
export function requoteIdempotencyKey(key: string, executionId: string | undefined): string {
	return REQUOTE_KEY_PREFIX + sha256Hex(canonicalJson({ requoteOf: key, executionId }));
}

/** Prefix of a ZeroConf answer's key: `n8n-zeroconf-<action>-` and a hash of the order id. */
export const ZEROCONF_KEY_PREFIX = 'n8n-zeroconf-';

/**
 * The key of an answer to an order's ZeroConf offer (public-notes: X-Idempotency-Key), from the
 * order and the action only: n8n's retries and re-runs replay the first answer, never a second one.
 */
export function zeroconfIdempotencyKey(action: 'accept' | 'decline', orderId: string): string {
	return `${ZEROCONF_KEY_PREFIX}${action}-${sha256Hex(orderId)}`;
}
