/** route.getLimits: GET /v1/orchestration/limits, public, optional route filters (public-notes.md). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { getNodeParameter, textOption } from '../../../n8n/items';
import { normalizeAssetInput } from '../../../shared/orchestration/enums';
import { withoutBlanks } from '../../../shared/orchestration/quotePlan';
import { filtersCollection, showFor } from '../common.descriptions';
import { orchestrationApiRequest } from '../../transport';

const show = showFor('route', ['getLimits']);

const chainFilter = (name: string, displayName: string): INodeProperties => ({
	displayName,
	name,
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getSourceChains' },
	default: '',
	description:
		'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
});

export const description: INodeProperties[] = [
	filtersCollection(show, [
		{
			displayName: 'Destination Asset',
			name: 'destinationAsset',
			type: 'string',
			default: '',
			placeholder: 'USDC',
		},
		chainFilter('destinationChain', 'Destination Chain Name or ID'),
		{
			displayName: 'Source Asset',
			name: 'sourceAsset',
			type: 'string',
			default: '',
			placeholder: 'BTC',
		},
		chainFilter('sourceChain', 'Source Chain Name or ID'),
	]),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const filters = getNodeParameter<IDataObject>(this, 'filters', i, {});
	// filters reach the query string: text only, never "[object Object]"
	const filter = (name: string) => textOption(filters, name, `filters.${name}`);
	const asset = (name: string) => {
		const value = filter(name);
		return value === undefined ? undefined : normalizeAssetInput(value);
	};
	const qs = withoutBlanks({
		sourceChain: filter('sourceChain'),
		sourceAsset: asset('sourceAsset'),
		destinationChain: filter('destinationChain'),
		destinationAsset: asset('destinationAsset'),
	}) as IDataObject;
	const res = await orchestrationApiRequest.call(
		this,
		'GET',
		'/v1/orchestration/limits',
		undefined,
		{ qs, itemIndex: i },
	);
	return res.body;
}
