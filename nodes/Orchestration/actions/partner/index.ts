import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as checkSettings from './checkSettings';
import * as getFeeInvoices from './getFeeInvoices';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = {
	name: 'Partner',
	value: 'partner',
	description:
		"The partner account: the fee invoices of partners billed by invoice, and a check of a flow's settings against the credential",
};

export const operations: Record<string, OperationModule> = { checkSettings, getFeeInvoices };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['partner'] } },
		options: [
			{
				name: 'Check Settings',
				value: 'checkSettings',
				action: 'Check the settings of a flow against the credential',
				description:
					'Stop a flow whose settings still point at the sandbox while the credential reaches the live service (no request)',
			},
			{
				name: 'Get Fee Invoices',
				value: 'getFeeInvoices',
				action: 'Get the fee invoices of the partner',
				description: 'List what a partner billed by invoice owes, every page (server keys only)',
			},
		],
		default: 'getFeeInvoices',
	},
	...checkSettings.description,
	...getFeeInvoices.description,
];
