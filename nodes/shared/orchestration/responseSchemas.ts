// Zod schemas of the orchestration service's answers (orchestration-service.md, public-notes.md):
// lenient, unknown fields kept; open value sets (chains, assets, statuses, events, stage names) are
// plain strings, because the live service extends them (public-notes). Requests: schemas.ts.
import { z } from 'zod';
import { canonicalOrderStatus, isFinalOrderStatus } from './enums';
import { parseWithSchema } from '../errors';
import { RouteSetSchema } from './routeSets';
import { AmountSchema, int, NonEmpty } from './schemas';

// ---------------------------------------------------------------- responses

export const OptStr = z.string().nullable().optional();
export const OptAmount = AmountSchema.nullable().optional();

/** spec 2.3 route asset entry. Display fields are optional: nothing depends on them. */
export const RouteAssetSchema = z
	.object({
		id: z.string(),
		chain: z.string(),
		asset: z.string(),
		assetDisplayName: z.string().optional(),
		assetDisplaySymbol: z.string().optional(),
		contractAddress: OptStr,
		decimals: int().min(0),
		chainId: OptStr,
		chainDisplayName: z.string().optional(),
		chainIcon: z.string().optional(),
		route: z
			.object({
				to: RouteSetSchema,
				exactOutTo: RouteSetSchema.optional(),
				fixedTo: RouteSetSchema.optional(),
			})
			.passthrough(),
	})
	.passthrough();
export type RouteAsset = z.infer<typeof RouteAssetSchema>;

/** POST /v1/webhooks response (spec 2.9): the secret is shown once. */
export const WebhookCreateResponseSchema = z
	.object({ webhookId: NonEmpty, secret: NonEmpty })
	.passthrough();
export type WebhookCreateResponse = z.infer<typeof WebhookCreateResponseSchema>;

/**
 * spec 2.10 `feePayouts.entries[*]`; the split amounts are null on recipient_payout entries. `role`
 * and `leg` are open sets (FEE_PAYOUT_ROLES, FEE_PAYOUT_LEGS are the known values): the live service
 * adds kinds, and an unknown one must not fail the read (README: unknown values pass through).
 */
export const FeePayoutEntrySchema = z
	.object({
		role: z.string(),
		affiliateId: OptStr,
		leg: z.string(),
		amount: AmountSchema,
		platformCutAmount: OptAmount,
		recipientAmount: OptAmount,
	})
	.passthrough();
export type FeePayoutEntry = z.infer<typeof FeePayoutEntrySchema>;

export const LooseObject = z.object({}).passthrough();

/** spec 2.10 order snapshot: known members, null until the engine reaches the step. */
export const OrderSchema = z
	.object({
		id: NonEmpty,
		status: z.string(),
		updatedAt: z.string().optional(),
		quoteId: OptStr,
		amountIn: OptAmount,
		feeAmount: OptAmount,
		paymentIntent: z.unknown().optional(),
		amountFiatUsd: OptStr,
		amountFiatCurrency: OptStr,
		spotUsdPerBtc: z.union([z.string(), z.number()]).nullable().optional(),
		payLinkId: OptStr,
		payLinkLabel: OptStr,
		zeroconfOffer: z.unknown().optional(),
		feePlan: LooseObject.nullable().optional(),
		feePayouts: z
			.object({ entries: z.array(FeePayoutEntrySchema) })
			.passthrough()
			.nullable()
			.optional(),
		swap: LooseObject.nullable().optional(),
	})
	.passthrough();
export type Order = z.infer<typeof OrderSchema>;

/** A stage is a bare name (spec 3) or `{name, status, completedAt}` (live service, public-notes). */
export const StageEntrySchema = z.union([
	z.string(),
	z.object({ name: z.string(), status: OptStr, completedAt: OptStr }).passthrough(),
]);
export type StageEntry = z.infer<typeof StageEntrySchema>;

// a status answer without `stages` is valid: no stage recorded yet
const StagesSchema = z.array(StageEntrySchema).optional();
/** Status view with the order fields at the top level (spec 4.6 "stages and order fields"). */
export const FlatStatusResponseSchema = OrderSchema.extend({ stages: StagesSchema }).passthrough();
/** Status view as the live service sends it: `{order: {...}, stages: [...]}` (public-notes). */
export const NestedStatusResponseSchema = z
	.object({ order: OrderSchema, stages: StagesSchema })
	.passthrough();

// ---------------------------------------------------------------- status normalization

export interface NormalizedStatus {
	id: string;
	status: string;
	/** Stage names in the order received. */
	stages: string[];
	/** The stages array exactly as received (strings or objects). */
	stageDetails: StageEntry[];
	isFinal: boolean;
	/** Every order field (nested `order`, or the flat body without `stages`). */
	order: Record<string, unknown>;
}

/**
 * One shape for both status layouts. A body whose `order` member is an object is read as nested;
 * anything else as flat. Throws ProtocolError `invalid_status_response` listing what is wrong.
 */
export function normalizeStatusResponse(body: unknown): NormalizedStatus {
	const nested =
		typeof body === 'object' &&
		body !== null &&
		typeof (body as { order?: unknown }).order === 'object' &&
		(body as { order?: unknown }).order !== null;
	let order: Order;
	let stageDetails: StageEntry[];
	if (nested) {
		const parsed = parseWithSchema(
			NestedStatusResponseSchema,
			body,
			'Invalid status response',
			'invalid_status_response',
		);
		order = parsed.order;
		stageDetails = parsed.stages ?? [];
	} else {
		const parsed = parseWithSchema(
			FlatStatusResponseSchema,
			body,
			'Invalid status response',
			'invalid_status_response',
		);
		const { stages, ...rest } = parsed;
		order = rest;
		stageDetails = stages ?? [];
	}
	const { id } = order;
	// compared case-insensitively, output in the spec's spelling; an unknown status passes as is
	const status = canonicalOrderStatus(order.status);
	return {
		id,
		status,
		stages: stageDetails.map((s) => (typeof s === 'string' ? s : s.name)),
		stageDetails,
		isFinal: isFinalOrderStatus(status),
		order,
	};
}
