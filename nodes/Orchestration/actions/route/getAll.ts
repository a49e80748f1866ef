/**
 * route.getAll: GET /v2/orchestration/routes (orchestration-service.md §4.3), one item per asset,
 * filtered here. Shares the cached listing with the dropdowns. Tokenized equities only on request
 * (§1, §9: reviewed equities need explicit admission).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { limitField, returnAllField, showFor } from '../../helpers/fields';
import { limited } from '../../helpers/lists';
import { filterRoutes, type RouteFilter } from '../../helpers/routes';
import { getRoutesCatalogue } from '../../helpers/routesCache';
import type { OperationEnv } from '../types';

const show = showFor('route', ['getAll']);

export const description: INodeProperties[] = [
	returnAllField(show),
	limitField(show),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: show,
		options: [
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
				description: 'Whether to include reviewed tokenized-equity assets (shown only to admitted partners)',
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
		],
	},
];

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

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const catalogue = await getRoutesCatalogue(this, access, itemIndex);
	return limited(this, itemIndex, filterRoutes(catalogue, routeFilterFrom(filters)) as unknown as IDataObject[]);
}
