/** affiliate.getAll: GET /v1/affiliates, one item per affiliate profile (orchestration-service.md §2.7, §4.5). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { limitField, returnAllField, showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { orchestrationRequest } from '../../service';
import type { OperationEnv } from '../types';

const show = showFor('affiliate', ['getAll']);

export const description: INodeProperties[] = [returnAllField(show), limitField(show)];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, { access }: OperationEnv): Promise<IDataObject[]> {
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'GET',
		path: '/v1/affiliates',
		itemIndex: read.itemIndex,
		requiredScope: 'affiliates:read',
	});
	return read.listOf(res.body, 'affiliates');
}
