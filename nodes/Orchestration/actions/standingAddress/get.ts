/** standingAddress.get: GET /v1/standing-deposit-addresses/{ref}, the answer passed through (public-notes). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { textParameter } from '../../../n8n/items';
import { STANDING_PATH, referenceSegment } from '../../../shared/orchestration/partnerPlan';
import { showFor } from '../common.descriptions';
import { orchestrationApiRequest } from '../../transport';
import { referenceField } from './createOrGet';

const show = showFor('standingAddress', ['get']);

export const description: INodeProperties[] = [referenceField(show)];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const reference = textParameter(this, 'reference', i);
	const res = await orchestrationApiRequest.call(
		this,
		'GET',
		`${STANDING_PATH}/${referenceSegment(reference)}`,
		undefined,
		{ itemIndex: i },
	);
	return { reference, ...res.body };
}
