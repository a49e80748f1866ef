/** accumulationAddress.get (deprecated): GET /v1/accumulation-addresses/{id} (orchestration-service.md §2.4, §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { pathParameter } from '../../../n8n/items';
import { showFor } from '../common.descriptions';
import { orchestrationApiRequest } from '../../transport';

const show = showFor('accumulationAddress', ['get']);

export const description: INodeProperties[] = [
	{
		displayName: 'Accumulation Address ID',
		name: 'accumulationAddressId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show,
	},
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const id = pathParameter(this, 'accumulationAddressId', i);
	const res = await orchestrationApiRequest.call(
		this,
		'GET',
		`/v1/accumulation-addresses/${id}`,
		undefined,
		{ itemIndex: i },
	);
	return res.body;
}
