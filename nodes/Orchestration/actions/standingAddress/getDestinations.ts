/** standingAddress.getDestinations: GET /v1/standing-deposit-addresses/destinations, one item per destination (public-notes). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { STANDING_PATH } from '../../../shared/orchestration/partnerPlan';
import { limitField, returnAllField, showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';

const show = showFor('standingAddress', ['getDestinations']);

export const description: INodeProperties[] = [returnAllField(show), limitField(show)];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject[]> {
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'GET',
		path: `${STANDING_PATH}/destinations`,
		itemIndex: read.itemIndex,
	});
	return read.listOf(res.body, 'destinations');
}
