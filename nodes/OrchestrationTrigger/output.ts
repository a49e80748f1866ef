/** The items of a run: what webhook() hands to the run, and what execute() outputs. No secret. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { DeliveryEnvelope } from './delivery';

export interface AcceptedDelivery {
	envelope: DeliveryEnvelope;
	duplicateKey: string;
	signatureTimestampMs: number;
	receivedAtMs: number;
	webhookId?: string;
	headers: Record<string, unknown>;
}

/**
 * The envelope as received (event, data and any other members, e.g. the live service's
 * `timestamp`) plus `delivery` metadata, and the request headers when asked.
 */
export function deliveryItem(delivery: AcceptedDelivery, includeHeaders: boolean): INodeExecutionData {
	const { event, data, ...rest } = delivery.envelope;
	const json: IDataObject = {
		...(rest as IDataObject),
		event,
		data: data as IDataObject,
		delivery: {
			signatureTimestamp: delivery.signatureTimestampMs,
			signatureTime: new Date(delivery.signatureTimestampMs).toISOString(),
			duplicateKey: delivery.duplicateKey,
			receivedAt: new Date(delivery.receivedAtMs).toISOString(),
			...(delivery.webhookId !== undefined ? { webhookId: delivery.webhookId } : {}),
		},
	};
	if (includeHeaders) json.headers = { ...delivery.headers } as IDataObject;
	return { json };
}

/** The duplicate key a delivery item carries, if any. */
export function duplicateKeyOfItem(item: INodeExecutionData): string | undefined {
	const delivery = item.json.delivery as IDataObject | undefined;
	return typeof delivery?.duplicateKey === 'string' ? delivery.duplicateKey : undefined;
}

/** With "Output Only Data", the order snapshot alone. */
export function outputItem(item: INodeExecutionData, index: number, onlyData: boolean): INodeExecutionData {
	const data = item.json.data;
	const json = onlyData && typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as IDataObject) : item.json;
	return { json, pairedItem: { item: index } };
}
