/** JSON text helpers that keep u64 amounts exact (execution-gateway.md §2.1, §8). */

type ReviverContext = { source?: string };
type SourceReviver = (this: unknown, key: string, value: unknown, context?: ReviverContext) => unknown;

const INTEGER_LITERAL = /^-?(0|[1-9][0-9]*)$/;

export interface ParseJsonOptions {
	/**
	 * Return number literals written with a fraction or exponent (`1.0`, `1e3`) as their source
	 * text instead of a JS number, so integer-only fields (u64 amounts, chainId) can reject them
	 * rather than silently accept `1e3` as 1000. Default false.
	 */
	nonIntegerLiteralsAsSource?: boolean;
}

/**
 * JSON.parse that returns integer literals beyond Number.MAX_SAFE_INTEGER as exact `bigint`
 * (via the reviver's `context.source`, Node >= 21). Safe integers stay JS numbers, so ordinary
 * fields read as usual.
 */
export function parseJsonPreservingBigInts(text: string, options: ParseJsonOptions = {}): unknown {
	const reviver: SourceReviver = (_key, value, context) => {
		if (typeof value !== 'number' || !context?.source) return value;
		if (INTEGER_LITERAL.test(context.source)) return Number.isSafeInteger(value) ? value : BigInt(context.source);
		return options.nonIntegerLiteralsAsSource ? context.source : value;
	};
	return JSON.parse(text, reviver as (this: unknown, key: string, value: unknown) => unknown);
}

/** A JSON string literal (same escaping as JSON.stringify). */
export function jsonString(value: string): string {
	return JSON.stringify(value);
}

/** A JSON integer literal from a safe integer `number` or any `bigint`, never through a float. */
export function jsonInteger(value: number | bigint, field: string): string {
	if (typeof value === 'bigint') return value.toString();
	if (!Number.isSafeInteger(value)) throw new RangeError(`${field} must be a safe integer`);
	return String(value);
}
