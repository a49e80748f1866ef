/**
 * Endpoint registration (spec §6: POST /v1/webhooks {url} -> {webhookId, secret}, secret shown
 * once). The registration is written to the node's static data at activation only (create), and
 * reused for the same URL, so activating, publishing or restarting never piles up endpoints. The
 * spec has no delete endpoint: endpoints are removed in the partner dashboard (public-notes).
 */
import { randomBytes } from 'node:crypto';
import { NodeOperationError, type IDataObject, type IHookFunctions, type IWebhookFunctions } from 'n8n-workflow';
import { deriveIdempotencyKey } from '../shared/orchestration/idempotency';
import { WebhookCreateResponseSchema } from '../shared/orchestration/schemas';
import { callService, joinUrl } from '../n8n/transport';

export const CREDENTIAL_TYPE = 'orchestrationServerApi';
/** The secret of an existing endpoint, stored encrypted by n8n (version 1.1 on). */
export const SECRET_CREDENTIAL_TYPE = 'orchestrationWebhookSecretApi';
export const WEBHOOK_NAME = 'default';

export type RegistrationMode = 'automatic' | 'existingEndpoint';

/** Members of the node's static data that describe the registration. */
export interface StoredRegistration {
	webhookId: string;
	secret: string;
	url: string;
	baseUrl: string;
	registeredAt: string;
	/** The random part of the registration's idempotency key (rotation after a reset). */
	registrationNonce?: string;
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
 * The nonce makes the key unguessable from the workflow id, node id and URL (no one else can
 * replay the registration and read the secret) and new after a reset (a new endpoint and secret);
 * the same nonce retries the same registration (spec §4 idempotency; public-notes).
 */
export function registrationIdempotencyKey(workflowId: string | undefined, nodeId: string, url: string, nonce: string): string {
	return deriveIdempotencyKey({
		workflowId,
		nodeName: nodeId,
		itemIndex: 0,
		operation: 'webhooks.create',
		body: { url, nonce },
	});
}

/**
 * Nonces of registrations whose answer did not arrive: n8n saves no static data when activation
 * fails, so a retried activation in this process reuses the nonce and the service replays.
 */
const unansweredNonces = new Map<string, string>();

function registrationNonce(attempt: string): string {
	let nonce = unansweredNonces.get(attempt);
	if (nonce === undefined) {
		nonce = randomBytes(16).toString('hex');
		unansweredNonces.set(attempt, nonce);
		if (unansweredNonces.size > 1000) unansweredNonces.delete(unansweredNonces.keys().next().value as string);
	}
	return nonce;
}

/** Written at activation: static data that has it (or a registration) is the workflow's own, not a worker's empty copy. */
const ACTIVATED_FIELD = 'activatedAt';

export function isStoredStaticData(staticData: IDataObject): boolean {
	return storedRegistration(staticData) !== undefined || typeof staticData[ACTIVATED_FIELD] === 'string';
}

/** checkExists: true when a stored registration is for this URL and this service. */
export async function registrationExists(this: IHookFunctions): Promise<boolean> {
	if (registrationModeOf(this.getNodeParameter('registration', 'automatic')) === 'existingEndpoint') {
		// Saved by n8n with the activation (nothing to register for an existing endpoint).
		const staticData = this.getWorkflowStaticData('node');
		if (typeof staticData[ACTIVATED_FIELD] !== 'string') staticData[ACTIVATED_FIELD] = new Date().toISOString();
		return true;
	}
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
	const attempt = JSON.stringify([this.getWorkflow().id, this.getNode().id, url, baseUrl]);
	const nonce = registrationNonce(attempt);
	const response = await callService.call(this, {
		credentialType: CREDENTIAL_TYPE,
		method: 'POST',
		url: joinUrl(baseUrl, '/v1/webhooks'),
		body: { url },
		idempotencyKey: registrationIdempotencyKey(this.getWorkflow().id, this.getNode().id, url, nonce),
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
		registrationNonce: nonce,
	};
	Object.assign(staticData, registration);
	unansweredNonces.delete(attempt);
	return true;
}

/**
 * delete: the service has no delete endpoint (public-notes), so the registration stays stored and
 * the next activation for the same URL reuses it; the endpoint is removed in the partner dashboard.
 */
export async function deleteRegistration(this: IHookFunctions): Promise<boolean> {
	return true;
}

/** A configured value as n8n resolves it, or undefined when it cannot be read (refused later). */
async function settled<T>(read: () => Promise<T> | T): Promise<T | undefined> {
	try {
		return await read();
	} catch {
		return undefined;
	}
}

/**
 * The secret deliveries are verified with, as configured (validated by the delivery handler):
 * the stored registration; or, for an existing endpoint, the credential when one is attached
 * (version 1.1 requires it), else the version 1 parameter.
 */
export async function endpointSecret(
	this: IWebhookFunctions,
	staticData: IDataObject,
): Promise<{ secret: unknown; webhookId?: string }> {
	if (registrationModeOf(this.getNodeParameter('registration', 'automatic')) === 'automatic') {
		const stored = storedRegistration(staticData);
		return { secret: stored?.secret, webhookId: stored?.webhookId };
	}
	if (this.getNode().credentials?.[SECRET_CREDENTIAL_TYPE] !== undefined) {
		const credential = await settled(async () => await this.getCredentials(SECRET_CREDENTIAL_TYPE));
		return { secret: credential?.secret };
	}
	return { secret: await settled(() => this.getNodeParameter('webhookSecret', undefined)) };
}
