/**
 * Offset paging of the partner listings (public-notes: GET /v1/affiliates `limit` <= 1000,
 * GET /v1/affiliates/{id}/claims `limit` <= 200, both with `offset`): "Return All" reads every
 * page, otherwise pages until "Limit" items.
 */
import { NodeOperationError, type IDataObject } from 'n8n-workflow';
import { nextPage } from '../shared/orchestration/partnerPlan';
import type { OrchestrationReader } from './itemReader';
import { orchestrationRequest, type ServiceAccess } from './service';

export interface Listing {
	path: string;
	/** The array member of each page's answer. */
	member: string;
	pageMax: number;
	qs?: IDataObject;
	requiredScope?: string;
}

/** The items "Return All" / "Limit" ask for, page by page. */
export async function readPages(read: OrchestrationReader, access: ServiceAccess, listing: Listing): Promise<IDataObject[]> {
	const wanted = read.parameter('returnAll', false) === true ? undefined : Math.max(1, Number(read.parameter('limit', 50)) || 50);
	const out: IDataObject[] = [];
	let page = nextPage(wanted, listing.pageMax, 0);
	while (page !== undefined) {
		const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
			method: 'GET',
			path: listing.path,
			qs: { ...listing.qs, limit: page.limit, offset: page.offset },
			itemIndex: read.itemIndex,
			requiredScope: listing.requiredScope,
		});
		const list = res.body?.[listing.member];
		if (!Array.isArray(list)) {
			throw new NodeOperationError(read.ctx.getNode(), `The answer has no "${listing.member}" list`, { itemIndex: read.itemIndex });
		}
		out.push(...(list as IDataObject[]));
		page = nextPage(wanted, listing.pageMax, out.length, list.length < page.limit);
	}
	return wanted === undefined ? out : out.slice(0, wanted);
}
