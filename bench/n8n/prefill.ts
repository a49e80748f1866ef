/**
 * The Orchestration Trigger's node static data with `count` remembered keys, written by the
 * trigger's own duplicate memory (so it follows its storage format), for the bench's import.
 */
import type { IDataObject } from 'n8n-workflow';
import { staticDataMemory } from '../../nodes/OrchestrationTrigger/dedupe';
import { webhookDuplicateKey } from '../../nodes/shared/orchestration/webhooks';

export function prefilledMemory(count: number): IDataObject {
	const staticData: IDataObject = {};
	const memory = staticDataMemory(staticData, 2 * count);
	const now = Date.now();
	for (let i = 0; i < count; i++) {
		const updatedAt = new Date(now - i * 1000).toISOString();
		memory.remember(webhookDuplicateKey({ event: 'order.completed', data: { id: `ord_prefill${i}`, updatedAt } }), now);
	}
	return staticData;
}
