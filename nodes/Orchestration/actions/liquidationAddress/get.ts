/** liquidationAddress.get (deprecated): GET /v1/liquidation-addresses/{id} (orchestration-service.md §2.5, §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { fieldError } from '../../../transport/items';
import { showFor } from '../../helpers/fields';
import { text } from '../../helpers/params';
import { orchestrationRequest } from '../../helpers/request';
import type { OperationEnv } from '../types';

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

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const id = text(this, 'liquidationAddressId', itemIndex);
	if (id === '') throw fieldError(this, itemIndex, 'liquidationAddressId', 'is required');
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'GET',
		path: `/v1/liquidation-addresses/${encodeURIComponent(id)}`,
		itemIndex,
	});
	return res.body;
}
