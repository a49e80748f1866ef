// Exact amounts that reach the wire (decimal text <-> smallest-unit integer strings), whatever their
// source (typed text, or a value an expression produced). Nothing is rounded, truncated or
// stringified behind the user's back; every check is linear and length-capped first.
//
// Exact conversion between human decimals and smallest-unit integer strings (spec 2: amounts are
// integer strings in the asset's smallest unit, `decimals` from the routes listing).
// Strings and bigint only: a JS number would silently round values above 2^53.
//
// Accepted decimal input: ASCII digits with at most one dot that has a digit on BOTH sides
// ("0.5", "1", "1.0", "007.50"). Rejected on purpose: ".5" and "1." (incomplete, most likely a
// typo in a money field), surrounding whitespace, signs, exponents, grouping separators.
// Fractional zeros beyond the asset's precision are accepted because the value stays exact
// ("1.5000000" with 6 decimals is 1500000).
import { describeValue, ProtocolError } from '../errors';

/** Largest `decimals` the amount helpers accept. */
export const MAX_DECIMALS = 30;
/** Longest amount text accepted, checked before any pattern runs (uint256 has 78 digits). */
export const MAX_AMOUNT_LENGTH = 100;
/** Significant digits a double keeps exactly for any decimal text (DBL_DIG). */
export const EXACT_DOUBLE_DIGITS = 15;
/** Fee parts of quotes and orders (§2.2 and public-notes), all counted in `feeAsset`. */
export const FEE_FIELDS = [
	'feeAmount',
	'roundingFeeAmount',
	'totalFeeAmount',
	'appFeeAmount',
	'appFeePlatformCutAmount',
	'sweepFeeAmount',
] as const;

export type AmountErrorReason =
	| 'type'
	| 'blank'
	| 'whitespace'
	| 'sign'
	| 'exponent'
	| 'non_digit'
	| 'multiple_dots'
	| 'incomplete'
	| 'precision'
	| 'decimals'
	| 'not_integer'
	| 'not_whole_cents'
	| 'too_long'
	| 'unsafe_number'
	| 'range';

export class AmountError extends ProtocolError {
	declare reason: AmountErrorReason;

	constructor(reason: AmountErrorReason, message: string, field = 'amount') {
		super(message, { field, reason });
		this.name = 'AmountError';
	}
}

/** Quotes the user's input for a message, shortened so a pasted blob cannot flood the log. */
function show(value: string): string {
	return JSON.stringify(value.length > 48 ? `${value.slice(0, 45)}...` : value);
}

function assertDecimals(decimals: number): void {
	if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
		throw new AmountError(
			'decimals',
			`decimals must be an integer from 0 to ${MAX_DECIMALS}, got ${String(decimals)}`,
			'decimals',
		);
	}
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** True when `text` is 1..maxLength ASCII digits; the length is checked before the scan. */
export function isDigits(text: string, maxLength = Number.MAX_SAFE_INTEGER): boolean {
	if (text.length === 0 || text.length > maxLength) return false;
	for (let i = 0; i < text.length; i++) if (!isDigit(text.charCodeAt(i))) return false;
	return true;
}

/** `text` without trailing "0" characters (a loop: `/0+$/` is quadratic on long input). */
export function trimTrailingZeros(text: string): string {
	let end = text.length;
	while (end > 0 && text.charCodeAt(end - 1) === 48) end--;
	return text.slice(0, end);
}

/** Exponent notation such as "1e5" or "1.5E-3": digits, at most one dot, one e, optional sign, digits. */
function isExponentNotation(text: string): boolean {
	const e = text.search(/[eE]/);
	if (e === -1) return false;
	const mantissa = text.slice(0, e);
	let exponent = text.slice(e + 1);
	if (exponent[0] === '+' || exponent[0] === '-') exponent = exponent.slice(1);
	const plainMantissa = mantissa.replace('.', '');
	const mantissaOk = plainMantissa === '' || isDigits(plainMantissa);
	return mantissaOk && (exponent === '' || isDigits(exponent)) && /[0-9]/.test(text);
}

/** Shared front checks: type, blank, whitespace, sign, exponent. Returns the text to scan. */
function precheck(value: unknown, noun: string): string {
	if (typeof value !== 'string') {
		throw new AmountError('type', `${noun} must be a string of digits, got ${typeof value}`);
	}
	if (value.length > MAX_AMOUNT_LENGTH) {
		// capped before any scan: a pasted megabyte must not block the event loop
		throw new AmountError(
			'too_long',
			`${noun} is ${value.length} characters long; at most ${MAX_AMOUNT_LENGTH} are allowed`,
		);
	}
	if (value.trim() === '') throw new AmountError('blank', `${noun} is empty`);
	if (value.trim() !== value) {
		throw new AmountError(
			'whitespace',
			`${noun} ${show(value)} has leading or trailing whitespace`,
		);
	}
	if (value[0] === '+' || value[0] === '-') {
		throw new AmountError(
			'sign',
			`${noun} ${show(value)} must not have a sign (+ or -); amounts are never negative`,
		);
	}
	if (isExponentNotation(value)) {
		throw new AmountError(
			'exponent',
			`${noun} ${show(value)} uses exponent notation; write all digits out`,
		);
	}
	return value;
}

/**
 * "1.5" with 6 decimals -> "1500000". `assetLabel` (e.g. "USDC") only improves the message.
 * Throws AmountError (see the module comment for the accepted forms).
 */
export function decimalToSmallestUnit(
	value: string,
	decimals: number,
	assetLabel?: string,
): string {
	assertDecimals(decimals);
	const text = precheck(value, 'amount');
	let dot = -1;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === 46) {
			if (dot !== -1)
				throw new AmountError(
					'multiple_dots',
					`amount ${show(text)} has more than one decimal point`,
				);
			dot = i;
		} else if (!isDigit(c)) {
			throw new AmountError(
				'non_digit',
				`amount ${show(text)} contains ${JSON.stringify(text[i])}; use digits and one "." only (no grouping separators)`,
			);
		}
	}
	if (dot === 0 || dot === text.length - 1) {
		throw new AmountError(
			'incomplete',
			`amount ${show(text)} needs a digit on both sides of the decimal point (e.g. "0.5", "1")`,
		);
	}
	const whole = dot === -1 ? text : text.slice(0, dot);
	const fraction = dot === -1 ? '' : trimTrailingZeros(text.slice(dot + 1));
	if (fraction.length > decimals) {
		const places = text.length - dot - 1;
		const asset = assetLabel ? assetLabel : 'the asset';
		throw new AmountError(
			'precision',
			`amount ${show(text)} has ${places} decimal place${places === 1 ? '' : 's'} but ${asset} allows ${decimals}`,
		);
	}
	return BigInt(whole + fraction.padEnd(decimals, '0')).toString();
}

/** "1500000" with 6 decimals -> "1.5"; canonical: no trailing fractional zeros, "0" for zero. */
export function smallestUnitToDecimal(value: string, decimals: number): string {
	assertDecimals(decimals);
	const text = precheck(value, 'smallest-unit amount');
	for (let i = 0; i < text.length; i++) {
		if (!isDigit(text.charCodeAt(i))) {
			throw new AmountError(
				'not_integer',
				`smallest-unit amount ${show(text)} must be a whole number of digits only (spec 2)`,
			);
		}
	}
	const digits = BigInt(text)
		.toString()
		.padStart(decimals + 1, '0');
	const whole = digits.slice(0, digits.length - decimals);
	const fraction = trimTrailingZeros(digits.slice(digits.length - decimals));
	return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** Validates a smallest-unit integer string (spec 4.1 `^[0-9]+$`) and returns it as bigint. */
function parseSmallest(amountSmallest: string): bigint {
	const text = precheck(amountSmallest, 'smallest-unit amount');
	if (!isDigits(text)) {
		throw new AmountError(
			'not_integer',
			`smallest-unit amount ${show(text)} must be a whole number of digits only (spec 2)`,
		);
	}
	return BigInt(text);
}

/** Smallest units per cent; 1 when the asset has fewer than 2 decimals (every amount is whole). */
function unitsPerCent(decimals: number): bigint {
	return decimals < 2 ? 1n : 10n ** BigInt(decimals - 2);
}

/** Stablecoin exact_out amounts must be whole cents (spec 4.1). */
export function isWholeCents(amountSmallest: string, decimals: number): boolean {
	assertDecimals(decimals);
	return parseSmallest(amountSmallest) % unitsPerCent(decimals) === 0n;
}

/** Throws AmountError `not_whole_cents` naming the two nearest valid amounts. */
export function assertWholeCents(
	amountSmallest: string,
	decimals: number,
	assetLabel?: string,
): void {
	if (isWholeCents(amountSmallest, decimals)) return;
	const step = unitsPerCent(decimals);
	const amount = BigInt(amountSmallest);
	const below = amount - (amount % step);
	const asset = assetLabel ? ` ${assetLabel}` : '';
	const human = smallestUnitToDecimal(amountSmallest, decimals);
	throw new AmountError(
		'not_whole_cents',
		`exact_out amount ${amountSmallest} (${human}${asset}) is not a whole number of cents; ` +
			`stablecoin exact_out amounts must be whole cents (spec 4.1), e.g. ${below} or ${below + step}`,
	);
}

/**
 * Returns a copy of `data` with `<field>Formatted` (decimal text) right after each field that has
 * known decimals and holds a smallest-unit integer string; other fields stay as they are.
 */
export function withFormattedAmounts<T extends Record<string, unknown>>(
	data: T,
	decimalsByField: Record<string, number | undefined>,
): T {
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(data)) {
		out[key] = value;
		const decimals = decimalsByField[key];
		if (decimals === undefined || typeof value !== 'string' || !isDigits(value, MAX_AMOUNT_LENGTH))
			continue;
		if (Object.prototype.hasOwnProperty.call(data, `${key}Formatted`)) continue;
		out[`${key}Formatted`] = smallestUnitToDecimal(value, decimals);
	}
	return out as T;
}

// ---------------------------------------------------------------- user inputs

export type AmountFormat = 'smallestUnit' | 'decimal';

function tooLong(text: string, max: number): AmountError {
	return new AmountError(
		'too_long',
		`is ${text.length} characters long; at most ${max} are allowed`,
	);
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
	if (!Number.isFinite(value))
		throw new AmountError('type', `${String(value)} is not a finite number`);
	if (value < 0)
		throw new AmountError('sign', `${String(value)} is negative; amounts are never negative`);
	if (Number.isSafeInteger(value)) return String(value);
	const text = String(value);
	const asText = '(in an expression: quotes around it, or the source field as text)';
	if (Number.isInteger(value)) {
		throw new AmountError(
			'unsafe_number',
			`${text} is a JS number above 9007199254740991 (2^53 - 1), so its last digits are already lost; pass it as a string of digits instead, e.g. "1234567890123456789" ${asText}`,
		);
	}
	if (!allowFraction) {
		throw new AmountError(
			'not_integer',
			`${text} is not a whole number; smallest units are whole (for a decimal amount set "Amount Format" to Decimal)`,
		);
	}
	if (text.includes('e') || significantDigits(text) > EXACT_DOUBLE_DIGITS) {
		throw new AmountError(
			'unsafe_number',
			`${text} is a JS number that does not hold this decimal exactly; pass the amount as a string instead, e.g. "0.3" ${asText}`,
		);
	}
	return text;
}

/** An amount input as exact text; strings are trimmed. Throws AmountError saying how to pass it. */
export function amountInputText(value: unknown, format: AmountFormat): string {
	if (typeof value === 'number') return numberText(value, format === 'decimal');
	if (typeof value === 'bigint') {
		if (value < 0n)
			throw new AmountError('sign', `${value} is negative; amounts are never negative`);
		return value.toString();
	}
	if (value === undefined || value === null) return '';
	if (typeof value !== 'string') {
		throw new AmountError(
			'type',
			`got ${describeValue(value)}; pass the amount as a string of digits, e.g. "1500000"`,
		);
	}
	const text = value.trim();
	if (text.length > MAX_AMOUNT_LENGTH) throw tooLong(text, MAX_AMOUNT_LENGTH);
	return text;
}

/** The user's input quoted for a message, shortened (input checks keep it shorter than the codec). */
function showInput(value: string): string {
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
		throw new AmountError(
			'not_integer',
			`${showInput(text)} must be a whole number of smallest units, digits only${hint}`,
		);
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
