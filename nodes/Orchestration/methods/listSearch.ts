/**
 * Searchable asset pickers (node version 3): the routes listing holds thousands of assets, so the
 * pickers search it by name, symbol or routing key, with the same route filtering as the dropdowns
 * (loadOptions.ts): destinations are those the chosen source reaches in the chosen mode.
 */
import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { getDestinationAssets, getSourceAssets } from './loadOptions';
import { searchOptions } from './search';

export async function searchSourceAssets(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return searchOptions(await getSourceAssets.call(this), filter, paginationToken);
}

export async function searchDestinationAssets(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return searchOptions(await getDestinationAssets.call(this), filter, paginationToken);
}
