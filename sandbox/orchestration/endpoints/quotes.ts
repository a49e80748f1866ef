import type { FastifyInstance } from 'fastify';
import { EstimateRequestSchema, OfframpRequestSchema, QuoteRequestSchema } from '../wire';
import { authenticate } from '../auth';
import { catalogueView, type Caller, type OrchestrationContext } from '../context';
import { parseInput } from '../errors';
import { idempotent } from '../idempotency';
import { checkIpLimit, checkKeyLimits } from '../rateLimits';
import { createQuote, economicsBody, priceQuote } from '../quotes';
import type { QuoteRecord } from '../state';
import { issueReadToken } from '../tokens';

/** The quote answer; client keys also get a quote-bound read token (spec §2.2, §5). */
export function quoteAnswer(ctx: OrchestrationContext, caller: Caller | undefined, quote: QuoteRecord): Record<string, unknown> {
	if (caller?.type !== 'client') return { ...quote.response };
	return { ...quote.response, readToken: issueReadToken(ctx, caller, 'quote', quote.quoteId) };
}

/** Offramp recipients the sandbox treats as unavailable: their orders fail after funding (spec §1). */
const UNAVAILABLE_RECIPIENT = /^(\$unavailable|unavailable@)/i;

export function registerQuoteEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	// spec §4.1; quotes made without Authorization are allowed but cannot be submitted (spec §4.6)
	app.post('/v1/orchestration/quote', async (request, reply) => {
		const caller = authenticate(ctx, request, { optional: true, clientScope: 'orders:quote' });
		checkKeyLimits(ctx, caller, 'quote', request);
		return idempotent(ctx, request, reply, 'quote', caller?.partner.partnerId ?? null, (key) => {
			const input = parseInput(QuoteRequestSchema, request.body);
			const view = catalogueView(ctx, caller?.partner.partnerId);
			const priced = priceQuote(ctx, caller, input, view, { requireRefund: true });
			return { status: 200, body: quoteAnswer(ctx, caller, createQuote(ctx, caller, priced, 'quote', key, { request })) };
		});
	});

	// spec §4.2 (path per public-notes): exact-in, variable, paying lightning:BTC to $username or a Lightning address
	app.post('/v1/orchestration/offramp', async (request, reply) => {
		const caller = authenticate(ctx, request, { clientScope: 'orders:quote' });
		checkKeyLimits(ctx, caller, 'quote', request);
		return idempotent(ctx, request, reply, 'offramp', caller?.partner.partnerId ?? null, (key) => {
			const input = parseInput(OfframpRequestSchema, request.body);
			const view = catalogueView(ctx, caller?.partner.partnerId);
			const quoteInput = { ...input, destinationChain: 'lightning', destinationAsset: 'BTC', amountMode: 'exact_in' as const };
			// public-notes: a Lightning destination needs refundAddress + refundChain on the live service
			const priced = priceQuote(ctx, caller, quoteInput, view, { skipRecipientCheck: true, requireRefund: true });
			const outcome = UNAVAILABLE_RECIPIENT.test(input.recipientAddress) ? 'failed' : undefined;
			return { status: 200, body: quoteAnswer(ctx, caller, createQuote(ctx, caller, priced, 'offramp', key, { outcome, request })) };
		});
	});

	// public-notes: public, no side effects; limited per IP without a key, per key and key+IP with one ("served estimate")
	app.get('/v1/orchestration/estimate', async (request, reply) => {
		const caller = authenticate(ctx, request, { optional: true });
		if (caller) checkKeyLimits(ctx, caller, 'estimate', request);
		else checkIpLimit(ctx, request, reply, 'estimate');
		const input = parseInput(EstimateRequestSchema, request.query, 'invalid_query');
		const priced = priceQuote(ctx, caller, input, catalogueView(ctx, caller?.partner.partnerId));
		return economicsBody(priced);
	});
}
