/**
 * Pay Link > Create (public-notes "Re-approvals, pay links, fee invoices"): `POST /v1/pay-links` with
 * the destination named as in a quote, exactly one of `amountOut` (smallest units; whole cents for
 * stablecoins) or `amountFiatUsd`, and an optional `label`; answers `{shortId, shortUrl}`. Pure.
 */
import { inField, parseRequest, ProtocolError } from '../errors';
import { mergeAdditionalFields } from './additionalFields';
import { assertWholeCents } from './amounts';
import { checkOffered, isStablecoin } from './enums';
import { smallestUnitAmount, type AmountInput, type AssetLookup } from './quotePlan';
import { z } from 'zod';
import { AssetInputSchema, ChainSchema, FiatUsdSchema, NonEmpty } from './schemas';

/** A label's length (not shown: a label is a short note on the hosted page). */
export const PAY_LINK_LABEL_MAX_LENGTH = 200;

export const PayLinkRequestSchema = z
	.object({
		destinationChain: ChainSchema,
		destinationAsset: AssetInputSchema,
		recipientAddress: NonEmpty,
		amountOut: z
			.string()
			.regex(/^[1-9][0-9]*$/, 'must be a positive whole number of smallest units')
			.optional(),
		amountFiatUsd: FiatUsdSchema.optional(),
		label: z.string().min(1).max(PAY_LINK_LABEL_MAX_LENGTH).optional(),
	})
	.passthrough();

export interface PayLinkInput {
	destinationChain: string;
	destinationAsset: string;
	recipientAddress: string;
	/** The amount in the destination asset, or in US dollars. */
	amount: { in: 'asset'; value: AmountInput } | { in: 'usd'; value: string };
	label: string;
	additionalFields: Record<string, unknown>;
}

/** The request, every rule checked: the destination against the routes listing, the amount in smallest units (whole cents for stablecoins). */
export function planPayLink(
	input: PayLinkInput,
	routes: AssetLookup | undefined,
): Record<string, unknown> {
	const { destinationChain, destinationAsset } = input;
	checkOffered(routes, [
		{
			chainField: 'destinationChain',
			chain: destinationChain,
			assetField: 'destinationAsset',
			asset: destinationAsset,
		},
	]);
	const body: Record<string, unknown> = {
		destinationChain,
		destinationAsset,
		recipientAddress: input.recipientAddress,
	};
	if (input.amount.in === 'usd') {
		if (input.amount.value === '')
			throw new ProtocolError('is required', { field: 'amountFiatUsd', reason: 'blank' });
		body.amountFiatUsd = input.amount.value;
	} else {
		const destination = routes?.find(destinationChain, destinationAsset);
		const amount = inField('amountOut', () =>
			smallestUnitAmount(
				input.amount.value as AmountInput,
				destination,
				`${destinationChain}:${destinationAsset}`,
			),
		);
		if (destination && isStablecoin(destination.asset))
			inField('amountOut', () => assertWholeCents(amount, destination.decimals, destination.id));
		body.amountOut = amount;
	}
	if (input.label !== '') body.label = input.label;
	const request = inField('additionalFields', () =>
		mergeAdditionalFields(
			body,
			input.additionalFields,
			['amountOut', 'amountFiatUsd'],
			Object.keys(PayLinkRequestSchema.shape),
		),
	);
	parseRequest(PayLinkRequestSchema, request);
	return request;
}
