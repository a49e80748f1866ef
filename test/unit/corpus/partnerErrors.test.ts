/**
 * Claims, standing-address deposits, ZeroConf offers and error answers of the corpus (claims.json,
 * standing-addresses.json, zeroconf.json, error-bodies.json) through the nodes' own readers: claim
 * records, their end and formatted amount (shared/orchestration/claims.ts,
 * actions/affiliate/claimResult.ts), paging by nextOffset (partnerPlan.ts), the order schema and the
 * action a wait reports (orderView.ts), the error body (nodes/n8n/serviceErrors.ts errorOf), what is
 * retried (retries.ts) and how a batch is paced by the limit headers (pacing.ts). Without the sandbox.
 */
import type { IDataObject } from 'n8n-workflow';
import { formattedClaim } from '../../../nodes/Orchestration/actions/affiliate/claimResult';
import { errorOf } from '../../../nodes/n8n/errors';
import { readLimitHeaders, RatePacer } from '../../../nodes/shared/pacing';
import { isRetryableStatus, parseRetryAfter } from '../../../nodes/shared/retries';
import { claimEndOf, claimRecordOf, claimRecordsOf } from '../../../nodes/shared/orchestration/claims';
import { actionRequiredOf } from '../../../nodes/shared/orchestration/orderView';
import { nextPageAfter } from '../../../nodes/shared/orchestration/partnerPlan';
import { OrderSchema } from '../../../nodes/shared/orchestration/responseSchemas';
import { catalogue, fixture, type Json } from './corpus';

interface Page<K extends string> {
	name: string;
	query: { limit: number; offset: number };
	body: Record<K, IDataObject[]> & { nextOffset: number | null };
}

interface ClaimsFixture {
	claim: { body: { claim: IDataObject }; formatted: Json; end: string | null };
	oneClaim: Array<{ name: string; body: { claim: IDataObject }; formatted: Json; end: string | null }>;
	pages: Array<Page<'claims'>>;
}
const claims = fixture<ClaimsFixture>('claims.json');
const deposits = fixture<{ pages: Array<Page<'deposits'>> }>('standing-addresses.json');

/** The page the nodes read after each documented page (nextOffset followed, null ends), or undefined. */
function nextAfter(pages: Array<Page<'claims'> | Page<'deposits'>>, member: 'claims' | 'deposits'): Array<{ limit: number; offset: number } | undefined> {
	let received = 0;
	return pages.map((p) => {
		const list = (p.body as Record<string, IDataObject[]>)[member];
		received += list.length;
		return nextPageAfter({ wanted: undefined, pageMax: p.query.limit, page: p.query, received, pageLength: list.length, nextOffset: p.body.nextOffset });
	});
}

describe('claims', () => {
	test('one claim record per claim, from {claim} and from each {claims, nextOffset} page', () => {
		expect(claimRecordsOf(claims.claim.body)).toEqual([claims.claim.body.claim]);
		for (const one of claims.oneClaim) expect(claimRecordOf(one.body)).toEqual(one.body.claim);
		for (const page of claims.pages) expect(claimRecordsOf(page.body)).toEqual(page.body.claims);
	});

	test('the pages are followed by nextOffset until it is null', () => {
		expect(nextAfter(claims.pages, 'claims')).toEqual([{ limit: 2, offset: 2 }, undefined]);
	});

	const withAmount = [['claim', claims.claim] as const, ...claims.oneClaim.map((c) => [c.name, c] as const)];

	test.each(withAmount)('%s: the record kept as received, its amount formatted in the settlement asset', (_name, c) => {
		const out = formattedClaim(c.body.claim, catalogue());
		expect(out).toMatchObject(c.body.claim);
		expect(out.amountFormatted).toBe(c.formatted.amount);
	});

	test.each(withAmount)('%s: paid once it has a txHash; a retried failure still under way', (_name, c) => {
		expect(claimEndOf(c.body.claim) ?? null).toBe(c.end);
	});
});

describe('standing-address deposits', () => {
	test('the pages are followed by nextOffset until it is null', () => {
		expect(nextAfter(deposits.pages, 'deposits')).toEqual([{ limit: 2, offset: 2 }, undefined]);
	});
});

interface ZeroconfFixture {
	offers: Array<{ name: string; order: Json; actionRequired?: string }>;
	answers: Array<{ name: string; body: Json }>;
}
const zeroconf = fixture<ZeroconfFixture>('zeroconf.json');

describe('ZeroConf offers', () => {
	test.each(zeroconf.offers.map((o) => [o.name, o] as const))('an offer %s is part of an order the nodes read', (_name, o) => {
		const parsed = OrderSchema.parse(o.order);
		expect(parsed.zeroconfOffer).toEqual(o.order.zeroconfOffer);
	});

	test('a pending offer is the action an awaiting_approval order waits for, with the offer itself', () => {
		const pending = zeroconf.offers.find((o) => o.actionRequired === 'zeroconfOffer') as ZeroconfFixture['offers'][number];
		const action = actionRequiredOf(pending.order);
		expect(action.zeroconfOffer).toEqual(pending.order.zeroconfOffer);
		expect((action.actionRequired as Json).reason).toBe('zeroconfOffer');
	});

	test('the accept and decline answers are {orderId, status}', () => {
		expect(zeroconf.answers.map((a) => a.body.status)).toEqual(['processing', 'confirming']);
	});
});

interface ErrorExample {
	status: number;
	source: string;
	headers?: Record<string, string>;
	body: { error: { code: string; message: string } };
	retryable: boolean;
	retryAfterMs?: number;
	limit?: { limit: number; remaining: number; resetAt: number };
}
const errors = fixture<{ examples: ErrorExample[] }>('error-bodies.json').examples;

describe('error answers', () => {
	const cases = errors.map((e) => [`${e.status} ${e.body.error.code}`, e] as const);

	test.each(cases)('%s: code and message read', (_name, e) => {
		expect(errorOf(e.body)).toEqual({ code: e.body.error.code, message: e.body.error.message });
	});

	test.each(cases)('%s: retried only where the documents say to try again', (_name, e) => {
		expect(isRetryableStatus(e.status, e.body.error.code)).toBe(e.retryable);
	});

	test.each(cases.filter(([, e]) => e.retryAfterMs !== undefined))('%s: Retry-After read in seconds', (_name, e) => {
		expect(parseRetryAfter(e.headers?.['retry-after'])).toBe(e.retryAfterMs);
	});

	test.each(cases.filter(([, e]) => e.limit !== undefined))('%s: an IP limiter denial (no Retry-After) holds a batch until the window resets', (_name, e) => {
		const limit = e.limit as NonNullable<ErrorExample['limit']>;
		const now = limit.resetAt - 30_000;
		const report = readLimitHeaders(e.status, e.headers, now);
		expect(report).toMatchObject({ denied: true, ...limit, retryAfterMs: undefined });
		const pacer = new RatePacer();
		expect(pacer.admit(now)).toEqual({ go: true });
		pacer.finish(now, report);
		// reset is Unix milliseconds (public-notes): nothing starts before it, whatever the denial's own back-off
		expect(pacer.admit(now + 5_000)).toMatchObject({ go: false });
		expect(pacer.waitFor(now + 5_000)).toBeGreaterThanOrEqual(limit.resetAt - (now + 5_000));
		expect(pacer.admit(limit.resetAt + 1_000)).toEqual({ go: true });
	});
});
