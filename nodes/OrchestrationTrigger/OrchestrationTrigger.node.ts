import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { ORDER_EVENTS } from '../shared/orchestration/enums';
import { WEBHOOK_TOLERANCE_SECONDS } from '../shared/orchestration/limits';
import { layeredMemory, memoryNamespace, processMemory, staticDataMemory, windowOf, type DuplicateMemory } from './dedupe';
import { handleDelivery } from './delivery';
import { triggerProperties, type TriggerOptions } from './description';
import { persistAndShape } from './execution';
import { deliveryItem } from './output';
import {
	CREDENTIAL_TYPE,
	WEBHOOK_NAME,
	createRegistration,
	deleteRegistration,
	registrationExists,
	registrationModeOf,
	storedRegistration,
} from './registration';

/** The request as n8n's webhook server hands it over: the raw bytes are kept next to the parsed body. */
type RawRequest = ReturnType<IWebhookFunctions['getRequestObject']> & {
	rawBody?: Buffer | string;
	readRawBody?: () => Promise<void>;
};

/** An empty selection means every order event (spec §6). */
function selectedEvents(value: unknown): ReadonlySet<string> {
	const list = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
	return new Set(list.length > 0 ? list : ORDER_EVENTS);
}

function toleranceOf(value: unknown): number {
	const n = Number(value);
	return Number.isFinite(n) && n > 0 ? n : WEBHOOK_TOLERANCE_SECONDS;
}

export class OrchestrationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Orchestration Trigger',
		name: 'orchestrationTrigger',
		icon: { light: 'file:../../icons/orchestration.svg', dark: 'file:../../icons/orchestration.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '=Registration: {{$parameter["registration"]}}',
		description: 'Starts a workflow on signed order events of the orchestration service',
		defaults: { name: 'Orchestration Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: CREDENTIAL_TYPE,
				required: true,
				displayOptions: { show: { registration: ['automatic'] } },
			},
		],
		webhooks: [
			{
				name: WEBHOOK_NAME,
				httpMethod: 'POST',
				// Answered once the run is created; 'noData' gives an empty 200 (not n8n's "firstEntryJson" text).
				responseMode: 'onReceived',
				responseData: 'noData',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
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

	/** Runs first in every run the webhook started: persists the accepted keys, shapes the output. */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [persistAndShape.call(this)];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject() as RawRequest;
		const res = this.getResponseObject();
		const nowMs = Date.now();
		if (req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();

		const staticData = this.getWorkflowStaticData('node');
		const mode = registrationModeOf(this.getNodeParameter('registration', 'automatic'));
		const stored = mode === 'automatic' ? storedRegistration(staticData) : undefined;
		const secret = mode === 'automatic' ? stored?.secret : String(this.getNodeParameter('webhookSecret', ''));
		const options = this.getNodeParameter('options', {}) as TriggerOptions;

		let memory: DuplicateMemory | undefined;
		if (options.deduplicate !== false) {
			const window = windowOf(options.deduplicationWindow);
			const local = processMemory(memoryNamespace(this.getWorkflow().id, this.getNode().id, this.getMode()), window);
			// Looks in both layers; remembers in this process only (execute() persists, see dedupe.ts).
			memory = layeredMemory([staticDataMemory(staticData, window), local], [local]);
		}

		const decision = handleDelivery({
			rawBody: req.rawBody,
			headers: req.headers,
			secret,
			toleranceSeconds: toleranceOf(options.toleranceSeconds),
			nowMs,
			events: selectedEvents(this.getNodeParameter('events', [])),
			memory,
		});

		if (decision.outcome === 'accepted') {
			const item = deliveryItem(
				{
					envelope: decision.envelope,
					duplicateKey: decision.duplicateKey,
					signatureTimestampMs: decision.signatureTimestampMs,
					receivedAtMs: nowMs,
					webhookId: stored?.webhookId,
					headers: req.headers as IDataObject,
				},
				options.includeHeaders === true,
			);
			return { workflowData: [[item]] };
		}
		if (decision.outcome === 'ignored') {
			res.status(decision.status).json({ received: true, ignored: decision.reason, event: decision.event });
		} else {
			// The reason only: never the secret or the expected signature.
			this.logger.debug('Orchestration Trigger rejected a delivery', { status: decision.status, reason: decision.error });
			res.status(decision.status).json({ error: decision.error, message: decision.message });
		}
		return { noWebhookResponse: true };
	}
}
