/** liquidationAddress.get (deprecated): GET /v1/liquidation-addresses/{id} (orchestration-service.md §2.5, §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { pathParameter } from '../../../n8n/items';
import { showFor } from '../common.descriptions';
import { orchestrationApiRequest } from '../../transport';

const show = showFor('liquidationAddress', ['get']);

export const description: INodeProperties[] = [
	{
		displayName: 'Liquidation Address ID',
		name: 'liquidationAddressId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show,
	},
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const id = pathParameter(this, 'liquidationAddressId', i);
	const res = await orchestrationApiRequest.call(
		this,
		'GET',
		`/v1/liquidation-addresses/${id}`,
		undefined,
		{ itemIndex: i },
	);
	return res.body;
}
