// Exact conversion between human decimals and smallest-unit integer strings (spec 2: amounts are
// integer strings in the asset's smallest unit, `decimals` from the routes listing).
// Strings and bigint only: a JS number would silently round values above 2^53.
//
// Accepted decimal input: ASCII digits with at most one dot that has a digit on BOTH sides
// ("0.5", "1", "1.0", "007.50"). Rejected on purpose: ".5" and "1." (incomplete, most likely a
// typo in a money field), surrounding whitespace, signs, exponents, grouping separators.
// Fractional zeros beyond the asset's precision are accepted because the value stays exact
// ("1.5000000" with 6 decimals is 1500000).
import { ProtocolError } from '../errors';
import { MAX_AMOUNT_LENGTH, MAX_DECIMALS } from './limits';

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
		throw new AmountError('too_long', `${noun} is ${value.length} characters long; at most ${MAX_AMOUNT_LENGTH} are allowed`);
	}
	if (value.trim() === '') throw new AmountError('blank', `${noun} is empty`);
	if (value.trim() !== value) {
		throw new AmountError('whitespace', `${noun} ${show(value)} has leading or trailing whitespace`);
	}
	if (value[0] === '+' || value[0] === '-') {
		throw new AmountError('sign', `${noun} ${show(value)} must not have a sign (+ or -); amounts are never negative`);
	}
	if (isExponentNotation(value)) {
		throw new AmountError('exponent', `${noun} ${show(value)} uses exponent notation; write all digits out`);
	}
	return value;
}

/**
 * "1.5" with 6 decimals -> "1500000". `assetLabel` (e.g. "USDC") only improves the message.
 * Throws AmountError (see the module comment for the accepted forms).
 */
export function decimalToSmallestUnit(value: string, decimals: number, assetLabel?: string): string {
	assertDecimals(decimals);
	const text = precheck(value, 'amount');
	let dot = -1;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === 46) {
			if (dot !== -1) throw new AmountError('multiple_dots', `amount ${show(text)} has more than one decimal point`);
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
	const digits = BigInt(text).toString().padStart(decimals + 1, '0');
	const whole = digits.slice(0, digits.length - decimals);
	const fraction = trimTrailingZeros(digits.slice(digits.length - decimals));
	return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** Validates a smallest-unit integer string (spec 4.1 `^[0-9]+$`) and returns it as bigint. */
function parseSmallest(amountSmallest: string): bigint {
	const text = precheck(amountSmallest, 'smallest-unit amount');
	if (!isDigits(text)) {
		throw new AmountError('not_integer', `smallest-unit amount ${show(text)} must be a whole number of digits only (spec 2)`);
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
export function assertWholeCents(amountSmallest: string, decimals: number, assetLabel?: string): void {
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
