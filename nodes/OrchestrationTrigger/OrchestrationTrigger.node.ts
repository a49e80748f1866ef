import {
	NodeConnectionTypes,
	type ICredentialTestFunctions,
	type ICredentialsDecrypted,
	type IDataObject,
	type INodeCredentialTestResult,
	type IExecuteFunctions,
	type IHookFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { webhookSecretProblem } from '../shared/orchestration/webhooks';
import { randomUUID } from 'node:crypto';
import { handleDelivery, hoursOf, toleranceOf, type DeliveryDecision } from './delivery';
import { triggerProperties, type TriggerOptions } from './description';
import { eventSelectionOf, type EventSelection } from './events';
import { deliveryItem } from './output';
import { keepOwnedAndShape, runCheckNamespace, runStartedFor } from './runCheck';
import {
	CREDENTIAL_TYPE,
	WEBHOOK_NAME,
	createRegistration,
	deleteRegistration,
	endpointSecret,
	registrationExists,
} from './registration';

/** The request as n8n's webhook server hands it over: the raw bytes are kept next to the parsed body. */
type RawRequest = ReturnType<IWebhookFunctions['getRequestObject']> & {
	rawBody?: Buffer | string;
	readRawBody?: () => Promise<void>;
};

/** The filter as configured; an expression that fails or is not a list fails closed. */
function eventsOf(ctx: IWebhookFunctions): EventSelection | undefined {
	try {
		return eventSelectionOf(ctx.getNodeParameter('events', []));
	} catch {
		return undefined;
	}
}

/** Refusals at warn level (reason only: never the secret, the signature or the body). */
function logDecision(
	ctx: IWebhookFunctions,
	decision: Exclude<DeliveryDecision, { outcome: 'accepted' }>,
): void {
	const where = {
		workflowId: ctx.getWorkflow().id,
		node: ctx.getNode().name,
		url: ctx.getMode() === 'manual' ? 'test' : 'production',
	};
	if (decision.outcome === 'rejected') {
		ctx.logger.warn(`Orchestration Trigger refused a delivery: ${decision.error}`, {
			...where,
			status: decision.status,
			reason: decision.error,
			message: decision.message,
		});
	} else {
		ctx.logger.debug(`Orchestration Trigger ignored a delivery: ${decision.reason}`, {
			...where,
			reason: decision.reason,
			event: decision.event,
		});
	}
}

/**
 * Read only, after verification: whether a run of this process already checked the request or (unless
 * Deduplicate is off, or on the test URL) the event (runCheck.ts). The test URL is only guarded
 * against a copy of a signed request a production run already had.
 */
function runStartedCheck(
	ctx: IWebhookFunctions,
	options: TriggerOptions,
	nowMs: number,
	toleranceSeconds: number,
): (keys: { replayKey: string; duplicateKey: string }) => boolean {
	const deduplicate = options.deduplicate !== false && ctx.getMode() !== 'manual';
	const events = runCheckNamespace(ctx.getWorkflow().id, ctx.getNode().id, 'event');
	const requests = runCheckNamespace(ctx.getWorkflow().id, ctx.getNode().id, 'request');
	const horizonMs = hoursOf(options.deduplicationHours) * 3_600_000 + toleranceSeconds * 1000;
	return (keys) =>
		runStartedFor(requests, keys.replayKey, nowMs, horizonMs) ||
		(deduplicate && runStartedFor(events, keys.duplicateKey, nowMs, horizonMs));
}

export class OrchestrationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Orchestration Trigger',
		name: 'orchestrationTrigger',
		icon: {
			light: 'file:../../icons/orchestration.svg',
			dark: 'file:../../icons/orchestration.dark.svg',
		},
		group: ['trigger'],
		// 1.1: the secret of an existing endpoint comes from a credential (encrypted by n8n).
		// 1.2: the end of a test event deletes the test URL's endpoint unless "Keep Endpoint Registered".
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: '=Registration: {{$parameter["registration"]}}',
		description: 'Starts a workflow on signed order events of the orchestration service',
		defaults: { name: 'Orchestration Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				// Automatic registration; with an existing endpoint only for "Readable Amounts" (the routes
				// listing). That parameter exists in Existing Endpoint mode only: hidden when it is off.
				name: CREDENTIAL_TYPE,
				required: true,
				displayOptions: { hide: { readableAmounts: [false] } },
			},
			{
				// Literal names: n8n's lint reads them to find the credential's test.
				name: 'orchestrationWebhookSecretApi',
				required: true,
				testedBy: 'webhookSecretCheck',
				displayOptions: { show: { registration: ['existingEndpoint'], '@version': [1.1, 1.2] } },
			},
		],
		webhooks: [
			{
				name: WEBHOOK_NAME,
				httpMethod: 'POST',
				// webhook() answers refusals itself; n8n answers an accepted delivery (empty 200) once its
				// execution exists (single mode: saved; queue mode: saved and enqueued), else 500.
				responseMode: 'onReceived',
				responseData: 'noData',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = {
		credentialTest: {
			/** No service endpoint checks a secret; this refuses one that cannot be an HMAC key. */
			async webhookSecretCheck(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const optional = (value: unknown, name: string) =>
					value === undefined || value === ''
						? undefined
						: webhookSecretProblem(value)?.replace('webhook secret', name);
				const problem =
					webhookSecretProblem(credential.data?.secret) ??
					optional(credential.data?.recoverySecret, 'recovery secret') ??
					optional(credential.data?.previousSecret, 'previous webhook secret');
				return problem === undefined
					? {
							status: 'OK',
							message:
								'The secret can verify deliveries (it is checked against each delivery signature)',
						}
					: { status: 'Error', message: `Not usable: ${problem}` };
			},
		},
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await registrationExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await createRegistration.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteRegistration.call(this);
			},
		},
	};

	/** Runs first in every run the webhook started: the durable duplicate check (runCheck.ts), then the output. */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [await keepOwnedAndShape.call(this)];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject() as RawRequest;
		const res = this.getResponseObject();
		const nowMs = Date.now();
		if (req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();

		// Recovery deliveries come to this URL signed with their subscription's secret: one pass tries both (delivery.ts).
		const endpoint = await endpointSecret.call(this, this.getWorkflowStaticData('node'));
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const toleranceSeconds = toleranceOf(options.toleranceSeconds);
		const decision = handleDelivery({
			rawBody: req.rawBody,
			headers: req.headers,
			secret: endpoint.secret,
			recoverySecret: endpoint.recoverySecret,
			previousSecret: endpoint.previousSecret,
			toleranceSeconds,
			nowMs,
			events: eventsOf(this),
			runStarted: runStartedCheck(this, options, nowMs, toleranceSeconds),
		});

		if (decision.outcome === 'accepted') {
			const delivery = {
				deliveryId: randomUUID(),
				envelope: decision.envelope,
				duplicateKey: decision.duplicateKey,
				replayKey: decision.replayKey,
				signatureTimestampMs: decision.signatureTimestampMs,
				receivedAtMs: nowMs,
				webhookId:
					decision.subscription === 'recovery' ? endpoint.recoveryWebhookId : endpoint.webhookId,
				headers: req.headers as IDataObject,
			};
			const headers = {
				include: options.includeHeaders === true,
				sensitive: options.includeSensitiveHeaders === true,
			};
			// Not answered here: n8n answers 200 once the execution exists, 500 when it cannot create it
			// (the service then retries). Nothing is remembered before that (spec §6).
			return { workflowData: [[deliveryItem(delivery, headers)]] };
		}
		logDecision(this, decision);
		if (decision.outcome === 'ignored') {
			res
				.status(decision.status)
				.json({ received: true, ignored: decision.reason, event: decision.event });
		} else {
			res.status(decision.status).json({ error: decision.error, message: decision.message });
		}
		return { noWebhookResponse: true };
	}
}
