/**
 * The Orchestration node's reads of an item beyond text and numbers (nodes/n8n/items.ts): amounts,
 * assets, route sides, the idempotency key, raw additional fields. Every rule is the protocol
 * core's; a failure names its field.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { inField } from '../../shared/errors';
import { textInput } from '../../shared/inputs';
import { normalizeAssetInput } from '../../shared/orchestration/enums';
import {
	amountInputText,
	assertAmountText,
	type AmountFormat,
} from '../../shared/orchestration/amounts';
import type { AmountInput } from '../../shared/orchestration/quotePlan';
import {
	EXPIRY_MARGIN_DEFAULT_SECONDS,
	EXPIRY_MARGIN_MAX_SECONDS,
} from '../../shared/orchestration/schemas';
import {
	getNodeParameter,
	integerOption,
	invalidField,
	optionsOf,
	textOption,
	textParameter,
} from '../../n8n/items';

/** A decimal text parameter (e.g. USD): a JS number only when its text is exact; '' when unset. */
export function decimalParameter(ctx: IExecuteFunctions, name: string, i: number): string {
	const value = getNodeParameter(ctx, name, i);
	return inField(name, () => amountInputText(value, 'decimal'));
}

/** An asset parameter (a dropdown, or a picker's value from node version 3), the legacy TON alias resolved (§2.1). */
export function assetParameter(ctx: IExecuteFunctions, name: string, i: number): string {
	const raw = getNodeParameter(ctx, name, i);
	const picked =
		raw !== null && typeof raw === 'object' && '__rl' in raw
			? (raw as { value?: unknown }).value
			: raw;
	const value = inField(name, () => textInput(picked));
	return value === '' ? value : normalizeAssetInput(value);
}

/** "Amount Format" and an amount parameter, exact (a JS number only when it is exact), syntax checked. */
export function amountParameter(ctx: IExecuteFunctions, i: number, field = 'amount'): AmountInput {
	const format: AmountFormat =
		getNodeParameter(ctx, 'amountFormat', i, 'smallestUnit') === 'decimal'
			? 'decimal'
			: 'smallestUnit';
	const raw = getNodeParameter(ctx, field, i);
	const value = inField(field, () => {
		const exact = amountInputText(raw, format);
		assertAmountText(exact, format);
		return exact;
	});
	return { value, format };
}

/** A JSON object option ("Additional Body Fields"), or nothing. */
export function jsonOption(
	ctx: IExecuteFunctions,
	i: number,
	field = 'additionalFields',
): IDataObject {
	const raw = optionsOf(ctx, i)[field];
	if (raw === undefined || raw === null || raw === '') return {};
	let value: unknown = raw;
	if (typeof raw === 'string') {
		try {
			value = JSON.parse(raw);
		} catch {
			throw invalidField(ctx, i, field, 'is not valid JSON');
		}
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		throw invalidField(ctx, i, field, 'must be a JSON object, e.g. {"zeroconfEnabled": true}');
	return value as IDataObject;
}

/** The idempotency key the user set, as text and untrimmed (it must stay the key earlier runs sent); the plans check it. */
export function idempotencyKeyOption(ctx: IExecuteFunctions, i: number): string | undefined {
	const raw = optionsOf(ctx, i).idempotencyKey;
	if (raw === undefined || raw === null || raw === '') return undefined;
	return typeof raw === 'string' ? raw : inField('idempotencyKey', () => textInput(raw));
}

/** A fixedCollection option of `{affiliateId, feeBps?}` rows (standing addresses). */
export function affiliateRows(
	ctx: IExecuteFunctions,
	i: number,
	option: string,
): Array<{ affiliateId: string; feeBps?: number }> {
	const rows =
		((optionsOf(ctx, i)[option] as IDataObject | undefined)?.affiliate as
			| IDataObject[]
			| undefined) ?? [];
	return rows.map((row, n) => {
		const affiliateId = textOption(row, 'affiliateId', `${option}[${n}].affiliateId`) ?? '';
		const feeBps = integerOption(row, 'feeBps', `${option}[${n}].feeBps`);
		return feeBps === undefined ? { affiliateId } : { affiliateId, feeBps };
	});
}

/** "Expiry Margin (Seconds)": a whole number 0..EXPIRY_MARGIN_MAX_SECONDS (a quote is firm for 2 minutes). */
export function expiryMarginOption(ctx: IExecuteFunctions, i: number): number {
	const margin =
		integerOption(optionsOf(ctx, i), 'expiryMarginSeconds') ?? EXPIRY_MARGIN_DEFAULT_SECONDS;
	if (margin < 0 || margin > EXPIRY_MARGIN_MAX_SECONDS) {
		throw invalidField(
			ctx,
			i,
			'expiryMarginSeconds',
			`must be 0 to ${EXPIRY_MARGIN_MAX_SECONDS} seconds (a quote is firm for 2 minutes), got ${margin}`,
		);
	}
	return margin;
}

/** The browser verification header (§5: cf-turnstile-response), or undefined when no token is set. */
export function turnstileHeaders(
	ctx: IExecuteFunctions,
	i: number,
): Record<string, string> | undefined {
	const token = textOption(optionsOf(ctx, i), 'turnstileToken');
	return token ? { 'cf-turnstile-response': token } : undefined;
}

/** Both sides of a quote or estimate and its modes (§4.1); fixed delivery exists only with exact_in. */
export function quoteRoute(ctx: IExecuteFunctions, i: number): Record<string, unknown> {
	const amountMode = textParameter(ctx, 'amountMode', i) || 'exact_in';
	return {
		sourceChain: textParameter(ctx, 'sourceChain', i),
		sourceAsset: assetParameter(ctx, 'sourceAsset', i),
		destinationChain: textParameter(ctx, 'destinationChain', i),
		destinationAsset: assetParameter(ctx, 'destinationAsset', i),
		amountMode,
		deliveryMode:
			amountMode === 'exact_in' ? textParameter(ctx, 'deliveryMode', i) || undefined : undefined,
	};
}
