/** accumulationAddress.get (deprecated): GET /v1/accumulation-addresses/{id} (orchestration-service.md §2.4, §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
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

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, { service }: OperationEnv): Promise<IDataObject> {
	const id = read.pathSegment('accumulationAddressId');
	const res = await service.request<IDataObject>({
		method: 'GET',
		path: `/v1/accumulation-addresses/${id}`,
	});
	return res.body;
}
