/** Searchable pickers (node version 3): the routes listing's assets, filtered as the dropdowns are, and the partner's affiliates (GET /v1/affiliates, §4.5). */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { orchestrationApiRequest } from '../transport';
import { getDestinationAssets, getSourceAssets } from './loadOptions';
import { searchOptions } from './search';

export async function searchSourceAssets(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return searchOptions(await getSourceAssets.call(this), filter, paginationToken);
}

export async function searchDestinationAssets(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return searchOptions(await getDestinationAssets.call(this), filter, paginationToken);
}

/** The partner's enabled affiliates (§2.7), labelled with their fee, searched by ID or payout. */
export async function searchAffiliates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const res = await orchestrationApiRequest.call(this, 'GET', '/v1/affiliates');
	const options = ((res.body?.affiliates as IDataObject[] | undefined) ?? [])
		.filter((a) => a.enabled !== false && typeof a.affiliateId === 'string')
		.map((a) => ({
			name: `${String(a.affiliateId)} (${String(a.feeBps)} bps)`,
			value: String(a.affiliateId),
			description: `${String(a.payoutChain)}:${String(a.payoutAsset)}`,
		}));
	return searchOptions(options, filter, paginationToken);
}
