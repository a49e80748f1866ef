import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as execute from './execute';
import * as get from './get';
import { optionsCollection } from '../../../n8n/descriptions';
import {
	OPTION_WAIT_VERSIONS,
	optionsWithWait,
	sharedWaitParameters,
	waitOptionFields,
} from '../../helpers/intentWait';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = { name: 'Intent', value: 'intent' };

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
	// Both operations wait: the wait's parameters are written once, here (intentWaitParameters.ts).
	// Versions 1-1.1 keep the wait in Options; 1.2 on shows sharedWaitParameters.
	...execute.description,
	...optionsWithWait(execute.show, execute.optionFields),
	...get.description,
	optionsCollection({ show: { ...get.show, '@version': OPTION_WAIT_VERSIONS } }, waitOptionFields),
	...sharedWaitParameters,
];
