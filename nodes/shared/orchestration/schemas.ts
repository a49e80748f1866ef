// Zod wire schemas of the orchestration service's requests (orchestration-service.md, public-notes.md):
// strict on every known field, unknown top-level keys kept (spec 4.1: the service ignores them; users
// have an additional-fields escape hatch); the closed mode enums checked. Answers: responseSchemas.ts.
import { z } from 'zod';
import {
	AMOUNT_MODES,
	CHAIN_NAME_MAX_LENGTH,
	DELIVERY_MODES,
	PRICE_LOCK_MODES,
	isChainName,
	isValidAssetInput,
	ROUTING_KEY_MAX_LENGTH,
	normalizeAssetInput,
} from './enums';
import { isDigits, MAX_AMOUNT_LENGTH } from './amounts';

// ---------------------------------------------------------------- bounds (spec 8)

/** `appFees` holds 1 to 16 entries (spec 4.1, 8). */
export const APP_FEES_MIN = 1;
export const APP_FEES_MAX = 16;
/** The affiliate list of a quote holds 1 to 16 entries (spec 4.1, 8). */
export const AFFILIATE_IDS_MIN = 1;
export const AFFILIATE_IDS_MAX = 16;
/** Reviewed token identities frozen by a quote: 1 to 32 (spec 2.2, 8). */
export const REVIEWED_IDENTITIES_MIN = 1;
export const REVIEWED_IDENTITIES_MAX = 32;
/** Slippage tolerance in basis points (spec 4.1, 8). */
export const SLIPPAGE_BPS_MIN = 0;
export const SLIPPAGE_BPS_MAX = 1000;
/** A fee in basis points cannot exceed 100%. */
export const FEE_BPS_MAX = 10_000;
/** The life a quote must still have to be returned as payable, at most: a quote lives 2 minutes (spec 1, 8), a margin near that refuses every quote. */
export const EXPIRY_MARGIN_MAX_SECONDS = 90;
export const EXPIRY_MARGIN_DEFAULT_SECONDS = 0;

// ---------------------------------------------------------------- building blocks

/** spec 4.1: `^[0-9]+$`, smallest units; length-capped, linear scan (requests and responses alike). */
export const AmountSchema = z
	.string()
	.refine(
		(s) => isDigits(s, MAX_AMOUNT_LENGTH),
		`must be an integer string of digits in smallest units (at most ${MAX_AMOUNT_LENGTH})`,
	);
/**
 * A chain field (spec 2.1): a chain name by syntax only. Which chains exist is the routes listing's
 * to say (enums.ts checkOffered); the spec's list (CHAINS) is never a reason to refuse one.
 */
export const ChainSchema = z
	.string({ invalid_type_error: 'must be a chain name (text)' })
	.refine(isChainName, (value) => ({
		message: `${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)} is not a chain name: lowercase letters, digits, "-" or "_", at most ${CHAIN_NAME_MAX_LENGTH} characters (e.g. base)`,
	}));
/** spec 2.1: a symbol, a routing key `<chain>:<asset>`, or the legacy alias TON; syntax only (the listing says what exists). */
export const AssetInputSchema = z
	.string()
	.refine(
		isValidAssetInput,
		`must be an asset symbol (e.g. USDC), a routing key <chain>:<asset> (at most ${ROUTING_KEY_MAX_LENGTH} characters), or TON`,
	);
/** The same, with TON rewritten to ton:GRAM (spec 2.1). */
export const NormalizedAssetInputSchema = AssetInputSchema.transform(normalizeAssetInput);
export const AmountModeSchema = z.enum(AMOUNT_MODES);
export const DeliveryModeSchema = z.enum(DELIVERY_MODES);
export const PriceLockModeSchema = z.enum(PRICE_LOCK_MODES);

export const int = () =>
	z.number({ invalid_type_error: 'must be a number' }).int('must be an integer');
export const FeeBpsSchema = int().min(0).max(FEE_BPS_MAX);
/** spec 4.1, 8: integer 0..1000. */
export const SlippageBpsSchema = int().min(SLIPPAGE_BPS_MIN).max(SLIPPAGE_BPS_MAX);
export const NonEmpty = z.string().min(1);

/** Affiliate IDs (public-notes, the docs' rule): trimmed and lowercased, then this pattern. */
export const AFFILIATE_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const AFFILIATE_ID_RULE =
	'1 to 64 letters, digits, "_" or "-", starting with a letter or digit (trimmed and lowercased first)';

/** An affiliate ID as the service reads it (trimmed, lowercased), or undefined when it breaks the docs' rule. */
export function normalizedAffiliateId(value: string): string | undefined {
	const id = value.trim().toLowerCase();
	return AFFILIATE_ID_PATTERN.test(id) ? id : undefined;
}

/** An affiliate ID field, checked by the docs' rule (the plans send it normalized). */
export const AffiliateIdSchema = z
	.string()
	.refine(
		(s) => normalizedAffiliateId(s) !== undefined,
		`must be an affiliate ID: ${AFFILIATE_ID_RULE}`,
	);

/**
 * spec 2.6 app fee entry `{recipient, feeBps, affiliateId?}`, or the live service's request form
 * `{recipient, fee}` (public-notes; fee in bps): exactly one of feeBps and fee. Unknown keys kept
 * (never stripped) so nothing the user sent silently disappears.
 */
/** public-notes (fourth harvest): each app fee is 1 to 10000 bps. */
const AppFeeBpsSchema = int().min(1).max(10_000);

export const AppFeeSchema = z
	.object({
		recipient: NonEmpty,
		feeBps: AppFeeBpsSchema.optional(),
		fee: AppFeeBpsSchema.optional(),
		affiliateId: AffiliateIdSchema.optional(),
	})
	.passthrough()
	.superRefine((entry, ctx) => {
		if ((entry.feeBps === undefined) !== (entry.fee === undefined)) return;
		const message =
			entry.feeBps === undefined
				? "Required: the fee in basis points, as feeBps (the spec's form) or fee (the live service's request form)"
				: "give the fee once: feeBps (the spec's form) or fee (the live service's request form), not both";
		ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['feeBps'], message });
	});

/** public-notes (fourth harvest): at most 16 app fees, together at most 10000 bps. */
export const AppFeesSchema = z
	.array(AppFeeSchema)
	.min(APP_FEES_MIN)
	.max(APP_FEES_MAX)
	.superRefine((fees, ctx) => {
		const total = fees.reduce(
			(sum, f) =>
				sum + (typeof f.feeBps === 'number' ? f.feeBps : typeof f.fee === 'number' ? f.fee : 0),
			0,
		);
		if (total > 10_000)
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: `add up to ${total} bps; together they may be at most 10000`,
			});
	});

/** spec 4.1 affiliate list item: a registered id, or an `{affiliateId, feeBps}` override. */
export const AffiliateRefSchema = z.union([
	AffiliateIdSchema,
	z.object({ affiliateId: AffiliateIdSchema, feeBps: FeeBpsSchema }).passthrough(),
]);

/** spec 2.2, 8: 1..32 reviewed token identities. */
export const ReviewedIdentitiesSchema = z
	.array(NonEmpty)
	.min(REVIEWED_IDENTITIES_MIN)
	.max(REVIEWED_IDENTITIES_MAX);

// ---------------------------------------------------------------- requests

/** Fixed delivery exists only for exact_in (public-notes `deliveryMode`); exact_in is the default. */
function refineModes(
	value: { amountMode?: string; deliveryMode?: string },
	ctx: z.RefinementCtx,
): void {
	if (value.deliveryMode === 'fixed' && value.amountMode === 'exact_out') {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['deliveryMode'],
			message: 'fixed delivery is only available with amountMode exact_in',
		});
	}
}

/** Both sides of a quote or estimate and its amount, in the order the service's examples show (§4.1). */
const ROUTE_AND_AMOUNT = {
	sourceChain: ChainSchema,
	sourceAsset: AssetInputSchema,
	destinationChain: ChainSchema,
	destinationAsset: AssetInputSchema,
	amount: AmountSchema,
};

/** The quote request's object schema without the cross-field rules, for `.extend()` / `.shape`. */
export const QuoteRequestObjectSchema = z
	.object({
		...ROUTE_AND_AMOUNT,
		recipientAddress: NonEmpty,
		includeCalldata: z.boolean().optional(),
		appFees: AppFeesSchema.optional(),
		affiliateId: AffiliateIdSchema.optional(),
		amountMode: AmountModeSchema.optional(),
		deliveryMode: DeliveryModeSchema.optional(),
		refundAddress: NonEmpty.optional(),
		// spec 4.1: the refund address's chain comes from the chain enum
		refundChain: ChainSchema.optional(),
		slippageBps: SlippageBpsSchema.optional(),
		affiliateIds: z
			.array(AffiliateRefSchema)
			.min(AFFILIATE_IDS_MIN)
			.max(AFFILIATE_IDS_MAX)
			.optional(),
		zeroconfEnabled: z.boolean().optional(),
		// spec 1, 4.1: the amountless Lightning invoice flag; its name is not shown (public-notes), so unconfirmed
		amountlessInvoice: z.boolean().optional(),
	})
	.passthrough();

/** spec 1, 4.1: an amountless invoice exists only for exact-in, variable quotes to lightning:BTC. */
function refineAmountless(
	value: Omit<z.infer<typeof QuoteRequestObjectSchema>, 'amount'>,
	ctx: z.RefinementCtx,
): void {
	if (value.amountlessInvoice !== true) return;
	const destination = normalizeAssetInput(String(value.destinationAsset));
	const toLightningBtc =
		value.destinationChain === 'lightning' &&
		(destination === 'BTC' || destination === 'lightning:BTC');
	const exactInVariable =
		(value.amountMode ?? 'exact_in') === 'exact_in' &&
		(value.deliveryMode ?? 'variable') === 'variable';
	if (toLightningBtc && exactInVariable) return;
	ctx.addIssue({
		code: z.ZodIssueCode.custom,
		path: ['amountlessInvoice'],
		message:
			'an amountless invoice exists only for Exact In, Variable quotes to lightning:BTC (spec 1, 4.1)',
	});
}

/** The cross-field rules of a quote request, none of which involves the amount. */
function refineQuote(
	value: Omit<z.infer<typeof QuoteRequestObjectSchema>, 'amount'>,
	ctx: z.RefinementCtx,
): void {
	// spec 4.1: the affiliate list is mutually exclusive with appFees
	if (value.appFees !== undefined && value.affiliateIds !== undefined) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['affiliateIds'],
			message: 'cannot be combined with appFees; send one or the other',
		});
	}
	refineModes(value, ctx);
	refineAmountless(value, ctx);
}

/** POST /v1/orchestration/quote body (spec 4.1, public-notes). */
export const QuoteRequestSchema = QuoteRequestObjectSchema.superRefine(refineQuote);

/**
 * The quote request before its amount is in smallest units: a decimal amount needs the asset's
 * decimals from the routes listing first (§4.1), and the amount text is checked on its own.
 */
export const QuoteDraftSchema = QuoteRequestObjectSchema.omit({ amount: true }).superRefine(
	refineQuote,
);
export type QuoteRequest = z.infer<typeof QuoteRequestSchema>;

/** A query-string integer arrives as text; digits become a number, anything else is checked as is. */
const queryInt = <T extends z.ZodTypeAny>(schema: T) =>
	z.preprocess((v) => (typeof v === 'string' && /^[0-9]{1,9}$/.test(v) ? Number(v) : v), schema);

/** GET /v1/orchestration/estimate query (public-notes); slippageBps may come as query text. */
const EstimateRequestObjectSchema = z
	.object({
		...ROUTE_AND_AMOUNT,
		amountMode: AmountModeSchema.optional(),
		deliveryMode: DeliveryModeSchema.optional(),
		recipientAddress: NonEmpty.optional(),
		slippageBps: queryInt(SlippageBpsSchema.optional()),
		affiliateId: AffiliateIdSchema.optional(),
	})
	.passthrough();
export const EstimateRequestSchema = EstimateRequestObjectSchema.superRefine(refineModes);
/** The estimate query before its amount is in smallest units (see QuoteDraftSchema). */
export const EstimateDraftSchema = EstimateRequestObjectSchema.omit({ amount: true }).superRefine(
	refineModes,
);
export type EstimateRequest = z.infer<typeof EstimateRequestSchema>;

/** POST /v1/orchestration/submit body: the quote plus the source reference (public-notes). */
export const SubmitRequestSchema = z
	.object({
		quoteId: NonEmpty,
		txHash: NonEmpty.optional(),
		sourceAddress: NonEmpty.optional(),
		sparkTxHash: NonEmpty.optional(),
		sourceSparkAddress: NonEmpty.optional(),
		bitcoinTxid: NonEmpty.optional(),
		bitcoinVout: int().min(0).optional(),
		lightningReceiveRequestId: NonEmpty.optional(),
	})
	.passthrough();
export type SubmitRequest = z.infer<typeof SubmitRequestSchema>;

/** A USD amount: digits with at most two decimals ("25", "25.5", "25.50"). */
export const FiatUsdSchema = z
	.string()
	.refine(isFiatUsd, 'must be a USD amount with at most 2 decimals, e.g. "25.50"');

/** Digits with an optional 1- or 2-digit fraction, capped before the scan. */
export function isFiatUsd(s: string): boolean {
	if (s.length > MAX_AMOUNT_LENGTH) return false;
	const dot = s.indexOf('.');
	if (dot === -1) return isDigits(s);
	const fraction = s.slice(dot + 1);
	return isDigits(s.slice(0, dot)) && fraction.length <= 2 && isDigits(fraction);
}

/** POST /v1/orchestration/onramp body (spec 4.6, public-notes): exactly one of amount / amountFiatUsd. */
const OnrampRequestObjectSchema = z
	.object({
		destinationChain: ChainSchema,
		destinationAsset: AssetInputSchema,
		recipientAddress: NonEmpty,
		amount: AmountSchema.optional(),
		amountFiatUsd: FiatUsdSchema.optional(),
		amountMode: AmountModeSchema.optional(),
		slippageBps: SlippageBpsSchema.optional(),
		refundAddress: NonEmpty.optional(),
		affiliateId: AffiliateIdSchema.optional(),
		// spec §5: onramp creation takes fee fields from server keys (client keys are refused)
		appFees: AppFeesSchema.optional(),
	})
	.passthrough();

/** Why an onramp's amounts are wrong (exactly one of sats and USD), or undefined; the field it names. */
export function onrampAmountProblem(
	hasSats: boolean,
	hasUsd: boolean,
): { field: string; message: string } | undefined {
	if (hasSats !== hasUsd) return undefined;
	return hasSats
		? { field: 'amountFiatUsd', message: 'give either amount (sats) or amountFiatUsd, not both' }
		: { field: 'amount', message: 'required: amount (sats) or amountFiatUsd' };
}

export const OnrampRequestSchema = OnrampRequestObjectSchema.superRefine((value, ctx) => {
	const problem = onrampAmountProblem(
		value.amount !== undefined,
		value.amountFiatUsd !== undefined,
	);
	if (problem)
		ctx.addIssue({ code: z.ZodIssueCode.custom, path: [problem.field], message: problem.message });
});
/** The onramp body before its amount is in smallest units (see QuoteDraftSchema); onrampAmountProblem checks the amounts. */
export const OnrampDraftSchema = OnrampRequestObjectSchema.omit({ amount: true });
export type OnrampRequest = z.infer<typeof OnrampRequestSchema>;

/** `$username` of the payment app, or a Lightning address `name@domain.tld` (spec 1, 4.2). */
export const PAYMENT_APP_USERNAME = /^\$[A-Za-z0-9_.-]+$/;
/** Longest offramp recipient checked (an e-mail-style address has at most 320 characters). */
export const MAX_RECIPIENT_LENGTH = 320;
export const LIGHTNING_ADDRESS = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

/** Offramp quote body (spec 4.2; public-notes, unconfirmed path): always exact-in and variable. */
export const OfframpRequestSchema = z
	.object({
		sourceChain: ChainSchema,
		sourceAsset: AssetInputSchema,
		amount: AmountSchema,
		recipientAddress: z.string().refine(
			// capped before the patterns run: outside input must not cost more than a short scan
			(s) =>
				s.length <= MAX_RECIPIENT_LENGTH &&
				(PAYMENT_APP_USERNAME.test(s) || LIGHTNING_ADDRESS.test(s)),
			'must be a payment-app $username or a Lightning address (name@domain)',
		),
		refundAddress: NonEmpty.optional(),
		// public-notes: a Lightning destination needs the refund address and its chain (the source chain)
		refundChain: ChainSchema.optional(),
		slippageBps: SlippageBpsSchema.optional(),
		affiliateId: AffiliateIdSchema.optional(),
		// spec 1: an offramp quote is exact-in and variable; other values are refused up front
		amountMode: z.literal('exact_in').optional(),
		deliveryMode: z.literal('variable').optional(),
	})
	.passthrough();
export type OfframpRequest = z.infer<typeof OfframpRequestSchema>;
/** The offramp body before its amount is in smallest units (see QuoteDraftSchema). */
export const OfframpDraftSchema = OfframpRequestSchema.omit({ amount: true });

function isHttpUrl(s: string): boolean {
	if (!URL.canParse(s)) return false;
	const { protocol, hostname } = new URL(s);
	return (protocol === 'https:' || protocol === 'http:') && hostname !== '';
}

/** POST /v1/webhooks body (spec 4.6, 6). */
export const WebhookCreateRequestSchema = z
	.object({ url: z.string().refine(isHttpUrl, 'must be an absolute http:// or https:// URL') })
	.passthrough();
export type WebhookCreateRequest = z.infer<typeof WebhookCreateRequestSchema>;
