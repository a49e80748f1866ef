/** The items of a run: what webhook() hands to the run, and what execute() outputs. No secret. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import {
	flatOrderOf,
	orderWithFormattedAmounts,
	type AssetDecimals,
} from '../shared/orchestration/orderView';
import { SIGNATURE_HEADER_NAMES } from '../shared/orchestration/webhooks';
import { getRoutesCatalogue } from '../Orchestration/helpers/routes';
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

/** Headers that carry credentials or the signature (the spec's names and the live ones): kept out of execution data by default. */
export const SENSITIVE_HEADERS: ReadonlySet<string> = new Set([
	'authorization',
	'proxy-authorization',
	'cookie',
	...SIGNATURE_HEADER_NAMES,
]);

/** The request headers for the output, without the sensitive ones unless asked. */
export function outputHeaders(
	headers: Record<string, unknown>,
	keepSensitive: boolean,
): IDataObject {
	const kept = Object.entries(headers).filter(
		([name]) => keepSensitive || !SENSITIVE_HEADERS.has(name.toLowerCase()),
	);
	return Object.fromEntries(kept) as IDataObject;
}

function isPlainObject(v: unknown): v is IDataObject {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * What webhook() hands to the run: the envelope as received (event, data and any other members,
 * e.g. the live service's `timestamp`), `delivery` metadata, and the request headers when asked.
 * The run shapes it for the next node (outputItem).
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

/**
 * The item for the next node: with "Output Only Data", the order snapshot alone; otherwise the
 * delivery with `order`, the same order in the status (flat) shape (one shape to map, whether it
 * came by webhook, stream or status read), `...Formatted` amounts where the routes listing knows the asset.
 */
export function outputItem(
	item: INodeExecutionData,
	index: number,
	onlyData: boolean,
	assets?: AssetDecimals,
): INodeExecutionData {
	const { data, delivery, headers, ...rest } = item.json;
	if (onlyData && isPlainObject(data)) return { json: data, pairedItem: { item: index } };
	const flat = isPlainObject(data) ? (flatOrderOf(data) as IDataObject) : undefined;
	const order = flat && assets ? orderWithFormattedAmounts(flat, assets) : flat;
	const json: IDataObject = {
		...rest,
		data,
		...(order ? { order } : {}),
		delivery,
		...(headers !== undefined ? { headers } : {}),
	};
	return { json, pairedItem: { item: index } };
}

/**
 * The routes listing the Orchestration node caches (60 s per service and key), read with the
 * trigger's server credential (automatic registration, or Existing Endpoint with "Readable Amounts";
 * there it is used for nothing else); undefined without one or when the listing cannot be read:
 * formatted amounts are a convenience and never fail a run.
 */
export async function formattingAssets(ctx: IExecuteFunctions): Promise<AssetDecimals | undefined> {
	try {
		if (ctx.getNodeParameter('readableAmounts', 0, true) !== true) return undefined;
		return await getRoutesCatalogue(ctx);
	} catch {
		return undefined;
	}
}
