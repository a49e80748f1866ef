/**
 * Amounts in and out of the node. Wire amounts are integer strings in the asset's smallest unit
 * (orchestration-service.md §2); users may type decimals instead, converted exactly with the
 * asset's `decimals` from the routes listing. Outputs gain decimal `...Formatted` fields.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import {
	AmountError,
	decimalToSmallestUnit,
	smallestUnitToDecimal,
} from '../../shared/orchestration/amounts';
import { MAX_DECIMALS } from '../../shared/orchestration/limits';
import { fieldError } from '../../transport/items';

export type AmountFormat = 'smallestUnit' | 'decimal';

export function asAmountFormat(value: unknown): AmountFormat {
	return value === 'decimal' ? 'decimal' : 'smallestUnit';
}

/** The amount as text, trimmed; a number from an expression becomes its JS text (exponents are then refused). */
export function amountText(value: unknown): string {
	if (typeof value === 'number') return String(value);
	return typeof value === 'string' ? value.trim() : '';
}

/**
 * Syntax check before any request (the asset's decimals may need the routes listing): digits for
 * smallest units (§4.1 `^[0-9]+$`), a plain decimal otherwise.
 */
export function checkAmountSyntax(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: string,
	format: AmountFormat,
): void {
	if (value === '') throw fieldError(ctx, itemIndex, field, 'an amount is required');
	if (format === 'smallestUnit') {
		if (!/^[0-9]+$/.test(value)) {
			const hint = /^[0-9]*\.[0-9]*$/.test(value)
				? ' (for a decimal amount set "Amount Format" to Decimal)'
				: '';
			throw fieldError(ctx, itemIndex, field, `"${short(value)}" must be a whole number of smallest units, digits only${hint}`);
		}
		return;
	}
	const failure = amountFailure(() => decimalToSmallestUnit(value, MAX_DECIMALS));
	if (failure && failure.reason !== 'precision') throw fieldError(ctx, itemIndex, field, failure.message);
}

/** The AmountError `fn` throws, if any; the amount helpers throw nothing else for string input. */
export function amountFailure(fn: () => unknown): AmountError | undefined {
	try {
		fn();
		return undefined;
	} catch (error) {
		return error instanceof AmountError ? error : new AmountError('type', String(error));
	}
}

/** The wire amount: as typed for smallest units, or the exact conversion of a decimal. */
export function toWireAmount(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: string,
	format: AmountFormat,
	decimals: number | undefined,
	assetLabel: string,
): string {
	if (format === 'smallestUnit') return value;
	if (decimals === undefined) {
		throw fieldError(
			ctx,
			itemIndex,
			field,
			`the decimals of ${assetLabel} are not in the routes listing, so a decimal amount cannot be converted; give smallest units instead`,
		);
	}
	const failure = amountFailure(() => decimalToSmallestUnit(value, decimals, assetLabel));
	if (failure) throw fieldError(ctx, itemIndex, field, failure.message);
	return decimalToSmallestUnit(value, decimals, assetLabel);
}

function short(value: string): string {
	return value.length > 40 ? `${value.slice(0, 37)}...` : value;
}

/**
 * Returns a copy of `data` with `<field>Formatted` (decimal text) right after each field that has
 * known decimals and holds a smallest-unit integer string; other fields stay as they are.
 */
export function withFormattedAmounts(data: IDataObject, decimalsByField: Record<string, number | undefined>): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(data)) {
		out[key] = value;
		const decimals = decimalsByField[key];
		if (decimals === undefined || typeof value !== 'string' || !/^[0-9]+$/.test(value)) continue;
		if (Object.prototype.hasOwnProperty.call(data, `${key}Formatted`)) continue;
		out[`${key}Formatted`] = smallestUnitToDecimal(value, decimals);
	}
	return out;
}
