/** standingAddress.get: GET /v1/standing-deposit-addresses/{ref}, the answer passed through (public-notes). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { STANDING_PATH, referenceSegment } from '../../../shared/orchestration/partnerPlan';
import { showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { referenceField } from './createOrGet';

const show = showFor('standingAddress', ['get']);

export const description: INodeProperties[] = [referenceField(show)];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const reference = read.textParameter('reference');
	const segment = referenceSegment(reference);
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'GET',
		path: `${STANDING_PATH}/${segment}`,
		itemIndex: read.itemIndex,
	});
	return { reference, ...res.body };
}
