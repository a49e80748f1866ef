/**
 * The trigger's execute(). n8n runs it as the first step of every run its webhook() started, with
 * the items webhook() returned, and saves the run's static data afterwards. So this is where the
 * accepted keys are persisted (static data written in webhook() is dropped once a run starts,
 * n8n 2.41), and where the output is shaped.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { memoryNamespace, processKeys, staticDataMemory, windowOf } from './dedupe';
import type { TriggerOptions } from './description';
import { duplicateKeyOfItem, outputItem } from './output';

export function persistAndShape(this: IExecuteFunctions): INodeExecutionData[] {
	const items = this.getInputData();
	const options = this.getNodeParameter('options', 0, {}) as TriggerOptions;
	if (options.deduplicate !== false) {
		const memory = staticDataMemory(this.getWorkflowStaticData('node'), windowOf(options.deduplicationWindow));
		const namespace = memoryNamespace(this.getWorkflow().id, this.getNode().id, this.getMode());
		// Concurrent runs each save their whole static data (last writer wins), so each also writes
		// what this process accepted meanwhile, then its own keys.
		const keys = [...processKeys(namespace), ...items.map(duplicateKeyOfItem)];
		const nowMs = Date.now();
		for (const key of keys) {
			if (key !== undefined && !memory.has(key)) memory.remember(key, nowMs);
		}
	}
	return items.map((item, index) => outputItem(item, index, options.onlyData === true));
}
