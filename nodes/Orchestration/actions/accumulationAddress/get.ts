/** accumulationAddress.get (deprecated): GET /v1/accumulation-addresses/{id} (orchestration-service.md §2.4, §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { showFor } from '../../helpers/fields';
import { pathParam } from '../../helpers/params';
import { orchestrationRequest } from '../../helpers/request';
import type { OperationEnv } from '../types';

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

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const id = pathParam(this, 'accumulationAddressId', itemIndex);
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'GET',
		path: `/v1/accumulation-addresses/${id}`,
		itemIndex,
	});
	return res.body;
}
