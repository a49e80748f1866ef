/**
 * Revert lines carried in an EXPIRED intent's `statusMessage` (execution-gateway.md §2.3; the
 * line format is in public-notes.md), and the ABI decoding of their `output` bytes. Parsing is
 * lenient: fields may be missing, reordered, duplicated (first wins) or garbage; it never throws.
 */
import { bigintToFixedBytes, bytesToBigint, bytesToHex, bytesToPrefixedHex, tryHexToBytes } from './hex';

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
const PAIR_RE = /(?:^|[\s:,;])([A-Za-z_][A-Za-z0-9_]*)=([^\s]*?)(?=:[A-Za-z_][A-Za-z0-9_]*=|[\s,;]|$)/g;
const PREFIX_RE = /^\s*([A-Za-z0-9_.-]+):(?=\S)/;
const KNOWN_KEYS = new Set(['stage', 'outcome', 'intent_index', 'tx_hash', 'reason', 'gas_used', 'output']);
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
	if (bytes.length < 4) return { type: 'malformed', raw, reason: 'output is shorter than a 4-byte selector' };
	const selector = bytesToPrefixedHex(bytes.subarray(0, 4));
	const data = bytes.subarray(4);
	if (selector === ERROR_STRING_SELECTOR) {
		const offset = word(data, 0n);
		const length = offset === null ? null : word(data, offset);
		if (offset === null || length === null || offset + 32n + length > BigInt(data.length)) {
			return { type: 'malformed', raw, selector, reason: 'Error(string) data is truncated or its offsets are out of range' };
		}
		const start = Number(offset) + 32;
		const message = new TextDecoder('utf-8', { fatal: false }).decode(data.subarray(start, start + Number(length)));
		return { type: 'Error', message };
	}
	if (selector === PANIC_SELECTOR) {
		if (data.length !== 32) return { type: 'malformed', raw, selector, reason: 'Panic(uint256) data must be exactly 32 bytes' };
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
	if (fields.intent_index && DIGITS_RE.test(fields.intent_index) && fields.intent_index.length < 16) {
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

/** ABI encoding of `Error(string)` revert output (`0x` hex). */
export function encodeErrorString(message: string): string {
	const text = new TextEncoder().encode(message);
	const padded = new Uint8Array(Math.ceil(text.length / 32) * 32);
	padded.set(text);
	return (
		ERROR_STRING_SELECTOR +
		bytesToHex(bigintToFixedBytes(32n, 32)) +
		bytesToHex(bigintToFixedBytes(BigInt(text.length), 32)) +
		bytesToHex(padded)
	);
}

/** ABI encoding of `Panic(uint256)` revert output (`0x` hex). */
export function encodePanic(code: number | bigint): string {
	return PANIC_SELECTOR + bytesToHex(bigintToFixedBytes(BigInt(code), 32));
}

export type RevertLineParts = {
	prefix?: string;
	stage?: string;
	outcome?: string;
	intentIndex?: number;
	txHash: string;
	reason?: string;
	gasUsed: bigint | number | string;
	output: string;
};

/** Writes a revert line in the public-notes.md format (used by the sandbox). */
export function formatRevertLine(p: RevertLineParts): string {
	return (
		`${p.prefix ?? 'payload_flagged'}:stage=${p.stage ?? 'Execute'} outcome=${p.outcome ?? 'Reverted'}` +
		` intent_index=${p.intentIndex ?? 0} tx_hash=${p.txHash}` +
		` reason=${p.reason ?? 'reverted'}:gas_used=${p.gasUsed.toString()} output=${p.output}`
	);
}
