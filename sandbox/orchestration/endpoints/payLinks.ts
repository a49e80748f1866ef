/**
 * Pay links (public-notes, fourth harvest): `POST /v1/pay-links` (server key) answers `{shortId,
 * shortUrl}`, a hosted payment page; every payment through the link is an order carrying `payLinkId`
 * and `payLinkLabel`, reported by the partner webhooks like any order. The page here is a small
 * HTML page; a test pays a link as a payer would with POST /sandbox/pay-links/:shortId/pay.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isStablecoin } from '../spec';
import { isWholeCents, unitsToDecimal } from '../units';
import { PayLinkRequestSchema } from '../wire';
import { checkAddress } from '../addresses';
import { authenticate } from '../auth';
import { catalogueView, type Caller, type OrchestrationContext } from '../context';
import { simulatedTxHash, orderFromQuote } from '../deposits';
import { badRequest, notFound, parseInput } from '../errors';
import { idempotent } from '../idempotency';
import { orderSnapshot } from '../order-view';
import { LIGHTNING_MAX_USD, MAX_USD, MIN_USD, PLATFORM_FEE_BPS, priceExactOut, priceNanoUsd, usdCentsOf, usdDecimalToUnits } from '../pricing';
import { checkAmountBounds, createQuote, isInvoiceBilled, resolveAsset, SANCTIONED_ADDRESSES } from '../quotes';
import { OUTCOMES, type PayLinkRecord } from '../state';

/** A payer's payment through a link (the control endpoint): the source they pay from, and the deposit's options. */
const PaySchema = z.object({
	sourceChain: z.string().min(1),
	sourceAsset: z.string().min(1),
	/** The amount paid (default: what the link asks, in source units). */
	amount: z.string().regex(/^[1-9][0-9]*$/, 'must be a positive integer string in smallest units').optional(),
	refundAddress: z.string().min(1).optional(),
	outcome: z.enum(OUTCOMES).optional(),
	autoAdvance: z.boolean().optional(),
	txHash: z.string().min(1).max(200).optional(),
});

/** A short id as a link shortener writes it: ten letters and digits. */
function newShortId(): string {
	const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
	return [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join('');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What the link asks, in destination smallest units (a USD amount converted at the sandbox's prices). */
function targetOf(link: PayLinkRecord): bigint {
	return link.amountOut ?? usdDecimalToUnits(link.amountFiatUsd as string, link.destination);
}

function baseUrlOf(request: FastifyRequest): string {
	return `${request.protocol}://${request.headers.host ?? '127.0.0.1'}`;
}

export function registerPayLinkEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	app.post('/v1/pay-links', async (request, reply) => {
		const caller = authenticate(ctx, request, {}) as Caller;
		return idempotent(ctx, request, reply, 'pay-links', caller.partner.partnerId, () => {
			const input = parseInput(PayLinkRequestSchema, request.body);
			const destination = resolveAsset(ctx, input.destinationChain, input.destinationAsset, catalogueView(ctx, caller.partner.partnerId), 'destinationAsset');
			const problem = checkAddress(destination.chainInfo.format, input.recipientAddress);
			if (problem) throw badRequest(`recipientAddress ${problem}`, 'invalid_address');
			if (SANCTIONED_ADDRESSES.has(input.recipientAddress.toLowerCase())) throw badRequest('recipientAddress is not allowed', 'invalid_address');
			// public-notes: whole cents for stablecoins
			if (input.amountOut !== undefined && isStablecoin(destination.asset) && !isWholeCents(input.amountOut, destination.decimals)) {
				throw badRequest(`amountOut: stablecoin amounts must be whole cents (${destination.asset} has ${destination.decimals} decimals)`);
			}
			const link: PayLinkRecord = {
				shortId: newShortId(),
				partnerId: caller.partner.partnerId,
				destination,
				recipientAddress: input.recipientAddress,
				...(input.amountOut !== undefined ? { amountOut: BigInt(input.amountOut) } : { amountFiatUsd: input.amountFiatUsd }),
				...(input.label !== undefined ? { label: input.label } : {}),
				createdAt: new Date(ctx.clock.now()).toISOString(),
			};
			// the order notional bounds of /limits, in USD: the source is the payer's choice, so only the destination's cap applies here
			const cents = usdCentsOf(targetOf(link), destination);
			const maxUsd = destination.chain === 'lightning' ? LIGHTNING_MAX_USD : MAX_USD;
			const field = input.amountOut !== undefined ? 'amountOut' : 'amountFiatUsd';
			if (cents < MIN_USD * 100n) throw badRequest(`${field}: below the minimum order of ${MIN_USD} USD`, 'amount_too_small');
			if (cents > maxUsd * 100n) throw badRequest(`${field}: above the maximum order of ${maxUsd} USD`, 'amount_too_large');
			ctx.state.payLinks.set(link.shortId, link);
			return { status: 200, body: { shortId: link.shortId, shortUrl: `${baseUrlOf(request)}/p/${link.shortId}` } };
		});
	});

	// The hosted payment page (a stand-in: what it asks and where it pays; paying is POST /sandbox/pay-links/:shortId/pay).
	app.get('/p/:shortId', async (request, reply) => {
		const link = ctx.state.payLinks.get((request.params as { shortId: string }).shortId);
		reply.type('text/html; charset=utf-8');
		if (!link) return reply.code(404).send('<!doctype html><title>Not found</title><p>This payment link does not exist.</p>');
		const amount = link.amountOut !== undefined ? `${link.amountOut} smallest units of ${link.destination.id}` : `${link.amountFiatUsd} USD in ${link.destination.id}`;
		return reply.send(`<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(link.label ?? 'Payment')}</title></head><body>`
			+ `<h1>${escapeHtml(link.label ?? 'Payment')}</h1><p>Pay ${escapeHtml(amount)} to ${escapeHtml(link.recipientAddress)}.</p>`
			+ `<p data-short-id="${link.shortId}">Sandbox payment page: nothing here moves real funds.</p></body></html>`);
	});

	app.get('/sandbox/pay-links', async () => ({
		payLinks: [...ctx.state.payLinks.values()].map((l) => ({
			shortId: l.shortId, partnerId: l.partnerId, destinationChain: l.destination.chain, destinationAsset: l.destination.asset,
			recipientAddress: l.recipientAddress, amountOut: l.amountOut?.toString() ?? null, amountFiatUsd: l.amountFiatUsd ?? null,
			label: l.label ?? null, createdAt: l.createdAt,
		})),
	}));

	// A payer pays the link from a source of their choice: an exact-out quote of the link's amount, funded at once.
	app.post('/sandbox/pay-links/:shortId/pay', async (request, reply) => {
		const link = ctx.state.payLinks.get((request.params as { shortId: string }).shortId);
		if (!link) throw notFound('pay link not found');
		const body = parseInput(PaySchema, request.body);
		const view = catalogueView(ctx, link.partnerId);
		const source = resolveAsset(ctx, body.sourceChain, body.sourceAsset, view, 'sourceAsset');
		const destination = link.destination;
		if (body.outcome?.startsWith('zeroconf') && source.chain !== 'bitcoin') throw badRequest('outcome zeroconf needs a Bitcoin L1 deposit');
		if (!ctx.catalogue.reaches(source, destination, 'to')) throw badRequest(`no route from ${source.id} to ${destination.id}`, 'unsupported_route');
		if (body.refundAddress !== undefined && checkAddress(source.chainInfo.format, body.refundAddress)) {
			throw badRequest(`refundAddress is not a valid ${source.chainInfo.format} address`, 'invalid_address');
		}
		const target = targetOf(link);
		const invoiced = isInvoiceBilled(ctx, link.partnerId);
		const economics = priceExactOut(target, source, destination, invoiced ? 0 : PLATFORM_FEE_BPS);
		checkAmountBounds(source, destination, 'exact_out', target, economics.estimatedOut);
		const input = {
			sourceChain: source.chain, sourceAsset: source.asset, destinationChain: destination.chain, destinationAsset: destination.asset,
			amount: target.toString(), amountMode: 'exact_out' as const, recipientAddress: link.recipientAddress, refundAddress: body.refundAddress,
		};
		const fiat = link.amountFiatUsd === undefined ? undefined : { amountFiatUsd: link.amountFiatUsd, spotUsdPerBtc: unitsToDecimal(priceNanoUsd('BTC'), 9) };
		const quote = createQuote(ctx, undefined, { input, source, destination, amountMode: 'exact_out', fixed: false, economics, invoiced }, 'quote', null, { fiat });
		quote.partnerId = link.partnerId;
		quote.payLink = { id: link.shortId, ...(link.label !== undefined ? { label: link.label } : {}) };
		const txHash = body.txHash ?? simulatedTxHash(source.chain);
		const amountPaid = body.amount === undefined ? economics.amountIn : BigInt(body.amount);
		const order = orderFromQuote(ctx, quote, { amountPaid }, { outcome: body.outcome, autoAdvance: body.autoAdvance, txHash });
		return reply.code(201).send({ orderId: order.id, quoteId: quote.quoteId, shortId: link.shortId, depositAddress: quote.depositAddress, txHash, order: orderSnapshot(order) });
	});
}
