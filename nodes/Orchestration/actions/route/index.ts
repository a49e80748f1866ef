import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as getAll from './getAll';
import * as getLimits from './getLimits';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = {
	name: 'Route',
	value: 'route',
	description: 'Assets, the destinations they reach and limits',
};

export const operations: Record<string, OperationModule> = { getAll, getLimits };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['route'] } },
		options: [
			{
				name: 'Get Limits',
				value: 'getLimits',
				action: 'Get route limits',
				description: 'Minimum and maximum amounts per route',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many routes',
				description: 'List assets and the destinations each can reach',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
	...getLimits.description,
];
