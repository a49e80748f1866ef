/** A search over dropdown options, one page at a time (the searchable pickers of listSearch.ts). */
import type { INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

/** Results per page of a search. */
export const SEARCH_PAGE_SIZE = 100;

/** The options whose label, value or routing key contain `filter` (any case), one page from `paginationToken`. */
export function searchOptions(
	options: INodePropertyOptions[],
	filter?: string,
	paginationToken?: string,
): INodeListSearchResult {
	const needle = (filter ?? '').trim().toLowerCase();
	const hits =
		needle === ''
			? options
			: options.filter((o) =>
					[o.name, String(o.value), o.description ?? ''].some((t) =>
						t.toLowerCase().includes(needle),
					),
				);
	const start = Number(paginationToken ?? 0) || 0;
	const page = hits.slice(start, start + SEARCH_PAGE_SIZE);
	const results = page.map((o) => ({
		name: o.description ? `${o.name} · ${o.description}` : o.name,
		value: o.value as string,
	}));
	return start + SEARCH_PAGE_SIZE < hits.length
		? { results, paginationToken: String(start + SEARCH_PAGE_SIZE) }
		: { results };
}
