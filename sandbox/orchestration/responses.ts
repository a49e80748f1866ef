// The orchestration service's answers as the spec shows them (orchestration-service.md §2, public-notes.md):
// the sandbox answers in these shapes and the tests hold it (and the recorded live answers) to them.
// The nodes keep the service's answers untouched and parse only what they read (routes, status),
// so these schemas ship in no bundle.
import { z } from 'zod';
import {
	FlatStatusResponseSchema,
	LooseObject,
	NestedStatusResponseSchema,
	OptAmount,
	OptStr,
	OrderSchema,
	RouteAssetSchema,
} from '../../nodes/shared/orchestration/responseSchemas';
import {
	AmountModeSchema,
	AmountSchema,
	AppFeeSchema,
	DeliveryModeSchema,
	int,
	NonEmpty,
	PriceLockModeSchema,
} from '../../nodes/shared/orchestration/schemas';

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
		amountMode: AmountModeSchema,
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
		deliveryMode: DeliveryModeSchema.optional(),
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

/** spec 7 error body. */
export const ErrorBodySchema = z
	.object({ error: z.object({ code: z.string(), message: z.string() }).passthrough() })
	.passthrough();
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** GET /v1/orchestration/status: both shapes are accepted. */
export const StatusResponseSchema = z.union([NestedStatusResponseSchema, FlatStatusResponseSchema]);
export type StatusResponse = z.infer<typeof StatusResponseSchema>;
