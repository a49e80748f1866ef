/** accumulationAddress.get (deprecated): GET /v1/accumulation-addresses/{id} (orchestration-service.md §2.4, §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';

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

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const id = read.pathSegment('accumulationAddressId');
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'GET',
		path: `/v1/accumulation-addresses/${id}`,
		itemIndex: read.itemIndex,
	});
	return res.body;
}
