import type { INodeProperties } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as createOnramp from './createOnramp';
import * as getStatus from './getStatus';
import * as submit from './submit';

export const operations: Record<string, OperationModule> = { createOnramp, getStatus, submit };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['order'] } },
		options: [
			{
				name: 'Create Onramp',
				value: 'createOnramp',
				action: 'Create a lightning onramp',
				description: 'Buy an asset with Bitcoin paid over Lightning (BOLT11 invoice)',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				action: 'Get the status of an order',
				description: 'Read an order by order ID or quote ID, optionally waiting until it is final',
			},
			{
				name: 'Submit',
				value: 'submit',
				action: 'Submit an order',
				description: 'Submit a paid quote with the reference of its deposit',
			},
		],
		default: 'getStatus',
	},
	...createOnramp.description,
	...getStatus.description,
	...submit.description,
];
