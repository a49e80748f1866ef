/**
 * Endpoint registration (spec §6: POST /v1/webhooks {url} -> {webhookId, secret}, secret shown
 * once). The registration lives in the node's static data and is reused for the same URL, so
 * activating, publishing or restarting never piles up endpoints. The spec has no delete endpoint:
 * endpoints are removed in the partner dashboard (public-notes).
 */
import { NodeOperationError, type IDataObject, type IHookFunctions } from 'n8n-workflow';
import { deriveIdempotencyKey } from '../shared/orchestration/idempotency';
import { WebhookCreateResponseSchema } from '../shared/orchestration/schemas';
import { callService, joinUrl } from '../transport/request';

export const CREDENTIAL_TYPE = 'orchestrationServerApi';
export const WEBHOOK_NAME = 'default';

export type RegistrationMode = 'automatic' | 'existingEndpoint';

/** Members of the node's static data that describe the registration. */
export interface StoredRegistration {
	webhookId: string;
	secret: string;
	url: string;
	baseUrl: string;
	registeredAt: string;
}

export function registrationModeOf(value: unknown): RegistrationMode {
	return value === 'existingEndpoint' ? 'existingEndpoint' : 'automatic';
}

export function storedRegistration(staticData: IDataObject): StoredRegistration | undefined {
	const { webhookId, secret, url, baseUrl, registeredAt } = staticData;
	if (typeof webhookId !== 'string' || webhookId === '') return undefined;
	if (typeof secret !== 'string' || secret === '') return undefined;
	if (typeof url !== 'string' || typeof baseUrl !== 'string') return undefined;
	return { webhookId, secret, url, baseUrl, registeredAt: typeof registeredAt === 'string' ? registeredAt : '' };
}

function normalizedBaseUrl(value: unknown): string {
	return joinUrl(value, '/').replace(/\/$/, '');
}

function webhookUrlOf(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl(WEBHOOK_NAME);
	if (!url) throw new NodeOperationError(ctx.getNode(), 'n8n did not provide a webhook URL for this node');
	return url;
}

/**
 * Same workflow, node and URL -> same key, so a retried or repeated registration is replayed by
 * the service instead of creating a second endpoint (spec §4 idempotency; public-notes).
 */
export function registrationIdempotencyKey(workflowId: string | undefined, nodeId: string, url: string): string {
	return deriveIdempotencyKey({
		workflowId,
		nodeName: nodeId,
		itemIndex: 0,
		operation: 'webhooks.create',
		body: { url },
	});
}

/** checkExists: true when a stored registration is for this URL and this service. */
export async function registrationExists(this: IHookFunctions): Promise<boolean> {
	if (registrationModeOf(this.getNodeParameter('registration', 'automatic')) === 'existingEndpoint') return true;
	const stored = storedRegistration(this.getWorkflowStaticData('node'));
	if (!stored) return false;
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	return stored.url === webhookUrlOf(this) && stored.baseUrl === normalizedBaseUrl(credentials.baseUrl);
}

/** create: registers this node's URL and keeps webhookId and secret in static data only. */
export async function createRegistration(this: IHookFunctions): Promise<boolean> {
	if (registrationModeOf(this.getNodeParameter('registration', 'automatic')) === 'existingEndpoint') return true;
	const url = webhookUrlOf(this);
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = normalizedBaseUrl(credentials.baseUrl);
	const response = await callService.call(this, {
		credentialType: CREDENTIAL_TYPE,
		method: 'POST',
		url: joinUrl(baseUrl, '/v1/webhooks'),
		body: { url },
		idempotencyKey: registrationIdempotencyKey(this.getWorkflow().id, this.getNode().id, url),
	});
	const parsed = WebhookCreateResponseSchema.safeParse(response.body);
	if (!parsed.success) {
		// The issues name fields only; the body itself may hold the secret and is never echoed.
		const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(root)'))].join(', ');
		throw new NodeOperationError(this.getNode(), 'The service answered POST /v1/webhooks without a usable webhookId and secret', {
			description: `Missing or invalid: ${fields}. No endpoint was stored; activate again to retry.`,
		});
	}
	const staticData = this.getWorkflowStaticData('node');
	const registration: StoredRegistration = {
		webhookId: parsed.data.webhookId,
		secret: parsed.data.secret,
		url,
		baseUrl,
		registeredAt: new Date().toISOString(),
	};
	Object.assign(staticData, registration);
	return true;
}

/**
 * delete: the service has no delete endpoint (public-notes), so the registration stays stored and
 * the next activation for the same URL reuses it; the endpoint is removed in the partner dashboard.
 */
export async function deleteRegistration(this: IHookFunctions): Promise<boolean> {
	return true;
}
