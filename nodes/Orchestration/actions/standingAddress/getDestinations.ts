/** standingAddress.getDestinations: GET /v1/standing-deposit-addresses/destinations, one item per destination (public-notes). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { STANDING_PATH } from '../../../shared/orchestration/partnerPlan';
import { limitField, returnAllField, showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import type { OperationEnv } from '../types';

const show = showFor('standingAddress', ['getDestinations']);

export const description: INodeProperties[] = [returnAllField(show), limitField(show)];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, { service }: OperationEnv): Promise<IDataObject[]> {
	const res = await service.request<IDataObject>({
		method: 'GET',
		path: `${STANDING_PATH}/destinations`,
	});
	return read.listOf(res.body, 'destinations');
}
