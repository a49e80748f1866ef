/** webhook.delete: DELETE /v1/webhooks/{webhookId}, or DELETE /v1/webhooks/recovery/{id} for a recovery subscription (public-notes "Webhooks"; server key). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { getNodeParameter, textParameter } from '../../../n8n/items';
import { inField } from '../../../shared/errors';
import { webhookPath } from '../../../shared/orchestration/webhookPaths';
import { showFor } from '../common.descriptions';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import { orchestrationApiRequest } from '../../transport';

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
		description:
			'Whether the ID is of a recovery subscription (order.recovery_required events) rather than an order-event endpoint',
		displayOptions: show,
	},
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const webhookId = textParameter(this, 'webhookId', i);
	const recovery = getNodeParameter(this, 'recovery', i, false) === true;
	const path = inField('webhookId', () => webhookPath(webhookId, recovery ? 'recovery' : 'orders'));
	const idempotencyKey = idempotencyKeyFor(this, i, {
		operation: 'webhook.delete',
		body: { webhookId, recovery },
	});
	const res = await orchestrationApiRequest.call(this, 'DELETE', path, undefined, {
		idempotencyKey,
		itemIndex: i,
	});
	return { webhookId, recovery, ...res.body };
}
