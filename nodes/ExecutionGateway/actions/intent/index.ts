import type { INodeProperties } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as execute from './execute';
import * as get from './get';
import { sharedWaitParameters } from '../../intentWait';

export const operations: Record<string, OperationModule> = { execute, get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['intent'] } },
		options: [
			{
				name: 'Execute',
				value: 'execute',
				description: 'Sign an intent with the keypair and submit it',
				action: 'Execute an intent',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get the status of an intent by its submission ID',
				action: 'Get an intent',
			},
		],
		default: 'execute',
	},
	...execute.description,
	...get.description,
	...sharedWaitParameters,
];
