/** liquidationAddress.getAll (deprecated): GET /v1/liquidation-addresses, one item per address (orchestration-service.md §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { limitField, returnAllField, showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';

const show = showFor('liquidationAddress', ['getAll']);

export const description: INodeProperties[] = [returnAllField(show), limitField(show)];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject[]> {
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'GET',
		path: '/v1/liquidation-addresses',
		itemIndex: read.itemIndex,
	});
	return read.listOf(res.body, 'liquidationAddresses');
}
