// One value typed into a form, or produced by an expression, before it reaches a request: text,
// whole numbers and path segments. Both nodes read their parameters through these rules (through
// the n8n glue's ItemReader), so the same mistake gets the same message in either node. Nothing is
// rounded or stringified behind the user's back; length is capped before any pattern runs.
import { describeValue, ProtocolError } from './errors';

/** Longest integer text accepted for bps, indexes and counts (safe integers have 16 digits). */
export const MAX_INTEGER_LENGTH = 16;

/**
 * A text input (ids, keys, tokens, addresses): a string (trimmed) or a safe integer; objects,
 * arrays, booleans and inexact numbers are refused instead of becoming "[object Object]".
 */
export function textInput(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
	const what =
		typeof value === 'number'
			? `the number ${String(value)}, which is not exact as text`
			: describeValue(value);
	throw new ProtocolError(
		`must be text, got ${what}; pass a string (an expression must resolve to text)`,
		{ reason: 'type' },
	);
}

/**
 * An integer input (bps, output index...): a safe integer number, or digits as text (at most 16).
 * Undefined when empty. Fractions, exponents, hex and signs are refused, never rounded.
 */
export function integerInput(
	value: unknown,
	min = 0,
	max = Number.MAX_SAFE_INTEGER,
): number | undefined {
	if (value === undefined || value === null) return undefined;
	const n = typeof value === 'string' ? integerText(value.trim()) : integerNumber(value);
	if (n === undefined) return undefined;
	if (n < min || n > max)
		throw new ProtocolError(`${n} is out of range; it must be from ${min} to ${max}`, {
			reason: 'range',
		});
	return n;
}

function integerText(text: string): number | undefined {
	if (text === '') return undefined;
	if (text.length > MAX_INTEGER_LENGTH) {
		throw new ProtocolError(
			`is ${text.length} characters long; at most ${MAX_INTEGER_LENGTH} are allowed`,
			{ reason: 'too_long' },
		);
	}
	if (!/^[0-9]+$/.test(text))
		throw new ProtocolError(`${JSON.stringify(text)} must be a whole number, digits only`, {
			reason: 'not_integer',
		});
	return Number(text);
}

function integerNumber(value: unknown): number {
	if (typeof value !== 'number')
		throw new ProtocolError(`got ${describeValue(value)}; give a whole number`, { reason: 'type' });
	if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
		throw new ProtocolError(
			`${String(value)} is a JS number above 9007199254740991 (2^53 - 1) and not exact; give a smaller whole number`,
			{
				reason: 'unsafe_number',
			},
		);
	}
	if (!Number.isInteger(value)) {
		throw new ProtocolError(
			`${String(value)} is not a whole number (nothing is rounded); give an integer`,
			{ reason: 'not_integer' },
		);
	}
	return value;
}

/**
 * One path parameter, percent-encoded (`?`, `#`, `%` cannot leave the segment). Refused: a dot
 * segment (`.`, `..`, or one followed by `;`, which some servers read as `..`), a slash or backslash
 * (sent as %2F or %5C, which a proxy may decode into another path), control characters (NUL too)
 * and percent-escapes (a server that decodes twice would read them).
 */
export function pathSegment(value: string): string {
	if (value === '') throw new ProtocolError('is required', { reason: 'blank' });
	if (/^\.{1,2}(;.*)?$/s.test(value)) {
		throw new ProtocolError(
			`"${value.slice(0, 20)}" is a dot segment, not an identifier; it would address another endpoint`,
			{ reason: 'dot_segment' },
		);
	}
	if (/[/\\]/.test(value))
		throw new ProtocolError('must not contain "/" or "\\": an identifier is one path segment', {
			reason: 'path_separator',
		});
	if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
		throw new ProtocolError('must not contain control characters (a NUL, a line break, a tab)', {
			reason: 'control_character',
		});
	}
	if (/%[0-9a-fA-F]{2}/.test(value))
		throw new ProtocolError(
			'must be the identifier itself, not percent-encoded (it is encoded when sent)',
			{ reason: 'percent_encoded' },
		);
	return encodeURIComponent(value);
}
