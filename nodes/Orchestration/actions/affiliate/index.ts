import type { INodeProperties } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as getAll from './getAll';

export const operations: Record<string, OperationModule> = { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['affiliate'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many affiliates',
				description: 'List the registered affiliates of the partner account',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
