// The orchestration service's answers as the spec shows them (orchestration-service.md §2, public-notes.md):
// the sandbox answers in these shapes and its tests hold it to them. Written from the documents, not
// from the nodes' parsers (nodes/shared/orchestration/responseSchemas.ts), so the two can disagree and a
// test can see it. Lenient where the documents leave a set open (statuses, stages, route elements).
import { z } from 'zod';
import { AppFeeSchema } from './wire';

const int = () => z.number({ invalid_type_error: 'must be a number' }).int('must be an integer');
const NonEmpty = z.string().min(1);
const OptStr = z.string().nullable().optional();
/** Spec 2: amounts are integer strings in smallest units (at most 100 digits: the sandbox's own bound, uint256 has 78). */
const AmountSchema = z.string().refine((s) => s.length <= 100 && /^[0-9]+$/.test(s), 'must be an integer string of digits in smallest units (at most 100)');
const OptAmount = AmountSchema.nullable().optional();
const LooseObject = z.object({}).passthrough();

/**
 * Spec 2.3 `route.to` ("string `all` or array", element shape not shown) and public-notes "Routes
 * listing (v2)": an array of `"<chain>:<asset>"` ids, `{except: [ids]}`, or `"all"`. Elements may be
 * strings or objects, since the spec does not show them.
 */
const RouteTarget = z.union([z.string(), LooseObject]);
const RouteSet = z.union([z.literal('all'), z.array(RouteTarget), z.object({ except: z.array(RouteTarget) }).passthrough()]);

/** Spec 2.3 route asset entry. */
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
		route: z.object({ to: RouteSet, exactOutTo: RouteSet.optional(), fixedTo: RouteSet.optional() }).passthrough(),
	})
	.passthrough();

/** Spec 2.10 `feePayouts.entries[*]`; roles and legs are kept open (public-notes: the service adds kinds). */
const FeePayoutEntrySchema = z
	.object({ role: z.string(), affiliateId: OptStr, leg: z.string(), amount: AmountSchema, platformCutAmount: OptAmount, recipientAmount: OptAmount })
	.passthrough();

/** Spec 2.10 order snapshot: the known members, null until the engine reaches their step; the rest kept. */
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
		feePayouts: z.object({ entries: z.array(FeePayoutEntrySchema) }).passthrough().nullable().optional(),
		swap: LooseObject.nullable().optional(),
		// public-notes (fourth harvest): a price re-approval
		error: z.object({ code: z.string(), message: z.string().optional() }).passthrough().nullable().optional(),
		errorCode: OptStr,
		priceLock: z
			.object({ version: int(), mode: z.string(), amountIn: OptAmount, quotedAmountOut: OptAmount, lockedMinAmountOut: OptAmount, slippageBps: int().optional(), createdAt: OptStr, expiresAt: OptStr })
			.passthrough()
			.nullable()
			.optional(),
		reprice: z
			.object({
				version: int(), status: z.string(), previousLockedMinAmountOut: AmountSchema, proposedMinAmountOut: AmountSchema,
				latestExpectedAmountOut: OptAmount, requestedAt: OptStr, resolvedAt: OptStr, reason: OptStr,
			})
			.passthrough()
			.nullable()
			.optional(),
	})
	.passthrough();

/** Spec 3 stages: a bare name; public-notes: `{name, status, completedAt}` on the live service. */
const StageEntrySchema = z.union([z.string(), z.object({ name: z.string(), status: OptStr, completedAt: OptStr }).passthrough()]);
const StagesSchema = z.array(StageEntrySchema).optional();
/** Spec 4.6: "the stages array and order fields", at the top level. */
export const FlatStatusResponseSchema = OrderSchema.extend({ stages: StagesSchema }).passthrough();
/** public-notes: `{order: {...}, stages: [{name, status, completedAt}]}`. */
export const NestedStatusResponseSchema = z.object({ order: OrderSchema, stages: StagesSchema }).passthrough();

/** Spec 2.2 price-lock action, public-notes `priceLockMode`. */
const PriceLockModeSchema = z.enum(['strict_requote', 'approval_required']);

/** public-notes `networkCosts[]` item. */
export const NetworkCostSchema = z
	.object({
		type: OptStr,
		amount: OptStr,
		asset: OptStr,
		nativeAmount: OptStr,
		nativeAsset: OptStr,
		assumption: z.unknown().optional(),
	})
	.passthrough();

/** spec 2.2 plus the optional fields named in public-notes; unknown fields are kept untouched. */
export const QuoteResponseSchema = z
	.object({
		amountMode: z.enum(['exact_in', 'exact_out']),
		estimatedOut: AmountSchema,
		amountIn: AmountSchema,
		feeAmount: AmountSchema,
		roundingFeeAmount: AmountSchema,
		totalFeeAmount: AmountSchema,
		feeBps: int(),
		feeAsset: z.string(),
		route: z.array(z.string()),
		quoteId: NonEmpty,
		depositAddress: NonEmpty,
		expiresAt: z.string(),
		readToken: z.string().optional(),
		depositMemo: OptStr,
		deliveryMode: z.enum(['variable', 'fixed']).optional(),
		priceLockMode: PriceLockModeSchema.nullable().optional(),
		lockedMinAmountOut: OptAmount,
		networkCostAmount: OptAmount,
		networkCostAsset: OptStr,
		networkCostRequired: z.boolean().optional(),
		networkCosts: z.array(NetworkCostSchema).optional(),
	})
	.passthrough();
export type QuoteResponse = z.infer<typeof QuoteResponseSchema>;

/** GET /v2/orchestration/routes (spec 4.3). */
export const RoutesResponseSchema = z.object({ assets: z.array(RouteAssetSchema) }).passthrough();
export type RoutesResponse = z.infer<typeof RoutesResponseSchema>;

/** spec 2.4 subscription; only `pending` is a documented status, so any string is accepted. */
export const SubscriptionSchema = z
	.object({
		provider: z.string(),
		chain: z.string(),
		address: z.string(),
		status: z.string(),
		lastError: OptStr,
		createdAt: OptStr,
		updatedAt: OptStr,
	})
	.passthrough();

/** spec 2.4 (deprecated model). */
export const AccumulationAddressSchema = z
	.object({
		accumulationAddressId: NonEmpty,
		label: OptStr,
		sourceChain: z.string(),
		sourceAsset: z.string(),
		destinationAsset: z.string(),
		recipientSparkAddress: z.string(),
		feeBps: int(),
		slippageBps: int(),
		enabled: z.boolean(),
		depositAddress: z.string(),
		createdAt: z.string(),
		updatedAt: z.string(),
		disabledAt: OptStr,
		subscriptions: z.array(SubscriptionSchema).optional(),
		appFees: z.array(AppFeeSchema).optional(),
	})
	.passthrough();
export type AccumulationAddress = z.infer<typeof AccumulationAddressSchema>;

/** spec 2.5 (deprecated model). */
export const LiquidationAddressSchema = z
	.object({
		liquidationAddressId: NonEmpty,
		label: OptStr,
		sparkAddress: z.string(),
		l1DepositAddress: z.string(),
		destination: z.object({ chain: z.string(), asset: z.string(), address: z.string() }).passthrough(),
		feeBps: int(),
		slippageBps: int(),
		enabled: z.boolean(),
		createdAt: z.string(),
		updatedAt: z.string(),
		disabledAt: OptStr,
		appFees: z.array(AppFeeSchema).optional(),
	})
	.passthrough();
export type LiquidationAddress = z.infer<typeof LiquidationAddressSchema>;

/** GET /v1/liquidation-addresses (spec 4.4). */
export const LiquidationAddressListSchema = z
	.object({ liquidationAddresses: z.array(LiquidationAddressSchema) })
	.passthrough();

/** spec 2.8 sync result. */
export const SyncResultSchema = z
	.object({
		ok: z.boolean(),
		enabledCount: int(),
		solanaAddressCount: int(),
		errors: z.array(z.object({ provider: z.string(), error: z.string() }).passthrough()),
	})
	.passthrough();
export type SyncResult = z.infer<typeof SyncResultSchema>;

/** spec 2.8 reindex result. */
export const ReindexResultSchema = z
	.object({
		ok: z.boolean(),
		accumulationAddressId: z.string(),
		sourceChain: z.string(),
		sourceAsset: z.string(),
		depositAddress: z.string(),
		relay: z
			.object({
				message: z.string(),
				triggeredCurrencies: z.array(
					z.object({ currency: z.string(), symbol: z.string(), balance: z.string() }).passthrough(),
				),
				checkedCurrencies: int(),
				failedCurrencies: int(),
			})
			.passthrough()
			.optional(),
	})
	.passthrough();
export type ReindexResult = z.infer<typeof ReindexResultSchema>;

/** spec 2.7 affiliate profile. */
export const AffiliateSchema = z
	.object({
		affiliateId: NonEmpty,
		feeBps: int(),
		payoutChain: z.string(),
		payoutAsset: z.string(),
		payoutAddress: z.string(),
		enabled: z.boolean(),
		createdAt: z.string(),
		updatedAt: z.string(),
		disabledAt: OptStr,
	})
	.passthrough();
export type Affiliate = z.infer<typeof AffiliateSchema>;

/** GET /v1/affiliates (spec 4.5). */
export const AffiliateListSchema = z.object({ affiliates: z.array(AffiliateSchema) }).passthrough();

/** POST /v1/orchestration/submit response (public-notes); readToken for client keys (spec 5). */
export const SubmitResponseSchema = z
	.object({ orderId: NonEmpty, status: z.string(), readToken: z.string().optional() })
	.passthrough();
export type SubmitResponse = z.infer<typeof SubmitResponseSchema>;

/** POST /v1/orchestration/onramp response (public-notes): depositAddress is a BOLT11 invoice. */
export const OnrampResponseSchema = z
	.object({
		orderId: NonEmpty,
		quoteId: NonEmpty,
		depositAddress: NonEmpty,
		paymentLinks: z.unknown().optional(),
		amountIn: AmountSchema,
		estimatedOut: AmountSchema,
		feeAmount: OptAmount,
		totalFeeAmount: OptAmount,
		expiresAt: z.string(),
		readToken: z.string().optional(),
	})
	.passthrough();
export type OnrampResponse = z.infer<typeof OnrampResponseSchema>;

/** GET /v1/orchestration/limits (public-notes); route entries are not described, so kept whole. */
export const LimitsResponseSchema = z.object({ generatedAt: z.string(), routes: z.array(LooseObject) }).passthrough();
export type LimitsResponse = z.infer<typeof LimitsResponseSchema>;

/** GET /v1/orchestration/order?quoteId= (public-notes): the quote with its order, null until funded. */
export const OrderByQuoteResponseSchema = z
	.object({ quoteId: z.string().optional(), order: OrderSchema.nullable() })
	.passthrough();
export type OrderByQuoteResponse = z.infer<typeof OrderByQuoteResponseSchema>;

/** spec 6 envelope: `event` plus the order snapshot in `data`; `timestamp` per public-notes. */
export const WebhookEnvelopeSchema = z
	.object({
		event: z.string().min(1),
		timestamp: z.union([z.string(), z.number()]).optional(),
		// spec 6: (data.id, event, data.updatedAt) is the duplicate key, so updatedAt is required here
		data: OrderSchema.extend({ updatedAt: z.string() }).passthrough(),
	})
	.passthrough();
export type WebhookEnvelope = z.infer<typeof WebhookEnvelopeSchema>;

/** POST /v1/orchestration/reprice/{approve,reject,refund} (public-notes, fourth harvest). */
export const RepriceAnswerSchema = z.object({ orderId: NonEmpty, status: z.enum(['swapping', 'failed', 'refunding']) }).passthrough();

/** POST /v1/pay-links (public-notes, fourth harvest). */
export const PayLinkResponseSchema = z.object({ shortId: NonEmpty, shortUrl: z.string().url() }).passthrough();

/** The refund request of held standing-address deposits (public-notes: `{batchId, status: "refund_requested"}`). */
export const HeldRefundResponseSchema = z.object({ batchId: NonEmpty, status: z.literal('refund_requested') }).passthrough();

/** GET /v1/partner/dashboard/fee-invoices: its shape is not shown, so any list under `invoices` or `data`, or a bare array. */
const InvoiceListSchema = z.array(LooseObject);
export const FeeInvoicesResponseSchema = z.union([
	InvoiceListSchema,
	z.object({ invoices: InvoiceListSchema, nextOffset: int().nullable().optional() }).passthrough(),
	z.object({ data: InvoiceListSchema, nextOffset: int().nullable().optional() }).passthrough(),
]);

/** public-notes (fourth harvest): the live envelope, `timestamp` the ISO delivery time, `data` maybe without `updatedAt`. */
export const LiveWebhookEnvelopeSchema = z
	.object({ event: z.string().min(1), timestamp: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 time'), data: OrderSchema })
	.passthrough();

/** spec 7 error body. */
export const ErrorBodySchema = z
	.object({ error: z.object({ code: z.string(), message: z.string() }).passthrough() })
	.passthrough();
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** GET /v1/orchestration/status: both shapes are accepted. */
export const StatusResponseSchema = z.union([NestedStatusResponseSchema, FlatStatusResponseSchema]);
export type StatusResponse = z.infer<typeof StatusResponseSchema>;
