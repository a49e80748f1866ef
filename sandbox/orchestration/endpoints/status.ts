import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate } from '../auth';
import type { Caller, OrchestrationContext } from '../context';
import { badRequest, notFound } from '../errors';
import { orderSnapshot, publicStatus, statusView } from '../order-view';
import type { OrderRecord, QuoteRecord } from '../state';
import { checkIpLimit, checkKeyLimits } from '../rateLimits';
import { type ReadTarget, requireReadToken } from '../tokens';

const HEARTBEAT_MS = 15_000;
/** public-notes: the server closes the stream after these; `unfulfilled` may still resume, so it stays open. */
const CLOSES_STREAM: ReadonlySet<string> = new Set(['completed', 'failed', 'refunded']);

type Query = Record<string, string | undefined>;

function readTokenOf(request: FastifyRequest): string | undefined {
	const header = request.headers['x-read-token'];
	const query = (request.query as Query).readToken;
	return (typeof header === 'string' && header !== '' ? header : undefined) ?? query;
}

/**
 * A key sees its partner's records only (spec §4.6: a quote belongs to the partner whose key created
 * it). Records created without Authorization belong to no partner, so no key reads them; and status
 * always needs a key (public-notes: "no anonymous polling"), so no one reads them here.
 */
function visible(caller: Caller, partnerId: string | null): boolean {
	return partnerId !== null && partnerId === caller.partner.partnerId;
}

function findQuote(ctx: OrchestrationContext, caller: Caller, quoteId: string): QuoteRecord {
	const quote = ctx.state.quotes.get(quoteId);
	if (!quote || !visible(caller, quote.partnerId)) throw notFound(`quote ${quoteId} not found`);
	return quote;
}

function findOrder(ctx: OrchestrationContext, caller: Caller, id: string): OrderRecord {
	const order = ctx.state.orders.get(id);
	if (!order || !visible(caller, order.partnerId)) throw notFound(`order ${id} not found`);
	return order;
}

/**
 * The key of a status or order-by-quote read: always required (spec §5 "All requests carry
 * Authorization"; public-notes: "Status always needs a key", "authenticated order lookup").
 */
function readerOf(ctx: OrchestrationContext, request: FastifyRequest): Caller {
	return authenticate(ctx, request, { clientScope: 'orders:read' }) as Caller;
}

function checkReadToken(ctx: OrchestrationContext, caller: Caller, request: FastifyRequest, target: ReadTarget): void {
	requireReadToken(ctx, caller, readTokenOf(request), target);
}

/** The order whose deposit transaction is `txHash` on `sourceChain` (hex hashes compared in any case). */
function statusByDeposit(
	ctx: OrchestrationContext,
	caller: Caller,
	request: FastifyRequest,
	txHash: string | undefined,
	sourceChain: string | undefined,
): Record<string, unknown> {
	if (!txHash || !sourceChain) throw badRequest('txHash and sourceChain go together: give both', 'invalid_query');
	const wanted = txHash.toLowerCase();
	const order = [...ctx.state.orders.values()].find((o) => o.source.chain === sourceChain && o.depositTxHash?.toLowerCase() === wanted);
	checkReadToken(ctx, caller, request, { orderId: order?.id, quoteId: order?.quoteId ?? undefined });
	if (!order || !visible(caller, order.partnerId)) throw notFound(`no order for deposit transaction ${txHash} on ${sourceChain}`);
	return statusView(order, ctx.switches.statusShape);
}

export function registerStatusEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	// spec §4.6: by order `id` or by `quoteId`; before funding a quote-based poll answers 404 not_found.
	// public-notes: or by `txHash` + `sourceChain`, the order a deposit transaction created.
	app.get('/v1/orchestration/status', async (request) => {
		const caller = readerOf(ctx, request);
		checkKeyLimits(ctx, caller, 'status', request);
		const { id, quoteId, txHash, sourceChain } = request.query as Query;
		if (txHash !== undefined || sourceChain !== undefined) return statusByDeposit(ctx, caller, request, txHash, sourceChain);
		if (!id && !quoteId) throw badRequest('give the order id, quoteId, or txHash with sourceChain as query parameters', 'invalid_query');
		if (id) {
			const order = ctx.state.orders.get(id);
			checkReadToken(ctx, caller, request, { orderId: id, quoteId: order?.quoteId });
			return statusView(findOrder(ctx, caller, id), ctx.switches.statusShape);
		}
		const quote = ctx.state.quotes.get(quoteId as string);
		checkReadToken(ctx, caller, request, { quoteId, orderId: quote?.orderId });
		const found = findQuote(ctx, caller, quoteId as string);
		const order = found.orderId ? ctx.state.orders.get(found.orderId) : undefined;
		if (!order) throw notFound(`quote ${found.quoteId} has no order yet: its deposit address has not been paid`);
		return statusView(order, ctx.switches.statusShape);
	});

	// public-notes: the quote with its order, null until funded; limited per IP ("authenticated order lookup")
	app.get('/v1/orchestration/order', async (request, reply) => {
		checkIpLimit(ctx, request, reply, 'orderLookup');
		const caller = readerOf(ctx, request);
		const { quoteId } = request.query as Query;
		if (!quoteId) throw badRequest('quoteId: required query parameter', 'invalid_query');
		const quote = ctx.state.quotes.get(quoteId);
		checkReadToken(ctx, caller, request, { quoteId, orderId: quote?.orderId });
		const found = findQuote(ctx, caller, quoteId);
		const order = found.orderId ? ctx.state.orders.get(found.orderId) : undefined;
		return { ...found.response, order: order ? orderSnapshot(order) : null };
	});

	// public-notes: `event: status` frames on connect and on each change, heartbeats every 15 s (scaled),
	// closed after a final status; client keys need an order-bound token in `readToken` (spec §5);
	// 30 connection attempts a minute per IP, every attempt counted (public-notes)
	app.get('/v1/sse/operations/:id', async (request, reply) => {
		const limitHeaders = checkIpLimit(ctx, request, reply, 'stream');
		const caller = authenticate(ctx, request, { clientScope: 'orders:sse', keyInQuery: true }) as Caller;
		const { id } = request.params as { id: string };
		requireReadToken(ctx, caller, (request.query as Query).readToken, { orderId: id, orderTokensOnly: true });
		const order = findOrder(ctx, caller, id);
		reply.hijack();
		const res = reply.raw;
		res.writeHead(200, { ...limitHeaders, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
		const frame = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
		const finish = () => {
			ctx.events.off('status', onStatus);
			clearInterval(heartbeat);
			res.end();
		};
		const onStatus = (orderId: string, status: string) => {
			if (orderId !== id) return;
			frame('status', { status });
			if (CLOSES_STREAM.has(status)) finish();
		};
		// switches.sseHeartbeatMs (spec ms, scaled like every duration) lets tests space heartbeats out or bring them closer.
		const heartbeat = setInterval(() => frame('heartbeat', {}), Math.max(1, ctx.clock.duration(ctx.switches.sseHeartbeatMs ?? HEARTBEAT_MS)));
		heartbeat.unref();
		ctx.events.on('status', onStatus);
		request.raw.on('close', finish);
		onStatus(order.id, publicStatus(order));
	});
}
