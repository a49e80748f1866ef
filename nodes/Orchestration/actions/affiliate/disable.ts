/** affiliate.disable: DELETE /v1/affiliates/{affiliateId} -> {ok: true} (public-notes; server key). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { affiliatePath } from '../../../shared/orchestration/partnerPlan';
import { showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { idempotencyKeyFor } from '../../idempotencyKey';
import { affiliateIdField } from './shared';

const show = showFor('affiliate', ['disable']);

/** An action: it changes state at the service, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	affiliateIdField(show, 'The affiliate to disable. New quotes cannot name it, it accrues no new fees, and its balance can no longer be claimed (public notes).'),
];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const affiliateId = read.textParameter('affiliateId');
	const path = affiliatePath(affiliateId);
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'DELETE',
		path,
		idempotencyKey: idempotencyKeyFor(read, { operation: 'affiliate.disable', body: { affiliateId } }),
		itemIndex: read.itemIndex,
	});
	return { affiliateId, ...res.body };
}
