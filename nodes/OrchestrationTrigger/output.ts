/** The items of a run: what webhook() hands to the run, and what execute() outputs. No secret. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { DeliveryEnvelope } from './delivery';

export interface AcceptedDelivery {
	/** This request's own id: the owner mark of its run (runCheck.ts). */
	deliveryId: string;
	envelope: DeliveryEnvelope;
	duplicateKey: string;
	/** The signed request's key (a hash of its signature), checked when deduplication is off. */
	replayKey: string;
	signatureTimestampMs: number;
	receivedAtMs: number;
	webhookId?: string;
	headers: Record<string, unknown>;
}

/** Headers that carry credentials or the signature: kept out of execution data by default. */
export const SENSITIVE_HEADERS: ReadonlySet<string> = new Set([
	'authorization',
	'proxy-authorization',
	'cookie',
	'x-service-signature',
	'x-service-timestamp',
]);

/** The request headers for the output, without the sensitive ones unless asked. */
export function outputHeaders(headers: Record<string, unknown>, keepSensitive: boolean): IDataObject {
	const kept = Object.entries(headers).filter(([name]) => keepSensitive || !SENSITIVE_HEADERS.has(name.toLowerCase()));
	return Object.fromEntries(kept) as IDataObject;
}

/**
 * The envelope as received (event, data and any other members, e.g. the live service's
 * `timestamp`) plus `delivery` metadata, and the request headers when asked.
 */
export function deliveryItem(
	delivery: AcceptedDelivery,
	headers: { include: boolean; sensitive: boolean },
): INodeExecutionData {
	const { event, data, ...rest } = delivery.envelope;
	const json: IDataObject = {
		...(rest as IDataObject),
		event,
		data: data as IDataObject,
		delivery: {
			deliveryId: delivery.deliveryId,
			signatureTimestamp: delivery.signatureTimestampMs,
			signatureTime: new Date(delivery.signatureTimestampMs).toISOString(),
			duplicateKey: delivery.duplicateKey,
			replayKey: delivery.replayKey,
			receivedAt: new Date(delivery.receivedAtMs).toISOString(),
			...(delivery.webhookId !== undefined ? { webhookId: delivery.webhookId } : {}),
		},
	};
	if (headers.include) json.headers = outputHeaders(delivery.headers, headers.sensitive);
	return { json };
}

/** With "Output Only Data", the order snapshot alone. */
export function outputItem(item: INodeExecutionData, index: number, onlyData: boolean): INodeExecutionData {
	const data = item.json.data;
	const json = onlyData && typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as IDataObject) : item.json;
	return { json, pairedItem: { item: index } };
}
