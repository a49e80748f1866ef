import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as getHealth from './getHealth';
import * as getInfo from './getInfo';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = { name: 'Network', value: 'network' };

export const operations: Record<string, OperationModule> = { getHealth, getInfo };

export const description: INodeProperties[] = [
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
	...getInfo.description,
	...getHealth.description,
];
