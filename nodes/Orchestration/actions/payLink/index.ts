import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as create from './create';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = {
	name: 'Pay Link',
	value: 'payLink',
	description: 'Hosted payment pages: every payment through one is an order',
};

export const operations: Record<string, OperationModule> = { create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payLink'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a pay link',
				description: 'Create a payment page for a recipient and an amount (server keys only)',
			},
		],
		default: 'create',
	},
	...create.description,
];
