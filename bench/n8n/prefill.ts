/**
 * The Orchestration Trigger's node static data with `count` remembered keys, in the first
 * release's key ring (`seenKeys`), which later releases read and fold into their own format on the
 * first write (done by the bench's warm-up), so the bench does not depend on the storage format.
 */
import type { IDataObject } from 'n8n-workflow';
import { webhookDuplicateKey } from '../../nodes/shared/orchestration/webhooks';

export function prefilledMemory(count: number): IDataObject {
	const now = Date.now();
	const seenKeys = Array.from({ length: count }, (_, i) =>
		webhookDuplicateKey({ event: 'order.completed', data: { id: `ord_prefill${i}`, updatedAt: new Date(now - i * 1000).toISOString() } }),
	);
	return { seenKeys, seenNext: 0 };
}
