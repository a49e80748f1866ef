/** affiliate.disable: DELETE /v1/affiliates/{affiliateId} -> {ok: true} (public-notes; server key). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { textParameter } from '../../../n8n/items';
import { affiliatePath } from '../../../shared/orchestration/partnerPlan';
import { showFor } from '../common.descriptions';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import { orchestrationApiRequest } from '../../transport';
import { affiliateIdField } from './shared';

const show = showFor('affiliate', ['disable']);

/** An action: it changes state at the service, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	affiliateIdField(
		show,
		'The affiliate to disable. New quotes cannot name it, it accrues no new fees, and its balance can no longer be claimed (public notes).',
	),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const affiliateId = textParameter(this, 'affiliateId', i);
	const idempotencyKey = idempotencyKeyFor(this, i, {
		operation: 'affiliate.disable',
		body: { affiliateId },
	});
	const res = await orchestrationApiRequest.call(
		this,
		'DELETE',
		affiliatePath(affiliateId),
		undefined,
		{ idempotencyKey, itemIndex: i },
	);
	return { affiliateId, ...res.body };
}
