/**
 * Fee invoices (public-notes, fourth harvest): partners billed by invoice see `feeAmount: "0"` on
 * quotes; what they owe is at GET /v1/partner/dashboard/fee-invoices (server key). The answer's
 * shape is not shown: the sandbox answers `{invoices, nextOffset}` (limit/offset paging as the other
 * listings), or another plausible shape with the `feeInvoices` switch, so lenient readers can be tested.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authenticate } from '../auth';
import type { Caller, OrchestrationContext } from '../context';
import { badRequest, parseInput } from '../errors';
import { invoiceView, PartnerBook } from '../partnerBook';

/** `limit` (1..100, default 50) and `offset`; 400 invalid_query otherwise (the live bounds are not shown). */
function pageOf(request: FastifyRequest): { limit: number; offset: number } {
	const q = request.query as Record<string, string | undefined>;
	const int = (name: string, value: string | undefined, dflt: number, lo: number, hi: number): number => {
		if (value === undefined) return dflt;
		if (!/^[0-9]{1,9}$/.test(value) || Number(value) < lo || Number(value) > hi) throw badRequest(`${name}: must be an integer from ${lo} to ${hi}`, 'invalid_query');
		return Number(value);
	};
	return { limit: int('limit', q.limit, 50, 1, 100), offset: int('offset', q.offset, 0, 0, 1_000_000_000) };
}

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date');
/** An invoice a test adds (paging, statuses): its month, amount (USDC smallest units) and status. */
const SeedInvoiceSchema = z.object({
	partnerId: z.string().min(1).optional(),
	periodStart: isoDate.optional(),
	amount: z.string().regex(/^[0-9]+$/, 'must be an integer string in USDC smallest units'),
	status: z.enum(['open', 'issued', 'paid', 'overdue', 'void']).default('issued'),
});

export function registerFeeInvoiceEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	const book = ctx.state.partnerBook;

	app.get('/v1/partner/dashboard/fee-invoices', async (request) => {
		const caller = authenticate(ctx, request, {}) as Caller;
		const { limit, offset } = pageOf(request);
		const mine = book.invoices
			.filter((i) => i.partnerId === caller.partner.partnerId)
			.sort((a, b) => b.periodStart.localeCompare(a.periodStart) || b.createdAt.localeCompare(a.createdAt));
		const page = mine.slice(offset, offset + limit).map(invoiceView);
		const nextOffset = offset + limit < mine.length ? offset + limit : null;
		const { shape, nextOffset: withNext } = ctx.switches.feeInvoices;
		if (shape === 'array') return page;
		return { [shape]: page, ...(withNext ? { nextOffset } : {}) };
	});

	app.post('/sandbox/fee-invoices', async (request, reply) => {
		const body = parseInput(SeedInvoiceSchema, request.body);
		const partnerId = body.partnerId ?? ctx.config.partners[0].partnerId;
		if (!ctx.config.partners.some((p) => p.partnerId === partnerId)) throw badRequest(`partnerId: unknown partner ${partnerId}`);
		const at = new Date(body.periodStart ?? ctx.clock.now());
		const invoice = PartnerBook.newInvoice(partnerId, new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)), new Date(ctx.clock.now()).toISOString());
		invoice.amount = BigInt(body.amount);
		invoice.status = body.status;
		if (body.status !== 'open') invoice.issuedAt = invoice.periodEnd;
		if (body.status === 'paid') invoice.paidAt = invoice.dueAt;
		book.invoices.push(invoice);
		return reply.code(201).send(invoiceView(invoice));
	});
}
