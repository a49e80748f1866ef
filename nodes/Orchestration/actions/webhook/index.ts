import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as create from './create';
import * as del from './delete';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = {
	name: 'Webhook',
	value: 'webhook',
	description: 'Endpoints that receive signed order events',
};

export const operations: Record<string, OperationModule> = { create, delete: del };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a webhook',
				description: 'Register an endpoint for signed order events (server keys only)',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a webhook',
				description: 'Disable an endpoint or a recovery subscription (server keys only)',
			},
		],
		default: 'create',
	},
	...create.description,
	...del.description,
];
