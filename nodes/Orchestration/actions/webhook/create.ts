/**
 * webhook.create: POST /v1/webhooks {url} (orchestration-service.md §4.6, §6). The answer holds the
 * signing secret, shown once. Secrets stay out of outputs by default, so it is passed on only when
 * the user asks for it; the Orchestration Trigger registers and keeps its secret by itself.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { optionsCollection } from '../../../n8n/descriptions';
import { parseRequest } from '../../../shared/errors';
import { explicitIdempotencyKey } from '../../../shared/orchestration/idempotency';
import { WebhookCreateRequestSchema } from '../../../shared/orchestration/schemas';
import { concurrencyOption, idempotencyKeyOption, showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { idempotencyKeyFor } from '../../idempotencyKey';

const show = showFor('webhook', ['create']);

/** An action: it registers a webhook and shows its secret, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

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
	{
		displayName:
			'The service shows the signing secret only once. It is left out of the output unless "Output Signing Secret" is on; the Orchestration Trigger node registers its own endpoint and keeps the secret for you.',
		name: 'secretNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	optionsCollection(show, [
		concurrencyOption,
		idempotencyKeyOption,
		{
			displayName: 'Output Signing Secret',
			name: 'outputSecret',
			type: 'boolean',
			default: false,
			description:
				'Whether to include the signing secret in the output so a later step can store it. It is shown once and lands in the execution data when on.',
		},
	]),
];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const body: IDataObject = { url: read.textParameter('url') };
	parseRequest(WebhookCreateRequestSchema, body);
	const explicitKey = explicitIdempotencyKey(read.idempotencyKey());
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'POST',
		path: '/v1/webhooks',
		body,
		idempotencyKey: idempotencyKeyFor(read, { operation: 'webhook.create', body, explicitKey }),
		itemIndex: read.itemIndex,
	});
	const { secret, ...rest } = res.body;
	if (read.options.outputSecret === true) return res.body;
	return { ...rest, secretIssued: typeof secret === 'string' && secret.length > 0 };
}
