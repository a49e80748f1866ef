import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as get from './get';
import * as getAll from './getAll';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = {
	name: 'Liquidation Address (Deprecated)',
	value: 'liquidationAddress',
	description:
		'Legacy addresses that liquidate Bitcoin deposits; use standing deposit addresses instead',
};

export const operations: Record<string, OperationModule> = { get, getAll };

export const description: INodeProperties[] = [
	{
		displayName:
			'Liquidation addresses are deprecated (spec §4.4, §9). For new flows use the Standing Deposit Address resource: one reusable deposit address per reference of yours, created or read with Create or Get.',
		name: 'deprecationNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['liquidationAddress'] } },
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['liquidationAddress'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a liquidation address',
				description: 'Deprecated: read one liquidation address',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many liquidation addresses',
				description: 'Deprecated: list the liquidation addresses of the partner account',
			},
		],
		default: 'get',
	},
	...get.description,
	...getAll.description,
];
