/** affiliate.getPayoutDestinations: GET /v1/affiliate-dashboard/payout-destinations, what Create or Update and Claim may name (public-notes; server key). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ItemError } from '../../../n8n/errors';
import { limitedList } from '../../../n8n/items';
import {
	PAYOUT_DESTINATIONS_PATH,
	payoutDestinationsOf,
} from '../../../shared/orchestration/partnerPlan';
import { limitField, returnAllField, showFor } from '../common.descriptions';
import { orchestrationApiRequest } from '../../transport';

const show = showFor('affiliate', ['getPayoutDestinations']);

export const description: INodeProperties[] = [returnAllField(show), limitField(show)];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const res = await orchestrationApiRequest.call(this, 'GET', PAYOUT_DESTINATIONS_PATH, undefined, {
		itemIndex: i,
	});
	const destinations = payoutDestinationsOf(res.body);
	if (destinations === undefined) {
		throw new ItemError(this.getNode(), 'The answer has no list of payout destinations', {
			itemIndex: i,
			description: `GET ${PAYOUT_DESTINATIONS_PATH} answered without a "destinations" list.`,
		});
	}
	return limitedList(this, i, destinations as IDataObject[]);
}
