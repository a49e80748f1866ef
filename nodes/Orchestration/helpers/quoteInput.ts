/** Inputs shared by the quote-like operations: amounts, fee fields, the routes lookups they need. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { normalizeAssetInput } from '../../shared/orchestration/enums';
import { explicitIdempotencyKey as explicitKeyOf } from '../../shared/orchestration/idempotency';
import { fieldError, planned } from '../../transport/nodeErrors';
import type { ServiceAccess } from './access';
import { amountInputText, assertAmountText } from '../../shared/orchestration/inputs';
import { asAmountFormat } from './amounts';
import { assertNoClientFeeFields as assertNoFeeFields, type AmountInput } from '../../shared/orchestration/quotePlan';
import { checked, optionInteger, optionText, text } from './params';
import type { RoutesCatalogue } from './routes';
import { getRoutesCatalogue } from './routesCache';

export type { AmountInput };

/**
 * Reads "Amount Format" and an amount parameter exactly (a JS number only when it is exact) and
 * checks the syntax; no request needed.
 */
export function readAmount(ctx: IExecuteFunctions, itemIndex: number, field = 'amount'): AmountInput {
	const format = asAmountFormat(ctx.getNodeParameter('amountFormat', itemIndex, 'smallestUnit'));
	const raw = ctx.getNodeParameter(field, itemIndex, '') as unknown;
	const value = checked(ctx, itemIndex, field, () => {
		const exact = amountInputText(raw, format);
		assertAmountText(exact, format);
		return exact;
	});
	return { value, format };
}

/** What goes on the wire before the catalogue is known: digits as typed, or a placeholder for decimals. */
export function provisionalAmount(input: AmountInput): string {
	return input.format === 'smallestUnit' ? input.value : '0';
}

/** Both sides of a quote or estimate and its modes (§4.1); fixed delivery exists only with exact_in. */
export function readQuoteRoute(ctx: IExecuteFunctions, itemIndex: number): Record<string, unknown> {
	const amountMode = text(ctx, 'amountMode', itemIndex) || 'exact_in';
	return {
		sourceChain: text(ctx, 'sourceChain', itemIndex),
		sourceAsset: assetParam(ctx, 'sourceAsset', itemIndex),
		destinationChain: text(ctx, 'destinationChain', itemIndex),
		destinationAsset: assetParam(ctx, 'destinationAsset', itemIndex),
		amountMode,
		deliveryMode: amountMode === 'exact_in' ? text(ctx, 'deliveryMode', itemIndex) || undefined : undefined,
	};
}

/** An asset parameter with the legacy TON alias resolved (§2.1). */
export function assetParam(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = text(ctx, name, itemIndex);
	return value === '' ? value : normalizeAssetInput(value);
}

/**
 * The routes catalogue: required when a decimal amount must be converted, otherwise best effort
 * (it only adds the `...Formatted` output fields, and must never stop a valid request).
 */
export async function catalogueFor(
	ctx: IExecuteFunctions,
	access: ServiceAccess,
	itemIndex: number,
	required: boolean,
): Promise<RoutesCatalogue | undefined> {
	if (required) return await getRoutesCatalogue(ctx, access, itemIndex);
	try {
		return await getRoutesCatalogue(ctx, access, itemIndex);
	} catch {
		return undefined;
	}
}

/** "App Fees" and "Affiliate IDs" of the options collection as §4.1 lists; undefined when empty. */
export function readFeeFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): { appFees?: IDataObject[]; affiliateIds?: Array<string | IDataObject> } {
	const out: { appFees?: IDataObject[]; affiliateIds?: Array<string | IDataObject> } = {};
	const fees = ((options.appFees as IDataObject | undefined)?.fee as IDataObject[] | undefined) ?? [];
	if (fees.length > 0) {
		out.appFees = fees.map((fee, n) => {
			const feeBps = optionInteger(ctx, itemIndex, fee, 'feeBps', `appFees[${n}].feeBps`);
			if (feeBps === undefined) throw fieldError(ctx.getNode(), itemIndex, `appFees[${n}].feeBps`, 'is required');
			const affiliateId = optionText(ctx, itemIndex, fee, 'affiliateId', `appFees[${n}].affiliateId`);
			const recipient = optionText(ctx, itemIndex, fee, 'recipient', `appFees[${n}].recipient`) ?? '';
			return { recipient, feeBps, ...(affiliateId ? { affiliateId } : {}) };
		});
	}
	const affiliates = ((options.affiliateIds as IDataObject | undefined)?.affiliate as IDataObject[] | undefined) ?? [];
	if (affiliates.length > 0) {
		out.affiliateIds = affiliates.map((entry, n) => {
			const affiliateId = optionText(ctx, itemIndex, entry, 'affiliateId', `affiliateIds[${n}].affiliateId`) ?? '';
			const feeBps = optionInteger(ctx, itemIndex, entry, 'feeBps', `affiliateIds[${n}].feeBps`);
			return feeBps === undefined ? affiliateId : { affiliateId, feeBps };
		});
	}
	return out;
}

/** §5: client-key fee fields are refused before anything is sent (see the core's assertNoClientFeeFields). */
export function assertNoClientFeeFields(ctx: IExecuteFunctions, itemIndex: number, access: ServiceAccess, body: IDataObject): void {
	planned(ctx, itemIndex, () => assertNoFeeFields(body, access.isClientKey));
}

/** An explicit idempotency key is checked before anything is sent (1..255 printable ASCII). */
export function explicitIdempotencyKey(ctx: IExecuteFunctions, itemIndex: number, options: IDataObject): string | undefined {
	return planned(ctx, itemIndex, () => explicitKeyOf(options.idempotencyKey));
}
