/** The duplicate and replay memories of one trigger node, as webhook() reads and writes them. */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { WEBHOOK_TOLERANCE_SECONDS } from '../shared/orchestration/limits';
import { DELIVERIES_FIELD, SIGNATURES_FIELD, hoursOf, memoryNamespace, storedMemory, windowOf, type StoredMemory } from './dedupe';
import type { TriggerOptions } from './description';

export function toleranceOf(value: unknown): number {
	const n = Number(value);
	return Number.isFinite(n) && n > 0 ? n : WEBHOOK_TOLERANCE_SECONDS;
}

export interface Memories {
	duplicates?: StoredMemory;
	replays: StoredMemory;
}

/** Both memories on the node's static data, with this process's layer (dedupe.ts). */
export function memoriesOf(
	ctx: IWebhookFunctions,
	staticData: IDataObject,
	options: TriggerOptions,
	nowMs: number,
): Memories {
	const workflowId = ctx.getWorkflow().id;
	const nodeId = ctx.getNode().id;
	const toleranceMs = toleranceOf(options.toleranceSeconds) * 1000;
	// A signature verifies for `tolerance` either side of its timestamp: remembered for twice that.
	const replays = storedMemory({
		staticData,
		field: SIGNATURES_FIELD,
		namespace: memoryNamespace(SIGNATURES_FIELD, workflowId, nodeId),
		limits: { horizonMs: 2 * toleranceMs, maxEntries: windowOf(undefined) },
		nowMs,
		keepRecent: true,
	});
	if (options.deduplicate === false) return { replays };
	const duplicates = storedMemory({
		staticData,
		field: DELIVERIES_FIELD,
		namespace: memoryNamespace(DELIVERIES_FIELD, workflowId, nodeId, ctx.getMode() === 'manual' ? 'manual' : 'webhook'),
		limits: { horizonMs: hoursOf(options.deduplicationHours) * 3_600_000 + toleranceMs, maxEntries: windowOf(options.deduplicationWindow) },
		nowMs,
	});
	return { duplicates, replays };
}
