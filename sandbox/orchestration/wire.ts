/**
 * The requests the sandbox accepts, as zod schemas written from orchestration-service.md §4 and §8
 * and public-notes.md (names the spec leaves out). Unknown top-level fields are kept, as spec 4.1
 * and 9 say the service ignores them. The sandbox's own reading: nothing here comes from nodes/.
 */
import { z, type ZodError, type ZodIssue } from 'zod';
import { isAssetInput, isChainName, withoutTonAlias } from './spec';

/** Longest amount text the sandbox reads (its own bound: uint256 has 78 digits). */
const MAX_AMOUNT_DIGITS = 100;

const integer = () => z.number({ invalid_type_error: 'must be a number' }).int('must be an integer');
const nonEmpty = () => z.string().min(1);

/** Spec 4.1: `^[0-9]+$`, smallest units. */
export const AmountSchema = z
	.string()
	.refine((s) => s.length <= MAX_AMOUNT_DIGITS && /^[0-9]+$/.test(s), `must be an integer string of digits in smallest units (at most ${MAX_AMOUNT_DIGITS})`);
/** A chain field (spec 2.1) by syntax; which chains exist is the sandbox's listing's to say (quotes.ts resolveAsset). */
export const ChainSchema = z.string().refine(isChainName, 'must be a chain name: lowercase letters, digits, "-" or "_", at most 32 characters');
/** Spec 2.1: a symbol, a `<chain>:<asset>` routing key, or the legacy alias TON; by syntax. */
const AssetSchema = z.string().refine(isAssetInput, 'must be an asset symbol, a routing key <chain>:<asset>, or TON');
/** Spec 4.1, 8: slippage 0..1000 basis points. */
export const SlippageBpsSchema = integer().min(0).max(1000);
/** A fee in basis points: at most 100 %. */
const FeeBpsSchema = integer().min(0).max(10_000);
/** public-notes (fourth harvest): an inline app fee is 1 to 10000 bps. */
const AppFeeBpsSchema = integer().min(1).max(10_000);
const AmountModeSchema = z.enum(['exact_in', 'exact_out']);
const DeliveryModeSchema = z.enum(['variable', 'fixed']);

/**
 * Spec 2.6 app fee entry `{recipient, feeBps, affiliateId?}`, or the live service's request form
 * `{recipient, fee}` (public-notes; fee in bps): the fee given exactly once.
 */
export const AppFeeSchema = z
	.object({ recipient: nonEmpty(), feeBps: AppFeeBpsSchema.optional(), fee: AppFeeBpsSchema.optional(), affiliateId: nonEmpty().optional() })
	.passthrough()
	.superRefine((entry, ctx) => {
		if ((entry.feeBps === undefined) === (entry.fee === undefined)) {
			const message = entry.feeBps === undefined ? 'Required: the fee in basis points, as feeBps or fee' : 'give the fee once: feeBps or fee, not both';
			ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['feeBps'], message });
		}
	});
/** Spec 4.1 affiliate list item (public-notes `affiliateIds`): an id, or `{affiliateId, feeBps}`. */
export const AffiliateRefSchema = z.union([nonEmpty(), z.object({ affiliateId: nonEmpty(), feeBps: FeeBpsSchema }).passthrough()]);

interface Modes {
	amountMode?: string;
	deliveryMode?: string;
}

/** public-notes `deliveryMode`: fixed exists for exact_in only. */
function fixedNeedsExactIn(value: Modes, ctx: z.RefinementCtx): void {
	if (value.deliveryMode === 'fixed' && value.amountMode === 'exact_out') {
		ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['deliveryMode'], message: 'fixed delivery is only available with amountMode exact_in' });
	}
}

/** POST /v1/orchestration/quote (spec 4.1; the unnamed inputs under their public-notes names). */
export const QuoteRequestSchema = z
	.object({
		sourceChain: ChainSchema,
		sourceAsset: AssetSchema,
		destinationChain: ChainSchema,
		destinationAsset: AssetSchema,
		amount: AmountSchema,
		recipientAddress: nonEmpty(),
		includeCalldata: z.boolean().optional(),
		appFees: z.array(AppFeeSchema).min(1).max(16).optional(),
		affiliateId: nonEmpty().optional(),
		amountMode: AmountModeSchema.optional(),
		deliveryMode: DeliveryModeSchema.optional(),
		refundAddress: nonEmpty().optional(),
		refundChain: ChainSchema.optional(),
		slippageBps: SlippageBpsSchema.optional(),
		affiliateIds: z.array(AffiliateRefSchema).min(1).max(16).optional(),
		zeroconfEnabled: z.boolean().optional(),
		// spec 1, 4.1: the amountless-invoice flag; its name is not shown anywhere (the sandbox's guess)
		amountlessInvoice: z.boolean().optional(),
	})
	.passthrough()
	.superRefine((value, ctx) => {
		if (value.appFees !== undefined && value.affiliateIds !== undefined) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['affiliateIds'], message: 'cannot be combined with appFees; send one or the other' });
		}
		// public-notes (fourth harvest): inline app fees go not together with affiliate fields
		if (value.appFees !== undefined && value.affiliateId !== undefined) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['affiliateId'], message: 'cannot be combined with appFees; send one or the other' });
		}
		fixedNeedsExactIn(value, ctx);
		if (value.amountlessInvoice === true) {
			const destination = withoutTonAlias(value.destinationAsset);
			const toLightningBtc = value.destinationChain === 'lightning' && (destination === 'BTC' || destination === 'lightning:BTC');
			const exactInVariable = (value.amountMode ?? 'exact_in') === 'exact_in' && (value.deliveryMode ?? 'variable') === 'variable';
			if (!toLightningBtc || !exactInVariable) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['amountlessInvoice'],
					message: 'an amountless invoice exists only for exact-in, variable quotes to lightning:BTC (spec 1, 4.1)',
				});
			}
		}
	});

/** A query-string integer: digits become a number, anything else is checked as is. */
const queryInteger = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (typeof v === 'string' && /^[0-9]{1,9}$/.test(v) ? Number(v) : v), schema);

/** GET /v1/orchestration/estimate query (public-notes). */
export const EstimateRequestSchema = z
	.object({
		sourceChain: ChainSchema,
		sourceAsset: AssetSchema,
		destinationChain: ChainSchema,
		destinationAsset: AssetSchema,
		amount: AmountSchema,
		amountMode: AmountModeSchema.optional(),
		deliveryMode: DeliveryModeSchema.optional(),
		recipientAddress: nonEmpty().optional(),
		slippageBps: queryInteger(SlippageBpsSchema.optional()),
		affiliateId: nonEmpty().optional(),
	})
	.passthrough()
	.superRefine(fixedNeedsExactIn);

/** POST /v1/orchestration/submit (public-notes): the quote and the deposit's source reference. */
export const SubmitRequestSchema = z
	.object({
		quoteId: nonEmpty(),
		txHash: nonEmpty().optional(),
		sourceAddress: nonEmpty().optional(),
		sparkTxHash: nonEmpty().optional(),
		sourceSparkAddress: nonEmpty().optional(),
		bitcoinTxid: nonEmpty().optional(),
		bitcoinVout: integer().min(0).optional(),
		lightningReceiveRequestId: nonEmpty().optional(),
	})
	.passthrough();
export type SubmitRequest = z.infer<typeof SubmitRequestSchema>;

/** public-notes `amountFiatUsd`: a USD decimal string (at most two decimals). */
const FiatUsdSchema = z.string().refine((s) => s.length <= MAX_AMOUNT_DIGITS && /^[0-9]+(\.[0-9]{1,2})?$/.test(s), 'must be a USD amount with at most 2 decimals, e.g. "25.50"');

/** POST /v1/orchestration/onramp (public-notes): `amount` (sats) or `amountFiatUsd`, exactly one. */
export const OnrampRequestSchema = z
	.object({
		destinationChain: ChainSchema,
		destinationAsset: AssetSchema,
		recipientAddress: nonEmpty(),
		amount: AmountSchema.optional(),
		amountFiatUsd: FiatUsdSchema.optional(),
		amountMode: AmountModeSchema.optional(),
		slippageBps: SlippageBpsSchema.optional(),
		refundAddress: nonEmpty().optional(),
		affiliateId: nonEmpty().optional(),
	})
	.passthrough()
	.superRefine((value, ctx) => {
		const sats = value.amount !== undefined;
		const usd = value.amountFiatUsd !== undefined;
		if (sats === usd) {
			ctx.addIssue(
				sats
					? { code: z.ZodIssueCode.custom, path: ['amountFiatUsd'], message: 'give either amount (sats) or amountFiatUsd, not both' }
					: { code: z.ZodIssueCode.custom, path: ['amount'], message: 'required: amount (sats) or amountFiatUsd' },
			);
		}
	});

/** Spec 1, 4.2: a payment-app `$username` or a Lightning address `name@domain.tld`. */
const OFFRAMP_RECIPIENT = /^(\$[A-Za-z0-9_.-]+|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+)$/;

/** POST /v1/orchestration/offramp (spec 4.2; path and body per public-notes, unconfirmed): exact-in, variable. */
export const OfframpRequestSchema = z
	.object({
		sourceChain: ChainSchema,
		sourceAsset: AssetSchema,
		amount: AmountSchema,
		recipientAddress: z
			.string()
			.refine((s) => s.length <= 320 && OFFRAMP_RECIPIENT.test(s), 'must be a payment-app $username or a Lightning address (name@domain)'),
		refundAddress: nonEmpty().optional(),
		// public-notes: a Lightning destination needs the refund address and its chain (the source chain)
		refundChain: ChainSchema.optional(),
		slippageBps: SlippageBpsSchema.optional(),
		affiliateId: nonEmpty().optional(),
		amountMode: z.literal('exact_in').optional(),
		deliveryMode: z.literal('variable').optional(),
	})
	.passthrough();

function isHttpUrl(s: string): boolean {
	if (!URL.canParse(s)) return false;
	const { protocol, hostname } = new URL(s);
	return (protocol === 'https:' || protocol === 'http:') && hostname !== '';
}

/** POST /v1/webhooks and /v1/webhooks/recovery (spec 4.6, 6; public-notes): `{url}`. */
export const WebhookCreateRequestSchema = z.object({ url: z.string().refine(isHttpUrl, 'must be an absolute http:// or https:// URL') }).passthrough();

/** POST /v1/orchestration/zeroconf/accept (public-notes): `{orderId}`. */
export const ZeroconfAcceptRequestSchema = z.object({ orderId: nonEmpty() }).passthrough();
/** POST /v1/orchestration/zeroconf/decline (public-notes): `{orderId, reason?}` (the sandbox caps a reason at 500 characters). */
export const ZeroconfDeclineRequestSchema = ZeroconfAcceptRequestSchema.extend({ reason: z.string().min(1).max(500).optional() }).passthrough();

/**
 * POST /v1/pay-links (public-notes, fourth harvest): the destination named as in a quote, exactly one
 * of `amountOut` (destination smallest units) or `amountFiatUsd`, an optional label (the sandbox caps it at 200 characters).
 */
export const PayLinkRequestSchema = z
	.object({
		destinationChain: ChainSchema,
		destinationAsset: AssetSchema,
		recipientAddress: nonEmpty(),
		amountOut: AmountSchema.optional(),
		amountFiatUsd: FiatUsdSchema.optional(),
		label: z.string().min(1).max(200).optional(),
	})
	.passthrough()
	.superRefine((value, ctx) => {
		if ((value.amountOut === undefined) === (value.amountFiatUsd === undefined)) {
			ctx.addIssue(
				value.amountOut === undefined
					? { code: z.ZodIssueCode.custom, path: ['amountOut'], message: 'required: amountOut (destination smallest units) or amountFiatUsd' }
					: { code: z.ZodIssueCode.custom, path: ['amountFiatUsd'], message: 'give either amountOut or amountFiatUsd, not both' },
			);
		}
	});

/** POST /v1/orchestration/reprice/approve (public-notes, fourth harvest): `approvedMinAmountOut` in smallest units. */
export const RepriceApproveRequestSchema = z.object({ orderId: nonEmpty(), approvedMinAmountOut: AmountSchema }).passthrough();
/** POST /v1/orchestration/reprice/reject: `{orderId, reason?}` (a reason capped at 500 characters, as a ZeroConf decline's). */
export const RepriceRejectRequestSchema = z.object({ orderId: nonEmpty(), reason: z.string().min(1).max(500).optional() }).passthrough();
/** POST /v1/orchestration/reprice/refund: `{orderId, reason?, refundAddress?}`. */
export const RepriceRefundRequestSchema = RepriceRejectRequestSchema.extend({ refundAddress: nonEmpty().optional() }).passthrough();

// ---------------------------------------------------------------- error text

function pathText(path: ReadonlyArray<string | number>): string {
	let out = '';
	for (const part of path) {
		if (typeof part === 'number') out += `[${part}]`;
		else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(part)) out += out === '' ? part : `.${part}`;
		else out += `[${JSON.stringify(part)}]`;
	}
	return out === '' ? '(root)' : out;
}

/** A union's "Invalid input" replaced by the issues of the one branch that got past the type check, if only one did. */
function expand(issue: ZodIssue): ZodIssue[] {
	if (issue.code !== 'invalid_union') return [issue];
	const plausible = issue.unionErrors.filter((e) => !e.issues.every((i) => i.code === 'invalid_type' && i.path.length === issue.path.length));
	return plausible.length === 1 ? plausible[0].issues.flatMap(expand) : [issue];
}

/** `field.path: message` per issue, joined by "; " (the sandbox's 400 answers). */
export function describeZodError(error: ZodError): string {
	const lines: string[] = [];
	for (const issue of error.issues.flatMap(expand)) {
		const line = `${pathText(issue.path)}: ${issue.message}`;
		if (!lines.includes(line)) lines.push(line);
	}
	return lines.join('; ');
}
