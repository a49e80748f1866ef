/**
 * What the gateway answers, one zod schema per call the node makes (execution-gateway.md §2.2,
 * §2.3, §2.3a, §4): lenient (`passthrough`) so new server fields never break a client (§9). With
 * them the status values of §3 and the revert line of an EXPIRED intent's `statusMessage` (format
 * in public-notes.md), parsed leniently: fields may be missing, reordered, duplicated (first wins)
 * or garbage; parsing never throws.
 */
import { z } from 'zod';

import { bytesToBigint, bytesToPrefixedHex, tryHexToBytes } from './hex';

/** §3: status values, SCREAMING_SNAKE_CASE. */
export const INTENT_STATUSES = [
	'ACCEPTED',
	'INCLUDED_PENDING_FINALITY',
	'FINALIZED',
	'EXPIRED',
] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];
/** §3: terminal states; polling stops here. */
export const FINAL_INTENT_STATUSES = [
	'FINALIZED',
	'EXPIRED',
] as const satisfies readonly IntentStatus[];

export function isIntentStatus(value: unknown): value is IntentStatus {
	return typeof value === 'string' && (INTENT_STATUSES as readonly string[]).includes(value);
}

/**
 * A status in the spec's spelling (§3, upper case): the live service answers `accepted`,
 * `finalized`, so statuses compare case-insensitively. Unknown values pass unchanged.
 */
export function normalizeIntentStatus(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const upper = value.trim().toUpperCase();
	return isIntentStatus(upper) ? upper : value;
}

/** §3 terminal states, in any letter case. */
export function isFinalIntentStatus(value: unknown): boolean {
	const status = normalizeIntentStatus(value);
	return (
		typeof status === 'string' && (FINAL_INTENT_STATUSES as readonly string[]).includes(status)
	);
}

/**
 * A chain ID the intent is signed for: a positive safe integer, else the network info is
 * refused before anything is signed (0, -1, 1.5, 2^53 or "1" would sign an intent for no real chain).
 */
const ChainIdSchema = z
	.number()
	.refine((n) => Number.isSafeInteger(n) && n > 0, 'must be a positive safe integer (a chain ID)');

/** §2.3a network info. */
export const NetworkInfoSchema = z
	.object({
		spark: z.object({ depositAddress: z.string(), network: z.string() }).passthrough(),
		execution: z.object({ contractAddress: z.string(), chainId: ChainIdSchema }).passthrough(),
		paused: z.boolean(),
		minDepositSats: z.number().int().nonnegative(),
	})
	.passthrough();
export type NetworkInfo = z.infer<typeof NetworkInfoSchema>;

/** The text to sign, as the public client picks it: `challengeString`, else `challenge` (§5). */
export function challengeTextOf(body: unknown): string | undefined {
	const b = (body ?? {}) as { challenge?: unknown; challengeString?: unknown };
	if (typeof b.challengeString === 'string' && b.challengeString !== '') return b.challengeString;
	return typeof b.challenge === 'string' && b.challenge !== '' ? b.challenge : undefined;
}

/** §4 verify response. */
export const VerifyResponseSchema = z.object({ accessToken: z.string().min(1) }).passthrough();
export type VerifyResponse = z.infer<typeof VerifyResponseSchema>;

/** §2.2 submission response. */
export const ExecuteResponseSchema = z
	.object({ submissionId: z.string(), intentId: z.string(), status: z.string() })
	.passthrough();
export type ExecuteResponse = z.infer<typeof ExecuteResponseSchema>;

/** §2.3 intent status; nullable fields default to null when a server omits them. */
export const IntentStatusSchema = z
	.object({
		submissionId: z.string(),
		intentId: z.string(),
		status: z.string(),
		statusMessage: z.string().nullable().default(null),
		executionTxHash: z.string().nullable().default(null),
		createdAt: z.string(),
		updatedAt: z.string(),
	})
	.passthrough();
export type IntentStatusResponse = z.infer<typeof IntentStatusSchema>;

/* Revert lines of an EXPIRED intent (§2.3, public-notes.md) and the ABI decoding of their output. */

export const ERROR_STRING_SELECTOR = '0x08c379a0';
export const PANIC_SELECTOR = '0x4e487b71';

/** Solidity's panic codes (Solidity docs, "Panic via assert and Error via require"). */
export const PANIC_CODE_MEANINGS: Readonly<Record<string, string>> = {
	'0x00': 'generic compiler-inserted panic',
	'0x01': 'assertion failed (assert)',
	'0x11': 'arithmetic overflow or underflow',
	'0x12': 'division or modulo by zero',
	'0x21': 'invalid enum conversion',
	'0x22': 'incorrectly encoded storage byte array',
	'0x31': 'pop() on an empty array',
	'0x32': 'array index out of bounds',
	'0x41': 'out of memory (allocation too large)',
	'0x51': 'call to a zero-initialized internal function pointer',
};

export type DecodedRevertOutput =
	| { type: 'empty' }
	| { type: 'Error'; message: string }
	| { type: 'Panic'; code: string; meaning: string }
	| { type: 'custom'; selector: string; data: string }
	| { type: 'malformed'; raw: string; reason: string; selector?: string };

export type ParsedRevert = {
	raw: string;
	prefix?: string;
	stage?: string;
	outcome?: string;
	intentIndex?: number;
	txHash?: string;
	reason?: string;
	gasUsed?: string;
	output?: string;
	decoded?: DecodedRevertOutput;
	/** Every `key=value` pair seen (first occurrence of each key), including unknown ones. */
	fields: Record<string, string>;
};

/** `key=value` pairs separated by whitespace, or by `:` when a new `key=` follows (reason=reverted:gas_used=...). */
const PAIR_RE =
	/(?:^|[\s:,;])([A-Za-z_][A-Za-z0-9_]*)=([^\s]*?)(?=:[A-Za-z_][A-Za-z0-9_]*=|[\s,;]|$)/g;
const PREFIX_RE = /^\s*([A-Za-z0-9_.-]+):(?=\S)/;
const KNOWN_KEYS = new Set([
	'stage',
	'outcome',
	'intent_index',
	'tx_hash',
	'reason',
	'gas_used',
	'output',
]);
const DIGITS_RE = /^[0-9]+$/;

function panicCodeHex(code: bigint): string {
	return `0x${code.toString(16).padStart(2, '0')}`;
}

/** Meaning of a Solidity panic code, or a generic text for unknown codes. */
export function panicMeaning(code: bigint | number): string {
	return PANIC_CODE_MEANINGS[panicCodeHex(BigInt(code))] ?? 'unknown panic code';
}

function word(data: Uint8Array, offset: bigint): bigint | null {
	if (offset < 0n || offset + 32n > BigInt(data.length)) return null;
	const start = Number(offset);
	return bytesToBigint(data.subarray(start, start + 32));
}

/** Decodes revert output bytes: Error(string), Panic(uint256), a custom selector, or empty. */
export function decodeRevertOutput(hex: string): DecodedRevertOutput {
	const raw = typeof hex === 'string' ? hex : String(hex);
	const bytes = tryHexToBytes(raw.trim());
	if (!bytes) return { type: 'malformed', raw, reason: 'output is not hex' };
	if (bytes.length === 0) return { type: 'empty' };
	if (bytes.length < 4)
		return { type: 'malformed', raw, reason: 'output is shorter than a 4-byte selector' };
	const selector = bytesToPrefixedHex(bytes.subarray(0, 4));
	const data = bytes.subarray(4);
	if (selector === ERROR_STRING_SELECTOR) {
		const offset = word(data, 0n);
		const length = offset === null ? null : word(data, offset);
		if (offset === null || length === null || offset + 32n + length > BigInt(data.length)) {
			return {
				type: 'malformed',
				raw,
				selector,
				reason: 'Error(string) data is truncated or its offsets are out of range',
			};
		}
		const start = Number(offset) + 32;
		const message = new TextDecoder('utf-8', { fatal: false }).decode(
			data.subarray(start, start + Number(length)),
		);
		return { type: 'Error', message };
	}
	if (selector === PANIC_SELECTOR) {
		if (data.length !== 32)
			return {
				type: 'malformed',
				raw,
				selector,
				reason: 'Panic(uint256) data must be exactly 32 bytes',
			};
		const code = bytesToBigint(data);
		return { type: 'Panic', code: panicCodeHex(code), meaning: panicMeaning(code) };
	}
	return { type: 'custom', selector, data: bytesToPrefixedHex(data) };
}

/** Parses a revert line; null for non-strings, empty text or text with none of the revert fields. */
export function parseRevertLine(line: string | null | undefined): ParsedRevert | null {
	if (typeof line !== 'string' || line.trim() === '') return null;
	const fields: Record<string, string> = {};
	for (const m of line.matchAll(PAIR_RE)) {
		if (!(m[1] in fields)) fields[m[1]] = m[2];
	}
	if (!Object.keys(fields).some((k) => KNOWN_KEYS.has(k))) return null;
	const out: ParsedRevert = { raw: line, fields };
	const prefix = PREFIX_RE.exec(line)?.[1];
	if (prefix && !prefix.includes('=')) out.prefix = prefix;
	if (fields.stage) out.stage = fields.stage;
	if (fields.outcome) out.outcome = fields.outcome;
	if (
		fields.intent_index &&
		DIGITS_RE.test(fields.intent_index) &&
		fields.intent_index.length < 16
	) {
		out.intentIndex = Number(fields.intent_index);
	}
	if (fields.tx_hash) out.txHash = fields.tx_hash;
	if (fields.reason) out.reason = fields.reason;
	if (fields.gas_used && DIGITS_RE.test(fields.gas_used)) out.gasUsed = fields.gas_used;
	if (fields.output !== undefined && fields.output !== '') {
		out.output = fields.output;
		out.decoded = decodeRevertOutput(fields.output);
	}
	return out;
}

/** The EXPIRED reason as the node outputs it. */
export type StatusReason = Record<string, unknown>;

/** §3: why an intent expires, from the code at the start of its statusMessage. */
function failureKind(code: string | undefined): string {
	if (!code) return 'other';
	if (code.startsWith('oracle')) return 'oracle';
	if (code.includes('deadline') || code === 'expired') return 'deadline';
	if (code.startsWith('admission')) return 'admission';
	return 'other';
}

/**
 * The EXPIRED reason (§2.3): a revert line parsed into stage, outcome, intent index, tx hash, gas
 * and decoded output (public-notes.md), or `code: detail` text (oracle, deadline, admission).
 */
export function statusReasonOf(statusMessage: string | null): StatusReason | null {
	if (statusMessage === null || statusMessage.trim() === '') return null;
	const revert = parseRevertLine(statusMessage);
	if (
		revert &&
		(revert.stage !== undefined || revert.outcome !== undefined || revert.output !== undefined)
	) {
		const reason: StatusReason = { kind: 'revert' };
		if (revert.prefix !== undefined) reason.code = revert.prefix;
		if (revert.stage !== undefined) reason.stage = revert.stage;
		if (revert.outcome !== undefined) reason.outcome = revert.outcome;
		if (revert.intentIndex !== undefined) reason.intentIndex = revert.intentIndex;
		if (revert.txHash !== undefined) reason.txHash = revert.txHash;
		if (revert.reason !== undefined) reason.reason = revert.reason;
		// Gas is a u64 on the chain: kept as a decimal string.
		if (revert.gasUsed !== undefined) reason.gasUsed = revert.gasUsed;
		if (revert.output !== undefined) reason.output = revert.output;
		if (revert.decoded !== undefined) reason.decoded = { ...revert.decoded };
		return reason;
	}
	const text = statusMessage.trim();
	const coded = /^([a-z][a-z0-9_]*)(?::\s*([\s\S]*))?$/.exec(text);
	const code = coded && (coded[2] !== undefined || coded[1].includes('_')) ? coded[1] : undefined;
	const detail = code ? coded?.[2] : text;
	return { kind: failureKind(code), ...(code ? { code } : {}), ...(detail ? { detail } : {}) };
}
