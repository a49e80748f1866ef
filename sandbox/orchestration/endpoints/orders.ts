import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { decimalToUnits, unitsToDecimal } from '../units';
import { AffiliateRefSchema, AppFeeSchema, OnrampRequestSchema, SubmitRequestSchema } from '../wire';
import { authenticate } from '../auth';
import { catalogueView, type OrchestrationContext } from '../context';
import { badRequest, forbidden, notFound, parseInput } from '../errors';
import { idempotent } from '../idempotency';
import { checkTurnstile } from '../clientKeyGuards';
import { checkKeyLimits } from '../rateLimits';
import { orderFromQuote } from '../deposits';
import { priceNanoUsd } from '../pricing';
import { assertQuoteLive, createQuote, priceQuote } from '../quotes';
import type { QuoteRecord } from '../state';
import { issueReadToken } from '../tokens';

/** Fee fields the onramp schema does not name; server keys may still send them (spec §5). */
const OnrampFeesSchema = z
	.object({ appFees: z.array(AppFeeSchema).min(1).max(16).optional(), affiliateIds: z.array(AffiliateRefSchema).min(1).max(16).optional() })
	.passthrough();

/** The source reference submit needs for each kind of source chain (public-notes). */
function checkSourceReference(quote: QuoteRecord, body: z.infer<typeof SubmitRequestSchema>): void {
	const chain = quote.source.chain;
	const need = chain === 'bitcoin' ? ['bitcoinTxid', 'bitcoinVout']
		: chain === 'spark' ? ['sparkTxHash', 'sourceSparkAddress']
			: chain === 'lightning' ? ['lightningReceiveRequestId']
				: ['txHash'];
	const missing = need.filter((f) => (body as Record<string, unknown>)[f] === undefined);
	if (missing.length > 0) throw badRequest(`${missing.join(', ')}: required to submit a ${chain} deposit`);
}

export function registerOrderEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	// spec §4.6: only the creating partner's keys can submit; anonymous quotes cannot be submitted
	app.post('/v1/orchestration/submit', async (request, reply) => {
		const caller = authenticate(ctx, request, { clientScope: 'orders:submit' });
		checkKeyLimits(ctx, caller, 'submit', request);
		checkTurnstile(ctx, caller, request);
		return idempotent(ctx, request, reply, 'submit', caller?.partner.partnerId ?? null, () => {
			const body = parseInput(SubmitRequestSchema, request.body);
			const quote = ctx.state.quotes.get(body.quoteId);
			if (!quote) throw notFound(`quote ${body.quoteId} not found`);
			if (quote.partnerId === null) throw forbidden('forbidden', 'quotes created without Authorization cannot be submitted');
			if (quote.partnerId !== caller?.partner.partnerId) throw forbidden('forbidden', 'the quote belongs to another partner');
			let order = quote.orderId ? ctx.state.orders.get(quote.orderId) : undefined;
			if (!order) {
				assertQuoteLive(ctx, quote);
				checkSourceReference(quote, body);
				const txHash = body.txHash ?? body.bitcoinTxid ?? body.sparkTxHash;
				order = orderFromQuote(ctx, quote, { amountPaid: BigInt(quote.response.amountIn as string) }, { txHash });
			}
			const readToken = caller?.type === 'client' ? issueReadToken(ctx, caller, 'order', order.id) : undefined;
			return { status: 200, body: { orderId: order.id, status: 'processing', quoteId: quote.quoteId, ...(readToken ? { readToken } : {}) } };
		});
	});

	// spec §4.6 (body per public-notes): a Lightning onramp; the order waits for the invoice to be paid
	app.post('/v1/orchestration/onramp', async (request, reply) => {
		const caller = authenticate(ctx, request, { clientScope: 'orders:onramp' });
		checkKeyLimits(ctx, caller, 'onramp', request);
		checkTurnstile(ctx, caller, request);
		return idempotent(ctx, request, reply, 'onramp', caller?.partner.partnerId ?? null, (key) => {
			const input = parseInput(OnrampRequestSchema, request.body);
			const fees = parseInput(OnrampFeesSchema, request.body);
			const btcNano = priceNanoUsd('BTC');
			const fiat = input.amountFiatUsd === undefined ? undefined
				: { amountFiatUsd: input.amountFiatUsd, spotUsdPerBtc: unitsToDecimal(btcNano, 9) };
			const amount = input.amount ?? ((decimalToUnits(input.amountFiatUsd ?? '0', 9) * 100_000_000n) / btcNano).toString();
			const quoteInput = { ...input, ...fees, amount, sourceChain: 'lightning', sourceAsset: 'BTC', amountMode: fiat ? 'exact_in' as const : input.amountMode };
			const priced = priceQuote(ctx, caller, quoteInput, catalogueView(ctx, caller?.partner.partnerId));
			const quote = createQuote(ctx, caller, priced, 'onramp', key, { fiat });
			const order = orderFromQuote(ctx, quote, null);
			const r = quote.response;
			const readToken = caller?.type === 'client' ? issueReadToken(ctx, caller, 'order', order.id) : undefined;
			return {
				status: 200,
				body: {
					orderId: order.id, quoteId: quote.quoteId, depositAddress: quote.depositAddress,
					paymentLinks: { lightning: `lightning:${quote.depositAddress}` },
					amountIn: r.amountIn, estimatedOut: r.estimatedOut, feeAmount: r.feeAmount, totalFeeAmount: r.totalFeeAmount,
					feeBps: r.feeBps, feeAsset: r.feeAsset, destinationChain: r.destinationChain, destinationAsset: r.destinationAsset,
					expiresAt: r.expiresAt, ...(fiat ? { amountFiatUsd: fiat.amountFiatUsd, amountFiatCurrency: 'USD', spotUsdPerBtc: fiat.spotUsdPerBtc } : {}),
					...(readToken ? { readToken } : {}),
				},
			};
		});
	});
}
