/** route.getAll: GET /v2/orchestration/routes (orchestration-service.md §4.3), the cached listing filtered here; tokenized equities only on request (§1, §9). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { getNodeParameter, limitedList } from '../../../n8n/items';
import { isTokenizedEquity } from '../../../shared/orchestration/enums';
import type { RouteAsset } from '../../../shared/orchestration/responseSchemas';
import type { RouteList, RoutesCatalogue } from '../../../shared/orchestration/routesCatalogue';
import { filtersCollection, limitField, returnAllField, showFor } from '../common.descriptions';
import { catalogueFor } from '../../helpers/routes';

const show = showFor('route', ['getAll']);

export const description: INodeProperties[] = [
	returnAllField(show),
	limitField(show),
	filtersCollection(show, [
		{
			displayName: 'Asset',
			name: 'asset',
			type: 'string',
			default: '',
			placeholder: 'USDC',
			description: 'Only this asset: a symbol (on any chain) or a routing key such as base:USDC',
		},
		{
			displayName: 'Chain Name or ID',
			name: 'chain',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getSourceChains' },
			default: '',
			description:
				'Only assets on this chain. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Include Tokenized Equities',
			name: 'includeTokenizedEquities',
			type: 'boolean',
			default: false,
			description:
				'Whether to include reviewed tokenized-equity assets (shown only to admitted partners)',
		},
		{
			displayName: 'Reachable Destination Name or ID',
			name: 'reachableDestination',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getAssetRoutingKeys' },
			default: '',
			description:
				'Only assets that can reach this destination. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Supports',
			name: 'supports',
			type: 'multiOptions',
			options: [
				{ name: 'Exact Out', value: 'exactOut' },
				{ name: 'Fixed Delivery', value: 'fixed' },
			],
			default: [],
			description: 'Only assets with at least one destination in these modes',
		},
	]),
];

export interface RouteFilter {
	chain?: string;
	/** A symbol or routing key; matched case-insensitively against asset, display symbol and id. */
	asset?: string;
	/** Routing key the asset must reach (in the plain `route.to` list). */
	reachableDestination?: string;
	supportsExactOut?: boolean;
	supportsFixed?: boolean;
	includeTokenizedEquities?: boolean;
}

/** Filters the listing; tokenized equities only when asked for (§1, §9: admission only). */
export function filterRoutes(catalogue: RoutesCatalogue, filter: RouteFilter): RouteAsset[] {
	const asset = filter.asset?.trim().toLowerCase();
	const destination = filter.reachableDestination?.trim();
	const source = filter.chain ? catalogue.entriesOnChain(filter.chain) : catalogue.assets;
	return source.filter((a) => {
		if (!filter.includeTokenizedEquities && isTokenizedEquity(a.asset)) return false;
		if (
			asset &&
			a.asset.toLowerCase() !== asset &&
			a.id.toLowerCase() !== asset &&
			a.assetDisplaySymbol?.toLowerCase() !== asset
		) {
			return false;
		}
		if (filter.supportsExactOut && !reachesAny(catalogue, a, 'exactOutTo')) return false;
		if (filter.supportsFixed && !reachesAny(catalogue, a, 'fixedTo')) return false;
		if (destination && !catalogue.reaches(a, destination, 'to')) return false;
		return true;
	});
}

/** Whether a route set names any destination: "all", {except: [...]} or a non-empty array. */
function reachesAny(catalogue: RoutesCatalogue, source: RouteAsset, list: RouteList): boolean {
	const set = catalogue.targets(source, list);
	return set.all || set.only.size > 0;
}

export function routeFilterFrom(filters: IDataObject): RouteFilter {
	const supports = Array.isArray(filters.supports) ? (filters.supports as string[]) : [];
	const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
	return {
		chain: str(filters.chain),
		asset: str(filters.asset),
		reachableDestination: str(filters.reachableDestination),
		supportsExactOut: supports.includes('exactOut'),
		supportsFixed: supports.includes('fixed'),
		includeTokenizedEquities: filters.includeTokenizedEquities === true,
	};
}

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const filters = getNodeParameter<IDataObject>(this, 'filters', i, {});
	const catalogue = await catalogueFor(this, i, true);
	return limitedList(
		this,
		i,
		filterRoutes(catalogue, routeFilterFrom(filters)) as unknown as IDataObject[],
	);
}
