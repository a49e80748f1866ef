/**
 * The trigger's execute(). n8n runs it as the first step of every run its webhook() started, with
 * the items webhook() returned. It only shapes the output and writes no static data: a queue-mode
 * worker runs with empty static data and saves whatever the run wrote over the workflow's, which
 * would delete the registration and the delivery memory (issue 11).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { TriggerOptions } from './description';
import { outputItem } from './output';

export function shapeOutput(this: IExecuteFunctions): INodeExecutionData[] {
	const items = this.getInputData();
	const options = this.getNodeParameter('options', 0, {}) as TriggerOptions;
	return items.map((item, index) => outputItem(item, index, options.onlyData === true));
}
