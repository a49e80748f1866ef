/**
 * Amounts in and out of the node. Wire amounts are integer strings in the asset's smallest unit
 * (orchestration-service.md §2); users may type decimals instead, converted exactly with the
 * asset's `decimals` from the routes listing. Outputs gain decimal `...Formatted` fields.
 */
import type { IDataObject } from 'n8n-workflow';
import { isDigits, MAX_AMOUNT_LENGTH, smallestUnitToDecimal, type AmountFormat } from '../../shared/orchestration/inputs';

export type { AmountFormat };

export function asAmountFormat(value: unknown): AmountFormat {
	return value === 'decimal' ? 'decimal' : 'smallestUnit';
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
		if (decimals === undefined || typeof value !== 'string' || !isDigits(value, MAX_AMOUNT_LENGTH)) continue;
		if (Object.prototype.hasOwnProperty.call(data, `${key}Formatted`)) continue;
		out[`${key}Formatted`] = smallestUnitToDecimal(value, decimals);
	}
	return out;
}
