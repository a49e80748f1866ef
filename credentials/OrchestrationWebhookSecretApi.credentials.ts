import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The secret of a webhook endpoint registered elsewhere (spec 6: returned once by POST /v1/webhooks).
 * Kept as a credential so n8n stores it encrypted, outside the workflow JSON. Used by the
 * Orchestration Trigger in "Existing Endpoint" mode to verify X-Service-Signature; never sent.
 */
export class OrchestrationWebhookSecretApi implements ICredentialType {
	name = 'orchestrationWebhookSecretApi';

	displayName = 'Orchestration Webhook Secret API';

	icon = { light: 'file:../icons/orchestration.svg', dark: 'file:../icons/orchestration.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-orchestration/n8n-nodes-orchestration#orchestration-trigger';

	properties: INodeProperties[] = [
		{
			displayName: 'Webhook Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The secret the service returned when the endpoint was registered (shown once). At least 16 characters.',
		},
	];
}
