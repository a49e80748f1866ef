/**
 * webhook.delete: DELETE /v1/webhooks/{webhookId} disables an endpoint; with "Recovery
 * Subscription", DELETE /v1/webhooks/recovery/{id} (public-notes "Webhooks"; server key,
 * X-Idempotency-Key). The Orchestration Trigger deletes the endpoints it registered by itself.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { webhookPath } from '../../../shared/orchestration/webhookPaths';
import { showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { idempotencyKeyFor } from '../../idempotencyKey';

const show = showFor('webhook', ['delete']);

/** An action: it removes a webhook, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	{
		displayName: 'Webhook ID',
		name: 'webhookId',
		type: 'string',
		required: true,
		default: '',
		description: 'The webhookId returned when the endpoint or recovery subscription was created',
		displayOptions: show,
	},
	{
		displayName: 'Recovery Subscription',
		name: 'recovery',
		type: 'boolean',
		default: false,
		description: 'Whether the ID is of a recovery subscription (order.recovery_required events) rather than an order-event endpoint',
		displayOptions: show,
	},
];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const webhookId = read.textParameter('webhookId');
	const recovery = read.parameter('recovery', false) === true;
	const path = read.checkedField('webhookId', () => webhookPath(webhookId, recovery ? 'recovery' : 'orders'));
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'DELETE',
		path,
		idempotencyKey: idempotencyKeyFor(read, { operation: 'webhook.delete', body: { webhookId, recovery } }),
		itemIndex: read.itemIndex,
	});
	return { webhookId, recovery, ...res.body };
}
