import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as create from './create';
import * as createOfframp from './createOfframp';
import * as estimate from './estimate';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = {
	name: 'Quote',
	value: 'quote',
	description: 'Price a transfer and get a deposit address',
};

export const operations: Record<string, OperationModule> = { create, createOfframp, estimate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['quote'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a quote',
				description: 'Price a transfer and get a deposit address (firm for 2 minutes)',
			},
			{
				name: 'Create Offramp',
				value: 'createOfframp',
				action: 'Create an offramp quote',
				description: 'Quote a payout to a payment-app username or a Lightning address',
			},
			{
				name: 'Estimate',
				value: 'estimate',
				action: 'Estimate a quote',
				description: 'Indicative price without a deposit address or side effects',
			},
		],
		default: 'create',
	},
	...create.description,
	...createOfframp.description,
	...estimate.description,
];
