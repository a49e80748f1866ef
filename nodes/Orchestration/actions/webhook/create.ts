/** webhook.create: POST /v1/webhooks {url} (orchestration-service.md §4.6, §6); the answer shows the signing secret once. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { optionsOf, textParameter } from '../../../n8n/items';
import { parseRequest } from '../../../shared/errors';
import { explicitIdempotencyKey } from '../../../shared/orchestration/idempotency';
import { WebhookCreateRequestSchema } from '../../../shared/orchestration/schemas';
import { concurrencyOption, idempotencyKeyProperty, showFor } from '../common.descriptions';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import { idempotencyKeyOption } from '../../helpers/parameters';
import { orchestrationApiRequest } from '../../transport';

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
		idempotencyKeyProperty,
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

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const body: IDataObject = { url: textParameter(this, 'url', i) };
	parseRequest(WebhookCreateRequestSchema, body);
	const explicitKey = explicitIdempotencyKey(idempotencyKeyOption(this, i));
	const idempotencyKey = idempotencyKeyFor(this, i, {
		operation: 'webhook.create',
		body,
		explicitKey,
	});
	const res = await orchestrationApiRequest.call(this, 'POST', '/v1/webhooks', body, {
		idempotencyKey,
		itemIndex: i,
	});
	const { secret, ...rest } = res.body;
	// secrets stay out of outputs unless asked for (the Orchestration Trigger keeps its own)
	if (optionsOf(this, i).outputSecret === true) return res.body;
	return { ...rest, secretIssued: typeof secret === 'string' && secret.length > 0 };
}
