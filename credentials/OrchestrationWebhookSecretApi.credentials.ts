import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The secret of a webhook endpoint registered elsewhere (spec 6: returned once by POST /v1/webhooks),
 * and optionally the secret of a recovery subscription to the same URL (public-notes: POST
 * /v1/webhooks/recovery). Kept as a credential so n8n stores them encrypted, outside the workflow
 * JSON. Used by the Orchestration Trigger in "Existing Endpoint" mode to verify deliveries; never sent.
 */
export class OrchestrationWebhookSecretApi implements ICredentialType {
	name = 'orchestrationWebhookSecretApi';

	displayName = 'Orchestration Webhook Secret API';

	icon = {
		light: 'file:../icons/orchestration.svg',
		dark: 'file:../icons/orchestration.dark.svg',
	} as const;

	documentationUrl =
		'https://github.com/n8n-nodes-orchestration/n8n-nodes-orchestration#orchestration-trigger';

	properties: INodeProperties[] = [
		{
			displayName: 'Webhook Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The secret the service returned when the endpoint was registered (shown once). At least 16 characters. It verifies every event but Order Recovery Required.',
		},
		{
			displayName: 'Previous Webhook Secret',
			name: 'previousSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Optional, while a secret is being replaced: the secret of the endpoint being retired. Deliveries signed with either secret are accepted (an event both endpoints deliver runs once). Delete the old endpoint (Orchestration > Webhook > Delete), then clear this field.',
		},
		{
			displayName: 'Recovery Secret',
			name: 'recoverySecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Optional: the secret of a recovery subscription registered for the same URL (POST /v1/webhooks/recovery). It verifies Order Recovery Required deliveries only, which the service sends to recovery subscriptions only. Empty: those deliveries are refused.',
		},
	];
}
