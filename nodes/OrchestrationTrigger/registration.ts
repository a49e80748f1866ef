/**
 * Endpoint registration (spec §6: POST /v1/webhooks {url} -> {webhookId, secret}, secret shown
 * once), and the recovery subscription (public-notes: POST /v1/webhooks/recovery {url}, the same
 * answer; unconfirmed by the spec) when order.recovery_required can start a run. Both are written
 * to the node's static data and to this process's memory, and reused for the same workflow, node,
 * URL and service, so repeated activations and test events never pile up endpoints.
 * n8n's `delete` keeps the production endpoint (deactivation, re-publishing and updates look the
 * same to a trigger; see keepsEndpoint): deliveries in between are answered 404 by n8n and retried
 * by the service. It is deleted (DELETE /v1/webhooks/{id}, DELETE /v1/webhooks/recovery/{id},
 * public-notes) only when "Keep Endpoint Registered" is set off; a test event's endpoint is deleted
 * after the test from version 1.2 on.
 */
import { randomBytes } from 'node:crypto';
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { deriveIdempotencyKey } from '../shared/orchestration/idempotency';
import { WebhookCreateResponseSchema } from '../shared/orchestration/responseSchemas';
import {
	RECOVERY_EVENT,
	webhookCreatePath,
	webhookPath,
	type SubscriptionKind,
} from '../shared/orchestration/webhookPaths';
import { errorCodeOf, ItemError } from '../n8n/errors';
import { baseUrlOf, isLoopbackHost } from '../shared/secureUrl';
import { orchestrationApiRequest, SERVER_CREDENTIAL } from '../Orchestration/transport';
import { ALL_EVENTS } from './events';

export const CREDENTIAL_TYPE = SERVER_CREDENTIAL;
/** The secret of an existing endpoint, stored encrypted by n8n (version 1.1 on). */
export const SECRET_CREDENTIAL_TYPE = 'orchestrationWebhookSecretApi';
export const WEBHOOK_NAME = 'default';

export type RegistrationMode = 'automatic' | 'existingEndpoint';

/** One subscription as the service answered its creation. */
export interface Subscription {
	webhookId: string;
	secret: string;
}

/** Members of the node's static data that describe the registration. */
export interface StoredRegistration {
	webhookId: string;
	secret: string;
	url: string;
	baseUrl: string;
	registeredAt: string;
	/** The random part of the registration's idempotency key (rotation after a reset). */
	registrationNonce?: string;
	/** The recovery subscription to the same URL, when order.recovery_required can start a run. */
	recoveryWebhookId?: string;
	recoverySecret?: string;
	/** Registered for the test URL ("Listen for test event"): deleted after the test unless kept. */
	forTestUrl?: boolean;
}

const STORED_FIELDS = [
	'webhookId',
	'secret',
	'url',
	'baseUrl',
	'registeredAt',
	'registrationNonce',
	'recoveryWebhookId',
	'recoverySecret',
	'forTestUrl',
] as const;

export function registrationModeOf(value: unknown): RegistrationMode {
	return value === 'existingEndpoint' ? 'existingEndpoint' : 'automatic';
}

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value !== '' ? value : undefined;

export function storedRegistration(staticData: IDataObject): StoredRegistration | undefined {
	const { webhookId, secret, url, baseUrl, registeredAt } = staticData;
	if (typeof webhookId !== 'string' || webhookId === '') return undefined;
	if (typeof secret !== 'string' || secret === '') return undefined;
	if (typeof url !== 'string' || typeof baseUrl !== 'string') return undefined;
	const recoveryWebhookId = text(staticData.recoveryWebhookId);
	const recoverySecret = text(staticData.recoverySecret);
	const recovery = recoveryWebhookId && recoverySecret ? { recoveryWebhookId, recoverySecret } : {};
	const test = staticData.forTestUrl === true ? { forTestUrl: true } : {};
	return {
		webhookId,
		secret,
		url,
		baseUrl,
		registeredAt: typeof registeredAt === 'string' ? registeredAt : '',
		...recovery,
		...test,
	};
}

function webhookUrlOf(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl(WEBHOOK_NAME);
	if (!url) throw new ItemError(ctx.getNode(), 'n8n did not provide a webhook URL for this node');
	return url;
}

function hostOf(url: string): string | undefined {
	try {
		return new URL(url).hostname;
	} catch {
		return undefined;
	}
}

/**
 * A webhook URL on this machine (localhost, 127.0.0.0/8, ::1) cannot be reached by a
 * service elsewhere; registering it would only pile up failing deliveries. Undefined when fine
 * (both on this machine, as with the sandbox, or a URL another machine can reach).
 */
export function unreachableWebhookUrl(webhookUrl: string, baseUrl: string): string | undefined {
	const hook = hostOf(webhookUrl);
	const service = hostOf(baseUrl);
	if (
		hook === undefined ||
		service === undefined ||
		!isLoopbackHost(hook) ||
		isLoopbackHost(service)
	)
		return undefined;
	return `n8n's webhook URL (${webhookUrl}) points to this machine, which the service at ${service} cannot reach`;
}

/** Whether order.recovery_required can start a run (selected, or All Events / none selected); `explicit` when selected by name. */
export function recoveryWanted(events: unknown): { wanted: boolean; explicit: boolean } {
	if (!Array.isArray(events)) return { wanted: false, explicit: false };
	const explicit = events.includes(RECOVERY_EVENT);
	return { wanted: explicit || events.length === 0 || events.includes(ALL_EVENTS), explicit };
}

/**
 * The nonce makes the key unguessable from the workflow id, node id and URL (no one else can
 * replay the registration and read the secret) and new after a reset (a new endpoint and secret);
 * the same nonce retries the same registration (spec §4 idempotency; public-notes).
 */
export function registrationIdempotencyKey(
	endpoint: { workflowId: string | undefined; nodeId: string; url: string },
	nonce: string,
	kind: SubscriptionKind = 'orders',
): string {
	const { workflowId, nodeId, url } = endpoint;
	return deriveIdempotencyKey({
		workflowId,
		nodeName: nodeId,
		itemIndex: 0,
		operation: kind === 'recovery' ? 'webhooks.recovery.create' : 'webhooks.create',
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
		if (unansweredNonces.size > 1000)
			unansweredNonces.delete(unansweredNonces.keys().next().value as string);
	}
	return nonce;
}

/**
 * Test registrations this process made, per workflow, node, URL and service. A test
 * event's static data is not saved by n8n, so a kept test registration is found here on the next
 * test (production registrations live in the static data n8n saves).
 */
const knownRegistrations = new Map<string, StoredRegistration>();

function registrationKey(ctx: IHookFunctions, url: string, baseUrl: string): string {
	return JSON.stringify([ctx.getWorkflow().id, ctx.getNode().id, url, baseUrl]);
}

/** Forgets this process's registrations (tests). */
export function forgetKnownRegistrations(): void {
	knownRegistrations.clear();
}

/** Written at activation: static data that has it (or a registration) is the workflow's own, not a worker's empty copy. */
const ACTIVATED_FIELD = 'activatedAt';

export function isStoredStaticData(staticData: IDataObject): boolean {
	return (
		storedRegistration(staticData) !== undefined || typeof staticData[ACTIVATED_FIELD] === 'string'
	);
}

/** The stored registration for this URL and service: from static data, else from this process's memory. */
function reusableRegistration(
	ctx: IHookFunctions,
	url: string,
	baseUrl: string,
): StoredRegistration | undefined {
	const stored = storedRegistration(ctx.getWorkflowStaticData('node'));
	if (stored && stored.url === url && stored.baseUrl === baseUrl) return stored;
	return knownRegistrations.get(registrationKey(ctx, url, baseUrl));
}

/** checkExists: true when a stored registration is for this URL and this service (and has the recovery subscription it needs). */
export async function registrationExists(this: IHookFunctions): Promise<boolean> {
	if (
		registrationModeOf(this.getNodeParameter('registration', 'automatic')) === 'existingEndpoint'
	) {
		// Saved by n8n with the activation (nothing to register for an existing endpoint).
		const staticData = this.getWorkflowStaticData('node');
		if (typeof staticData[ACTIVATED_FIELD] !== 'string')
			staticData[ACTIVATED_FIELD] = new Date().toISOString();
		return true;
	}
	const stored = storedRegistration(this.getWorkflowStaticData('node'));
	if (!stored) return false;
	if (
		recoveryWanted(this.getNodeParameter('events', [])).wanted &&
		stored.recoveryWebhookId === undefined
	)
		return false;
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	return stored.url === webhookUrlOf(this) && stored.baseUrl === baseUrlOf(credentials.baseUrl);
}

/** POST /v1/webhooks or /v1/webhooks/recovery {url}: the new subscription, checked; the answer is never echoed. */
async function subscribe(
	ctx: IHookFunctions,
	kind: SubscriptionKind,
	url: string,
	baseUrl: string,
): Promise<Subscription & { nonce: string }> {
	const attempt = JSON.stringify([ctx.getWorkflow().id, ctx.getNode().id, url, baseUrl, kind]);
	const nonce = registrationNonce(attempt);
	const path = webhookCreatePath(kind);
	const response = await orchestrationApiRequest.call(
		ctx,
		'POST',
		path,
		{ url },
		{
			baseUrl,
			idempotencyKey: registrationIdempotencyKey(
				{ workflowId: ctx.getWorkflow().id, nodeId: ctx.getNode().id, url },
				nonce,
				kind,
			),
		},
	);
	const parsed = WebhookCreateResponseSchema.safeParse(response.body);
	if (!parsed.success) {
		// The issues name fields only; the body itself may hold the secret and is never echoed.
		const fields = [
			...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(root)')),
		].join(', ');
		throw new ItemError(
			ctx.getNode(),
			`The service answered POST ${path} without a usable webhookId and secret`,
			{
				description: `Missing or invalid: ${fields}. No endpoint was stored; activate again to retry.`,
			},
		);
	}
	unansweredNonces.delete(attempt);
	return { webhookId: parsed.data.webhookId, secret: parsed.data.secret, nonce };
}

/**
 * The recovery subscription when order.recovery_required can start a run. Selected by name, a
 * failure fails the activation; wanted only through All Events, it is logged and the trigger runs
 * without it (its path is taken from public docs, unconfirmed: it must not break every trigger).
 */
async function recoverySubscription(
	ctx: IHookFunctions,
	url: string,
	baseUrl: string,
): Promise<Subscription | undefined> {
	const { wanted, explicit } = recoveryWanted(ctx.getNodeParameter('events', []));
	if (!wanted) return undefined;
	if (explicit) return await subscribe(ctx, 'recovery', url, baseUrl);
	try {
		return await subscribe(ctx, 'recovery', url, baseUrl);
	} catch (error) {
		ctx.logger.warn(
			'Orchestration Trigger: no recovery subscription (order.recovery_required) was registered',
			{
				workflowId: ctx.getWorkflow().id,
				node: ctx.getNode().name,
				reason: (error as Error).message,
			},
		);
		return undefined;
	}
}

/** create: registers this node's URL (and its recovery subscription) unless a registration for it is known, keeps webhookIds and secrets. */
export async function createRegistration(this: IHookFunctions): Promise<boolean> {
	if (registrationModeOf(this.getNodeParameter('registration', 'automatic')) === 'existingEndpoint')
		return true;
	const url = webhookUrlOf(this);
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = baseUrlOf(credentials.baseUrl);
	const unreachable = unreachableWebhookUrl(url, baseUrl);
	if (unreachable !== undefined) {
		throw new ItemError(this.getNode(), `Not registered: ${unreachable}`, {
			description:
				'Set WEBHOOK_URL to the public address of n8n (for example WEBHOOK_URL=https://n8n.example.com/) and restart n8n, or put n8n behind a tunnel, then activate again. Nothing was registered with the service.',
		});
	}
	const known = reusableRegistration(this, url, baseUrl);
	let registration: StoredRegistration;
	if (known) registration = { ...known };
	else {
		const main = await subscribe(this, 'orders', url, baseUrl);
		registration = {
			webhookId: main.webhookId,
			secret: main.secret,
			url,
			baseUrl,
			registeredAt: new Date().toISOString(),
			registrationNonce: main.nonce,
		};
	}
	if (registration.recoveryWebhookId === undefined) {
		const recovery = await recoverySubscription(this, url, baseUrl);
		if (recovery)
			Object.assign(registration, {
				recoveryWebhookId: recovery.webhookId,
				recoverySecret: recovery.secret,
			});
	}
	if (this.getMode() === 'manual') registration.forTestUrl = true;
	// Written whole: nothing of another registration (the production one, in a test's copy) stays mixed in.
	const staticData = this.getWorkflowStaticData('node');
	for (const field of STORED_FIELDS) delete staticData[field];
	Object.assign(
		staticData,
		Object.fromEntries(Object.entries(registration).filter(([, value]) => value !== undefined)),
	);
	// A test event's static data lives only until the test ends (n8n saves it nowhere): remembered here.
	if (this.getMode() === 'manual')
		knownRegistrations.set(registrationKey(this, url, baseUrl), registration);
	return true;
}

/** DELETE one subscription; true when it is gone (a 404: already deleted or unknown). */
async function unsubscribe(
	ctx: IHookFunctions,
	baseUrl: string,
	webhookId: string,
	kind: SubscriptionKind,
): Promise<boolean> {
	try {
		await orchestrationApiRequest.call(ctx, 'DELETE', webhookPath(webhookId, kind), undefined, {
			baseUrl,
			idempotencyKey: deriveIdempotencyKey({
				workflowId: ctx.getWorkflow().id,
				nodeName: ctx.getNode().id,
				itemIndex: 0,
				operation: `webhooks.${kind}.delete`,
				body: { webhookId },
			}),
		});
		return true;
	} catch (error) {
		if (errorCodeOf(error) === 'not_found') return true;
		ctx.logger.warn(
			`Orchestration Trigger could not delete its ${kind === 'recovery' ? 'recovery subscription' : 'webhook endpoint'}; it stays stored and is reused`,
			{
				workflowId: ctx.getWorkflow().id,
				node: ctx.getNode().name,
				webhookId,
				reason: (error as Error).message,
			},
		);
		return false;
	}
}

/** From this version on, a test event's endpoint is deleted after the test unless kept. */
export const DELETES_TEST_ENDPOINTS_FROM = 1.2;

/** "Keep Endpoint Registered" as the user set it; undefined when the option was not added. */
function keepEndpointOption(ctx: Pick<IHookFunctions, 'getNodeParameter'>): boolean | undefined {
	try {
		const value = ctx.getNodeParameter('options.keepEndpoint', undefined);
		return typeof value === 'boolean' ? value : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Whether n8n's `delete` keeps this registration at the service. n8n 2.41.1 calls a trigger's
 * `delete` with one and the same context when the workflow is deactivated, archived, re-published
 * with this node changed (with N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false: on every re-publish and
 * update), or when this node is removed: mode `internal`, activation `update`, the workflow marked
 * active, the previous version's node and static data. "Off for good" and "back in a moment" look the
 * same, and deleting on the second drops the service's retries and every event until the next
 * registration. So:
 * - "Keep Endpoint Registered" set by the user decides, for the production and the test URL;
 * - unset, the production endpoint is kept (a workflow off or mid-publish is answered 404 by n8n, and
 *   the service retries for about 33 hours); a test event's endpoint is deleted after the test from
 *   version 1.2 on (kept by versions 1 and 1.1, as in 0.1.0).
 */
export function keepsEndpoint(
	ctx: Pick<IHookFunctions, 'getNode' | 'getNodeParameter'>,
	registration: Pick<StoredRegistration, 'forTestUrl'>,
): boolean {
	const option = keepEndpointOption(ctx);
	if (option !== undefined) return option;
	return (
		registration.forTestUrl !== true || ctx.getNode().typeVersion < DELETES_TEST_ENDPOINTS_FROM
	);
}

/**
 * delete: removes the endpoint and the recovery subscription at the service and forgets them, when
 * keepsEndpoint says so and they are this node's at this URL (a registration for another URL belongs
 * to another copy of the workflow, or is replaced at the next activation). Otherwise keeps both for
 * the next activation or test. Never throws: a failed delete keeps the registration stored (and
 * reused), so deactivation always completes.
 */
export async function deleteRegistration(this: IHookFunctions): Promise<boolean> {
	if (registrationModeOf(this.getNodeParameter('registration', 'automatic')) === 'existingEndpoint')
		return true;
	const staticData = this.getWorkflowStaticData('node');
	const stored = storedRegistration(staticData);
	if (!stored) return true;
	if (keepsEndpoint(this, stored) || stored.url !== this.getNodeWebhookUrl(WEBHOOK_NAME)) {
		this.logger.info(
			'Orchestration Trigger kept its endpoint registered: n8n removed the trigger (deactivation, re-publish or update); the service retries deliveries until it is active again',
			{
				workflowId: this.getWorkflow().id,
				node: this.getNode().name,
				webhookId: stored.webhookId,
			},
		);
		return true;
	}
	const key = registrationKey(this, stored.url, stored.baseUrl);
	if (stored.recoveryWebhookId !== undefined) {
		if (!(await unsubscribe(this, stored.baseUrl, stored.recoveryWebhookId, 'recovery')))
			return false;
		delete staticData.recoveryWebhookId;
		delete staticData.recoverySecret;
		const known = knownRegistrations.get(key);
		if (known)
			knownRegistrations.set(key, {
				...known,
				recoveryWebhookId: undefined,
				recoverySecret: undefined,
			});
	}
	if (!(await unsubscribe(this, stored.baseUrl, stored.webhookId, 'orders'))) return false;
	for (const field of STORED_FIELDS) delete staticData[field];
	knownRegistrations.delete(key);
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

/** The secrets a delivery to this node may be signed with, and the subscriptions they belong to. */
export interface EndpointSecrets {
	secret: unknown;
	webhookId?: string;
	/** Verifies order.recovery_required only (delivery.ts). */
	recoverySecret?: unknown;
	recoveryWebhookId?: string;
	/** The retired endpoint's secret while a secret is replaced (Existing Endpoint): verifies what `secret` does. */
	previousSecret?: unknown;
}

/**
 * The secrets deliveries are verified with, as configured (validated by the delivery handler):
 * the stored registration (and its recovery subscription); or, for an existing endpoint, the
 * credential when one is attached (version 1.1 requires it; its optional Recovery Secret verifies
 * recovery deliveries), else the version 1 parameter.
 */
export async function endpointSecret(
	this: IWebhookFunctions,
	staticData: IDataObject,
): Promise<EndpointSecrets> {
	if (registrationModeOf(this.getNodeParameter('registration', 'automatic')) === 'automatic') {
		const stored = storedRegistration(staticData);
		return {
			secret: stored?.secret,
			webhookId: stored?.webhookId,
			recoverySecret: stored?.recoverySecret,
			recoveryWebhookId: stored?.recoveryWebhookId,
		};
	}
	if (this.getNode().credentials?.[SECRET_CREDENTIAL_TYPE] !== undefined) {
		const credential = await settled(async () => await this.getCredentials(SECRET_CREDENTIAL_TYPE));
		const optional = (value: unknown) => (value === '' || value === null ? undefined : value);
		return {
			secret: credential?.secret,
			recoverySecret: optional(credential?.recoverySecret),
			previousSecret: optional(credential?.previousSecret),
		};
	}
	return { secret: await settled(() => this.getNodeParameter('webhookSecret', undefined)) };
}
