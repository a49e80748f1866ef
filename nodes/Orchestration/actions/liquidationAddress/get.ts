/** liquidationAddress.get (deprecated): GET /v1/liquidation-addresses/{id} (orchestration-service.md §2.5, §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
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

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, { service }: OperationEnv): Promise<IDataObject> {
	const id = read.pathSegment('liquidationAddressId');
	const res = await service.request<IDataObject>({
		method: 'GET',
		path: `/v1/liquidation-addresses/${id}`,
	});
	return res.body;
}
