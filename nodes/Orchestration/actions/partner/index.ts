import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as getFeeInvoices from './getFeeInvoices';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = {
	name: 'Partner',
	value: 'partner',
	description: 'The partner account: the fee invoices of partners billed by invoice',
};

export const operations: Record<string, OperationModule> = { getFeeInvoices };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['partner'] } },
		options: [
			{
				name: 'Get Fee Invoices',
				value: 'getFeeInvoices',
				action: 'Get the fee invoices of the partner',
				description: 'List what a partner billed by invoice owes, every page (server keys only)',
			},
		],
		default: 'getFeeInvoices',
	},
	...getFeeInvoices.description,
];
