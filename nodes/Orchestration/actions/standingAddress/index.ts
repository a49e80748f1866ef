import type { INodeProperties } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as createOrGet from './createOrGet';
import * as get from './get';
import * as getDestinations from './getDestinations';

export const operations: Record<string, OperationModule> = { createOrGet, get, getDestinations };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['standingAddress'] } },
		options: [
			{
				name: 'Create or Get',
				value: 'createOrGet',
				action: 'Create or get a standing deposit address',
				description: 'Create the instruction for your reference, or get the identical one already created (server keys only)',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a standing deposit address',
				description: 'Read the instruction of a reference (server keys only)',
			},
			{
				name: 'Get Destinations',
				value: 'getDestinations',
				action: 'Get standing deposit destinations',
				description: 'List the chains and assets a standing deposit address can deliver to (server keys only)',
			},
		],
		default: 'createOrGet',
	},
	...createOrGet.description,
	...get.description,
	...getDestinations.description,
];
