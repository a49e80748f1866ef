/** Parameters of the Orchestration Trigger. Names are a public contract. */
import type { INodeProperties } from 'n8n-workflow';
import {
	MAX_WEBHOOK_TOLERANCE_SECONDS,
	WEBHOOK_TOLERANCE_SECONDS,
} from '../shared/orchestration/limits';
import { DEDUPLICATION_HOURS } from './delivery';
import { ALL_EVENTS, SELECTABLE_EVENTS } from './events';

/** Events the store keeps (two entries each: key and owner mark; runCheck.ts). n8n rewrites the list per run. */
export const DEFAULT_DEDUPLICATION_WINDOW = 10_000;
export const MAX_DEDUPLICATION_WINDOW = 250_000;

/** Members of the `options` collection. */
export interface TriggerOptions {
	deduplicate?: boolean;
	deduplicationHours?: number;
	deduplicationWindow?: number;
	includeHeaders?: boolean;
	includeSensitiveHeaders?: boolean;
	keepEndpoint?: boolean;
	onlyData?: boolean;
	toleranceSeconds?: number;
}

/** "order.awaiting_approval" -> "Order Awaiting Approval". */
function eventLabel(event: string): string {
	return event
		.split(/[._]/)
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
}

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'Every delivery is verified (X-Service-Signature or the live X-Flashnet-Signature, over the timestamp and the raw body); forged, stale and repeated deliveries start no run. Activation registers this URL (and a recovery subscription for Order Recovery Required). Deactivating, re-publishing or updating the workflow keeps them: events meanwhile are retried by the service (about 33 hours) and run once the workflow is active again. To delete them at the service, set "Keep Endpoint Registered" off, publish, then deactivate, or run Orchestration > Webhook > Delete with the webhookId each output item names (delivery.webhookId). A test event\'s endpoint is deleted after the test.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Registration',
		name: 'registration',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Automatic',
				value: 'automatic',
				description:
					"Register this node's URL with POST /v1/webhooks on activation and keep the secret in the workflow",
			},
			{
				name: 'Existing Endpoint',
				value: 'existingEndpoint',
				description:
					"An endpoint registered elsewhere for this node's production URL: its secret (and a recovery subscription's, optional) comes from an Orchestration Webhook Secret credential",
			},
		],
		default: 'automatic',
	},
	{
		// Say where the automatic registration's secret lives and who can read it.
		displayName:
			"Automatic registration keeps the endpoint's secret in this workflow's static data, not in an encrypted credential: anyone who can read this workflow (in the editor, as an export, or through n8n's public API) can read the secret and forge deliveries. To keep it encrypted, register the endpoint once and choose Existing Endpoint with an Orchestration Webhook Secret credential (node version 1.1).",
		name: 'automaticSecretNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { registration: ['automatic'] } },
	},
	{
		// Version 1 only; version 1.1 takes the secret from a credential, which n8n stores encrypted.
		displayName: 'Webhook Secret',
		name: 'webhookSecret',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description:
			"The secret returned when this node's URL was registered (shown once by the service)",
		displayOptions: { show: { registration: ['existingEndpoint'], '@version': [1] } },
	},
	{
		// Automatic registration has the server credential anyway and always formats amounts.
		displayName: 'Readable Amounts',
		name: 'readableAmounts',
		type: 'boolean',
		default: false,
		description:
			'Whether to add formatted amounts (amountInFormatted, ...) to the order, with the decimals of the routes listing read through an Orchestration Server API credential. The credential is used for that listing only; nothing is registered.',
		displayOptions: { show: { registration: ['existingEndpoint'] } },
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: [
			{ name: 'All Events (Including New Kinds)', value: ALL_EVENTS },
			...SELECTABLE_EVENTS.map((event) => ({ name: eventLabel(event), value: event })),
		],
		default: [ALL_EVENTS],
		description:
			'Order events that start a run. "All Events" (or none selected) also lets through kinds the service adds later. Other events are answered 200 and start nothing.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Deduplicate',
				name: 'deduplicate',
				type: 'boolean',
				default: true,
				description:
					"Whether a repeated delivery of the same event (same order ID, event and updatedAt) runs nothing after this node. Each run checks the event in n8n's processed-data store, shared by every n8n process; off: only an exact copy of one signed request is dropped.",
			},
			{
				displayName: 'Deduplication Period (Hours)',
				name: 'deduplicationHours',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEDUPLICATION_HOURS,
				description:
					'How long the n8n process that ran an event answers its copies itself, without an execution. The service retries for about 33 hours (10 s, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h, 24 h); what a run checks is kept by count (Deduplication Window).',
			},
			{
				displayName: 'Deduplication Window',
				name: 'deduplicationWindow',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_DEDUPLICATION_WINDOW },
				default: DEFAULT_DEDUPLICATION_WINDOW,
				description:
					"Events n8n's processed-data store keeps for this node (oldest forgotten first); size it to the events of 33 hours. Each run reads and rewrites the list (about 60 bytes an event).",
			},
			{
				displayName: 'Include Headers',
				name: 'includeHeaders',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the request headers to the output item. Authorization, cookies and the signature headers are left out unless Include Sensitive Headers is on.',
			},
			{
				displayName: 'Include Sensitive Headers',
				name: 'includeSensitiveHeaders',
				type: 'boolean',
				default: false,
				description:
					'Whether Include Headers also keeps Authorization, Proxy-Authorization, Cookie and the signature headers (X-Service-Signature, X-Service-Timestamp, X-Flashnet-Signature, X-Flashnet-Timestamp); they end up in execution data',
			},
			{
				displayName: 'Keep Endpoint Registered',
				name: 'keepEndpoint',
				type: 'boolean',
				default: true,
				description:
					'Whether to keep the registered endpoint and its secret (and the recovery subscription) when n8n deactivates the workflow, and reuse them next time. n8n does the same when the workflow is re-published or updated, so on (and when this option is not added) no event is lost: n8n answers 404 while the workflow is off and the service retries. Off: they are deleted at the service (DELETE /v1/webhooks/{ID}) at every deactivation, re-publish of this node or removal of this node, and events sent before the next activation are lost. n8n tells the node nothing when its workflow is deleted: a kept endpoint then goes on posting order data to a dead URL. To retire one, run Orchestration > Webhook > Delete with its webhookId (every output item names it in delivery.webhookId; the workflow\'s static data keeps it too) before deleting the workflow, or set this off, publish, then deactivate. To replace its secret without losing events, see the README ("Replacing a webhook secret"). A test event\'s endpoint is deleted after the test unless this is on (version 1.2).',
			},
			{
				displayName: 'Output Only Data',
				name: 'onlyData',
				type: 'boolean',
				default: false,
				description:
					'Whether to output only the order snapshot (data) instead of the event, data and delivery metadata',
			},
			{
				displayName: 'Timestamp Tolerance (Seconds)',
				name: 'toleranceSeconds',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_WEBHOOK_TOLERANCE_SECONDS },
				default: WEBHOOK_TOLERANCE_SECONDS,
				description:
					'Deliveries whose X-Service-Timestamp (or X-Flashnet-Timestamp) differs from the clock by more than this are rejected (replays and delayed copies); at most 900',
			},
		],
	},
];
