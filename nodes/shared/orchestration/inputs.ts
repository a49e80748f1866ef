// Exact reading of user inputs that reach the wire (amounts, integers, text), whatever their
// source: typed text, or a value an expression produced (number, object...). Nothing is rounded,
// truncated or stringified behind the user's back; every check is linear and length-capped first.
import { AmountError, decimalToSmallestUnit, isDigits, trimTrailingZeros } from './amounts';
import { ProtocolError } from '../errors';
import { EXACT_DOUBLE_DIGITS, MAX_AMOUNT_LENGTH, MAX_DECIMALS, MAX_INTEGER_LENGTH } from './limits';

export type AmountFormat = 'smallestUnit' | 'decimal';

function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function tooLong(text: string, max: number): AmountError {
	return new AmountError('too_long', `is ${text.length} characters long; at most ${max} are allowed`);
}

/** Significant digits of a plain decimal text ("0.0012" -> 2, "120.5" -> 4). */
function significantDigits(text: string): number {
	const digits = text.replace('.', '');
	let start = 0;
	while (start < digits.length - 1 && digits.charCodeAt(start) === 48) start++;
	return trimTrailingZeros(digits.slice(start)).length;
}

/**
 * The exact text of a JS number, or an AmountError: safe integers always; other numbers only
 * for decimals whose text has no exponent and at most 15 significant digits.
 */
function numberText(value: number, allowFraction: boolean): string {
	if (!Number.isFinite(value)) throw new AmountError('type', `${String(value)} is not a finite number`);
	if (value < 0) throw new AmountError('sign', `${String(value)} is negative; amounts are never negative`);
	if (Number.isSafeInteger(value)) return String(value);
	const text = String(value);
	const asText = '(in an expression: quotes around it, or the source field as text)';
	if (Number.isInteger(value)) {
		throw new AmountError('unsafe_number', `${text} is a JS number above 9007199254740991 (2^53 - 1), so its last digits are already lost; pass it as a string of digits instead, e.g. "1234567890123456789" ${asText}`);
	}
	if (!allowFraction) {
		throw new AmountError('not_integer', `${text} is not a whole number; smallest units are whole (for a decimal amount set "Amount Format" to Decimal)`);
	}
	if (text.includes('e') || significantDigits(text) > EXACT_DOUBLE_DIGITS) {
		throw new AmountError('unsafe_number', `${text} is a JS number that does not hold this decimal exactly; pass the amount as a string instead, e.g. "0.3" ${asText}`);
	}
	return text;
}

/** An amount input as exact text; strings are trimmed. Throws AmountError saying how to pass it. */
export function amountInputText(value: unknown, format: AmountFormat): string {
	if (typeof value === 'number') return numberText(value, format === 'decimal');
	if (typeof value === 'bigint') {
		if (value < 0n) throw new AmountError('sign', `${value} is negative; amounts are never negative`);
		return value.toString();
	}
	if (value === undefined || value === null) return '';
	if (typeof value !== 'string') {
		throw new AmountError('type', `got ${kindOf(value)}; pass the amount as a string of digits, e.g. "1500000"`);
	}
	const text = value.trim();
	if (text.length > MAX_AMOUNT_LENGTH) throw tooLong(text, MAX_AMOUNT_LENGTH);
	return text;
}

function show(value: string): string {
	return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
}

/**
 * Syntax of an amount text before any request: digits for smallest units (spec 4.1 `^[0-9]+$`),
 * a plain decimal otherwise (precision is checked later, with the asset's decimals).
 */
export function assertAmountText(text: string, format: AmountFormat): void {
	if (text === '') throw new AmountError('blank', 'an amount is required');
	if (text.length > MAX_AMOUNT_LENGTH) throw tooLong(text, MAX_AMOUNT_LENGTH);
	if (format === 'smallestUnit') {
		if (isDigits(text)) return;
		const decimal = text.includes('.') && isDigits(text.replace('.', ''));
		const hint = decimal ? ' (for a decimal amount set "Amount Format" to Decimal)' : '';
		throw new AmountError('not_integer', `${show(text)} must be a whole number of smallest units, digits only${hint}`);
	}
	// precision needs the asset's decimals, known only later: every other problem is reported now
	const failure = amountFailureOf(() => decimalToSmallestUnit(text, MAX_DECIMALS));
	if (failure && failure.reason !== 'precision') throw failure;
}

/** The AmountError `rule` throws, or undefined; any other error becomes an AmountError too. */
export function amountFailureOf(rule: () => unknown): AmountError | undefined {
	try {
		rule();
		return undefined;
	} catch (error) {
		return error instanceof AmountError ? error : new AmountError('type', String(error));
	}
}

/**
 * An integer input (bps, output index...): a safe integer number, or digits as text (at most 16).
 * Undefined when empty. Fractions, exponents, hex and signs are refused, never rounded.
 */
export function integerInput(value: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
	if (value === undefined || value === null) return undefined;
	let n: number;
	if (typeof value === 'number') {
		if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
			throw new AmountError('unsafe_number', `${String(value)} is a JS number above 9007199254740991 (2^53 - 1) and not exact; give a smaller whole number`);
		}
		if (!Number.isInteger(value)) {
			throw new AmountError('not_integer', `${String(value)} is not a whole number (nothing is rounded); give an integer`);
		}
		n = value;
	} else if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') return undefined;
		if (text.length > MAX_INTEGER_LENGTH) throw tooLong(text, MAX_INTEGER_LENGTH);
		if (!isDigits(text)) throw new AmountError('not_integer', `${show(text)} must be a whole number, digits only`);
		n = Number(text);
	} else {
		throw new AmountError('type', `got ${kindOf(value)}; give a whole number`);
	}
	if (n < min || n > max) throw new AmountError('range', `${n} is out of range; it must be from ${min} to ${max}`);
	return n;
}

/**
 * A text input (ids, keys, tokens, addresses): a string (trimmed) or a safe integer; objects,
 * arrays, booleans and inexact numbers are refused instead of becoming "[object Object]".
 */
export function textInput(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
	const what = typeof value === 'number' ? `the number ${String(value)}, which is not exact as text` : kindOf(value);
	throw new AmountError('type', `must be text, got ${what}; pass a string (an expression must resolve to text)`);
}

/**
 * The request with the "Additional Fields" members added. A member the operation already set from
 * its own, validated parameters (or sets later: `alsoSet`) is refused (it would silently override
 * them); others pass through.
 */
export function mergeAdditionalFields(body: Record<string, unknown>, extra: Record<string, unknown>, alsoSet: string[] = []): Record<string, unknown> {
	const collisions = Object.keys(extra).filter((key) => Object.prototype.hasOwnProperty.call(body, key) || alsoSet.includes(key));
	if (collisions.length > 0) {
		const names = collisions.map((key) => `"${key}"`).join(', ');
		throw new ProtocolError(
			`sets ${names}, which this operation already sets from its own parameter${collisions.length > 1 ? 's' : ''}; ` +
				'change the parameter instead (additional fields may only add members the node does not set)',
			{ reason: 'additional_field_collision' },
		);
	}
	return { ...body, ...extra };
}

/**
 * One path parameter, percent-encoded (`/`, `?`, `#`, `%` cannot leave the segment). A dot segment
 * (`.` or `..`) is refused: URL normalisation would move the request to another endpoint.
 */
export function pathSegment(value: string): string {
	if (value === '') throw new ProtocolError('is required', { reason: 'blank' });
	if (value === '.' || value === '..') {
		throw new ProtocolError(`"${value}" is a dot segment, not an identifier; it would address another endpoint`, { reason: 'dot_segment' });
	}
	return encodeURIComponent(value);
}
