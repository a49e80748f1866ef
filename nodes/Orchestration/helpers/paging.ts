/**
 * Offset paging of the partner listings (public-notes: every list pages with `limit` + `offset`
 * and answers `nextOffset`, null on the last page; affiliates up to 1000 a page, claims 200): "Return
 * All" reads every page, otherwise pages until "Limit" items. An answer without `nextOffset` (older
 * services) ends at a short page.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { ProtocolError } from '../../shared/errors';
import { ItemError } from '../../n8n/errors';
import { getNodeParameter } from '../../n8n/items';
import { nextPageAfter, type PageRequest } from '../../shared/orchestration/partnerPlan';
import { orchestrationApiRequest } from '../transport';

export interface Listing {
	path: string;
	/** The array member of each page's answer. */
	member: string;
	pageMax: number;
	qs?: IDataObject;
	hints?: Record<string, string>;
	/** The row of a path the user set (orchestrationApiRequest's `endpoint`). */
	endpoint?: string;
	/** Every item, whatever the item's Return All / Limit say (a lookup through a listing). */
	all?: boolean;
	/** Stops reading further pages once an item matches (the items read so far are returned). */
	until?: (item: IDataObject) => boolean;
}

/** The items "Return All" / "Limit" ask for, page by page. */
export async function readPages(
	ctx: IExecuteFunctions,
	i: number,
	listing: Listing,
): Promise<IDataObject[]> {
	const returnAll = listing.all === true || getNodeParameter(ctx, 'returnAll', i, false) === true;
	const wanted = returnAll
		? undefined
		: Math.max(1, Number(getNodeParameter(ctx, 'limit', i, 50)) || 50);
	const out: IDataObject[] = [];
	let page: PageRequest | undefined = {
		limit: wanted === undefined ? listing.pageMax : Math.min(listing.pageMax, wanted),
		offset: 0,
	};
	while (page !== undefined) {
		const res = await orchestrationApiRequest.call(ctx, 'GET', listing.path, undefined, {
			qs: { ...listing.qs, limit: page.limit, offset: page.offset },
			itemIndex: i,
			hints: listing.hints,
			endpoint: listing.endpoint,
		});
		const list = res.body?.[listing.member];
		if (!Array.isArray(list)) {
			throw new ItemError(ctx.getNode(), `The answer has no "${listing.member}" list`, {
				itemIndex: i,
			});
		}
		out.push(...(list as IDataObject[]));
		if (listing.until !== undefined && (list as IDataObject[]).some(listing.until)) break;
		page = nextOf(ctx, i, listing, {
			wanted,
			pageMax: listing.pageMax,
			page,
			received: out.length,
			pageLength: list.length,
			nextOffset: res.body?.nextOffset,
		});
	}
	return wanted === undefined ? out : out.slice(0, wanted);
}

/**
 * The next page, or the listing's broken paging as the item's error: it names the path, not a field
 * of the item (a Return All that cannot be honoured stays the item's "returnAll").
 */
function nextOf(
	ctx: IExecuteFunctions,
	i: number,
	listing: Listing,
	progress: Parameters<typeof nextPageAfter>[0],
): PageRequest | undefined {
	let problem: unknown;
	try {
		return nextPageAfter(progress);
	} catch (error) {
		problem = error;
	}
	if (!(problem instanceof ProtocolError) || problem.field === 'returnAll') throw problem;
	throw new ItemError(
		ctx.getNode(),
		`The listing ${listing.path} cannot be paged: "${problem.field}" ${problem.message}`,
		{
			itemIndex: i,
			description:
				'The service answered a page that does not lead to the next one. Set a "Limit" to read fewer items, or ask the service operator.',
		},
	);
}
