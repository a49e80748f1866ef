/**
 * affiliate.getPayoutDestinations: GET /v1/affiliate-dashboard/payout-destinations, the payout chains
 * and assets live now (public-notes "Affiliate management and claims"; server key): what Create or
 * Update and Claim may name as payoutChain and payoutAsset. One item per destination.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { ItemError } from '../../../n8n/errors';
import { PAYOUT_DESTINATIONS_PATH, payoutDestinationsOf } from '../../../shared/orchestration/partnerPlan';
import { limitField, returnAllField, showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';

const show = showFor('affiliate', ['getPayoutDestinations']);

export const description: INodeProperties[] = [returnAllField(show), limitField(show)];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject[]> {
	const res = await orchestrationRequest<unknown>(read.ctx, access, { method: 'GET', path: PAYOUT_DESTINATIONS_PATH, itemIndex: read.itemIndex });
	const destinations = payoutDestinationsOf(res.body);
	if (destinations === undefined) {
		throw new ItemError(read.ctx.getNode(), 'The answer has no list of payout destinations', {
			itemIndex: read.itemIndex,
			description: `GET ${PAYOUT_DESTINATIONS_PATH} answered without a "destinations" list.`,
		});
	}
	return read.limited(destinations as IDataObject[]);
}
