/** liquidationAddress.get (deprecated): GET /v1/liquidation-addresses/{id} (orchestration-service.md §2.5, §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';

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

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const id = read.pathSegment('liquidationAddressId');
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'GET',
		path: `/v1/liquidation-addresses/${id}`,
		itemIndex: read.itemIndex,
	});
	return res.body;
}
