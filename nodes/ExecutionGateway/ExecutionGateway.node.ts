/**
 * Execution Gateway node: network discovery and health, signed intents (execute) and their status
 * (execution-gateway.md). The description and the router live here; each operation is one file
 * under actions/<resource>/<operation>.ts.
 */
import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { processItems } from '../transport/items';
import { assertToolActionAllowed, toolActionsProperty } from '../transport/toolMode';
import * as intentExecute from './actions/intent/execute';
import * as intentGet from './actions/intent/get';
import * as networkGetHealth from './actions/network/getHealth';
import * as networkGetInfo from './actions/network/getInfo';

type Operation = (ctx: IExecuteFunctions, itemIndex: number) => Promise<IDataObject>;

const OPERATIONS: Record<string, Record<string, Operation>> = {
	network: { getInfo: networkGetInfo.execute, getHealth: networkGetHealth.execute },
	intent: { execute: intentExecute.execute, get: intentGet.execute },
};

/** Operations an AI agent may run only with "Allow Actions as AI Tool" (they move funds). */
const TOOL_ACTIONS: Record<string, string> = { 'intent.execute': 'Intent > Execute' };

/** Items in flight at once: enough to overlap round trips, few enough to stay polite to the gateway. */
const CONCURRENCY = 4;

export class ExecutionGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Execution Gateway',
		name: 'executionGateway',
		icon: { light: 'file:../../icons/executionGateway.svg', dark: 'file:../../icons/executionGateway.dark.svg' },
		group: ['transform'],
		// 1.1: "paused" in Network Info is advisory (a warning) unless Refuse When Paused; 1 keeps refusing.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Submit signed intents that fund EVM actions with Spark transfers, and follow their status',
		defaults: { name: 'Execution Gateway' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'executionGatewayApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Intent', value: 'intent' },
					{ name: 'Network', value: 'network' },
				],
				default: 'intent',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['intent'] } },
				options: [
					{
						name: 'Execute',
						value: 'execute',
						description: 'Sign an intent with the keypair and submit it',
						action: 'Execute an intent',
					},
					{
						name: 'Get',
						value: 'get',
						description: 'Get the status of an intent by its submission ID',
						action: 'Get an intent',
					},
				],
				default: 'execute',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['network'] } },
				options: [
					{
						name: 'Get Health',
						value: 'getHealth',
						description: 'Check that the gateway is alive',
						action: 'Get gateway health',
					},
					{
						name: 'Get Info',
						value: 'getInfo',
						description: 'Get the chain ID, contract, deposit address, pause state and minimum deposit',
						action: 'Get network info',
					},
				],
				default: 'getInfo',
			},
			...intentExecute.description,
			...intentGet.description,
			...networkGetInfo.description,
			...networkGetHealth.description,
			toolActionsProperty('Intent > Execute (it signs intents that move deposits)'),
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const resource = this.getNodeParameter('resource', 0) as string;
		const operation = this.getNodeParameter('operation', 0) as string;
		const run = OPERATIONS[resource]?.[operation];
		if (!run) throw new NodeOperationError(this.getNode(), `Unsupported operation "${operation}" for resource "${resource}"`);
		const action = TOOL_ACTIONS[`${resource}.${operation}`];
		if (action !== undefined) assertToolActionAllowed(this, action);
		return [await processItems(this, CONCURRENCY, async (itemIndex) => await run(this, itemIndex))];
	}
}
