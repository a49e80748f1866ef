/**
 * webhook.create: POST /v1/webhooks {url} (orchestration-service.md §4.6, §6). The answer holds the
 * signing secret, shown once: it is passed on so it can be stored (e.g. in the trigger's credential).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { WebhookCreateRequestSchema } from '../../../shared/orchestration/schemas';
import { idempotencyKeyFor } from '../../../transport/idempotency';
import { concurrencyOption, idempotencyKeyOption, optionsCollection, showFor } from '../../helpers/fields';
import { optionsOf, text } from '../../helpers/params';
import { explicitIdempotencyKey } from '../../helpers/quoteInput';
import { orchestrationRequest } from '../../helpers/request';
import { validateRequest } from '../../helpers/validation';
import type { OperationEnv } from '../types';

const show = showFor('webhook', ['create']);

export const description: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com/webhooks/orders',
		description:
			'Endpoint that receives signed order events. The answer contains the signing secret once: store it right away.',
		displayOptions: show,
	},
	optionsCollection(show, [concurrencyOption, idempotencyKeyOption]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const options = optionsOf(this, itemIndex);
	const body: IDataObject = { url: text(this, 'url', itemIndex) };
	validateRequest(this, itemIndex, WebhookCreateRequestSchema, body);
	const explicitKey = explicitIdempotencyKey(this, itemIndex, options);
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'POST',
		path: '/v1/webhooks',
		body,
		idempotencyKey: idempotencyKeyFor(this, itemIndex, 'webhook.create', body, explicitKey),
		itemIndex,
	});
	return res.body;
}
