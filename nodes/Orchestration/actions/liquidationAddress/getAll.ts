/** liquidationAddress.getAll (deprecated): GET /v1/liquidation-addresses, one item per address (orchestration-service.md §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { limitField, returnAllField, showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import type { OperationEnv } from '../types';

const show = showFor('liquidationAddress', ['getAll']);

export const description: INodeProperties[] = [returnAllField(show), limitField(show)];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, { service }: OperationEnv): Promise<IDataObject[]> {
	const res = await service.request<IDataObject>({
		method: 'GET',
		path: '/v1/liquidation-addresses',
	});
	return read.listOf(res.body, 'liquidationAddresses');
}
