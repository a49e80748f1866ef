/** standingAddress.getDestinations: GET /v1/standing-deposit-addresses/destinations, one item per destination (public-notes). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { listOf } from '../../../n8n/items';
import { STANDING_PATH } from '../../../shared/orchestration/partnerPlan';
import { limitField, returnAllField, showFor } from '../common.descriptions';
import { orchestrationApiRequest } from '../../transport';

const show = showFor('standingAddress', ['getDestinations']);

export const description: INodeProperties[] = [returnAllField(show), limitField(show)];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const res = await orchestrationApiRequest.call(
		this,
		'GET',
		`${STANDING_PATH}/destinations`,
		undefined,
		{ itemIndex: i },
	);
	return listOf(this, i, res.body, 'destinations');
}
