import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as get from './get';
import * as reindex from './reindex';
import * as sync from './sync';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = {
	name: 'Accumulation Address (Deprecated)',
	value: 'accumulationAddress',
	description:
		'Legacy standing addresses that accumulate deposits; use standing deposit addresses instead',
};

export const operations: Record<string, OperationModule> = { get, reindex, sync };

export const description: INodeProperties[] = [
	{
		displayName:
			'Accumulation addresses are deprecated (spec §4.4, §9). For new flows use the Standing Deposit Address resource: one reusable deposit address per reference of yours, created or read with Create or Get.',
		name: 'deprecationNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['accumulationAddress'] } },
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['accumulationAddress'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get an accumulation address',
				description: 'Deprecated: read one accumulation address',
			},
			{
				name: 'Reindex',
				value: 'reindex',
				action: 'Reindex an accumulation address',
				description: 'Deprecated: rescan the deposits of one accumulation address',
			},
			{
				name: 'Sync',
				value: 'sync',
				action: 'Sync accumulation webhooks',
				description: 'Deprecated: sync the deposit watchers of every accumulation address',
			},
		],
		default: 'get',
	},
	...get.description,
	...reindex.description,
	...sync.description,
];
