/** affiliate.disable: DELETE /v1/affiliates/{affiliateId} -> {ok: true} (public-notes; server key). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { affiliatePath } from '../../../shared/orchestration/partnerPlan';
import { showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import type { OperationEnv } from '../types';
import { affiliateIdField } from './shared';

const show = showFor('affiliate', ['disable']);

/** An action: it changes state at the service, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	affiliateIdField(show, 'The affiliate to disable. New quotes cannot name it, it accrues no new fees, and its balance can no longer be claimed (public notes).'),
];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, { service }: OperationEnv): Promise<IDataObject> {
	const affiliateId = read.textParameter('affiliateId');
	const path = read.plan(() => affiliatePath(affiliateId));
	const res = await service.request<IDataObject>({
		method: 'DELETE',
		path,
		idempotencyKey: service.idempotencyKey({ operation: 'affiliate.disable', body: { affiliateId } }),
	});
	return { affiliateId, ...res.body };
}
