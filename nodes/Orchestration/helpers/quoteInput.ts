/** Inputs shared by the quote-like operations: amounts, fee fields, the routes lookups they need. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { isStablecoin, normalizeAssetInput } from '../../shared/orchestration/enums';
import { assertWholeCents } from '../../shared/orchestration/amounts';
import { explicitIdempotencyKey as explicitKeyOf } from '../../shared/orchestration/idempotency';
import type { RouteAsset } from '../../shared/orchestration/schemas';
import { fieldError, planned } from '../../transport/nodeErrors';
import type { ServiceAccess } from './access';
import { amountFailureOf, amountInputText, assertAmountText } from '../../shared/orchestration/inputs';
import { asAmountFormat, toWireAmount, type AmountFormat } from './amounts';
import { checked, optionInteger, optionText, text } from './params';
import type { RoutesCatalogue } from './routes';
import { getRoutesCatalogue } from './routesCache';

export interface AmountInput {
	value: string;
	format: AmountFormat;
}

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

/** Converts the amount with the decimals of the side it counts (§4.1: source, or destination for exact_out). */
export function wireAmount(
	ctx: IExecuteFunctions,
	itemIndex: number,
	input: AmountInput,
	asset: RouteAsset | undefined,
	assetLabel: string,
): string {
	return toWireAmount(ctx, itemIndex, 'amount', input.value, input.format, asset?.decimals, asset ? asset.id : assetLabel);
}

/** §4.1: stablecoin exact_out amounts must be whole cents; checked when the decimals are known. */
export function checkWholeCents(
	ctx: IExecuteFunctions,
	itemIndex: number,
	amount: string,
	amountMode: string | undefined,
	destination: RouteAsset | undefined,
): void {
	if (amountMode !== 'exact_out' || !destination || !isStablecoin(destination.asset)) return;
	const failure = amountFailureOf(() => assertWholeCents(amount, destination.decimals, destination.id));
	if (failure) throw fieldError(ctx.getNode(), itemIndex, 'amount', failure.message);
}

export interface RouteSides {
	catalogue: RoutesCatalogue | undefined;
	source: RouteAsset | undefined;
	destination: RouteAsset | undefined;
}

/**
 * Looks both sides of a quote request up in the routes listing, then writes the typed amount in
 * smallest units of the side it is denominated in (the destination under exact_out, §4.1) into
 * `request.amount`, and checks whole cents for stablecoin exact_out amounts.
 */
export async function resolveQuoteAmount(
	ctx: IExecuteFunctions,
	itemIndex: number,
	access: ServiceAccess,
	amount: AmountInput,
	request: IDataObject,
): Promise<RouteSides> {
	const catalogue = await catalogueFor(ctx, access, itemIndex, amount.format === 'decimal');
	const source = catalogue?.find(request.sourceChain as string, request.sourceAsset as string);
	const destination = catalogue?.find(request.destinationChain as string, request.destinationAsset as string);
	const exactOut = request.amountMode === 'exact_out';
	const label = exactOut
		? `${request.destinationChain}:${request.destinationAsset}`
		: `${request.sourceChain}:${request.sourceAsset}`;
	request.amount = wireAmount(ctx, itemIndex, amount, exactOut ? destination : source, label);
	checkWholeCents(ctx, itemIndex, request.amount as string, request.amountMode as string, destination);
	return { catalogue, source, destination };
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

/**
 * §5: quote, onramp and accumulation creation refuse client-key fee fields (403
 * client_key_fee_fields_forbidden); refused here first so nothing is sent.
 */
export function assertNoClientFeeFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	access: ServiceAccess,
	body: IDataObject,
): void {
	if (!access.isClientKey) return;
	if (body.appFees !== undefined) {
		throw fieldError(ctx.getNode(), itemIndex, 'appFees', 'client keys cannot send fee fields; remove the app fees or use a server key');
	}
	const overrides = Array.isArray(body.affiliateIds) && body.affiliateIds.some((a) => typeof a !== 'string');
	if (overrides) {
		throw fieldError(
			ctx.getNode(),
			itemIndex,
			'affiliateIds',
			'client keys cannot send affiliate fee overrides; give plain affiliate IDs or use a server key',
		);
	}
}

/** An explicit idempotency key is checked before anything is sent (1..255 printable ASCII). */
export function explicitIdempotencyKey(ctx: IExecuteFunctions, itemIndex: number, options: IDataObject): string | undefined {
	return planned(ctx, itemIndex, () => explicitKeyOf(options.idempotencyKey));
}
