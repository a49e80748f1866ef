import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as createOrGet from './createOrGet';
import * as get from './get';
import * as getDeposits from './getDeposits';
import * as getDestinations from './getDestinations';
import * as pause from './pause';
import * as refundHeldDeposits from './refundHeldDeposits';
import * as resume from './resume';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = {
	name: 'Standing Deposit Address',
	value: 'standingAddress',
	description:
		'Reusable deposit addresses for your own references (server keys only); successor of the deprecated address models',
};

export const operations: Record<string, OperationModule> = {
	createOrGet,
	get,
	getDeposits,
	getDestinations,
	pause,
	refundHeldDeposits,
	resume,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['standingAddress'] } },
		options: [
			{
				name: 'Create or Get',
				value: 'createOrGet',
				action: 'Create or get a standing deposit address',
				description:
					'Create the instruction for your reference, or get the identical one already created (server keys only)',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a standing deposit address',
				description: 'Read the instruction of a reference (server keys only)',
			},
			{
				name: 'Get Deposits',
				value: 'getDeposits',
				action: 'Get the deposits of a standing deposit address',
				description:
					"List the payments to a reference's addresses, newest first, with their orders (server keys only)",
			},
			{
				name: 'Get Destinations',
				value: 'getDestinations',
				action: 'Get standing deposit destinations',
				description:
					'List the chains and assets a standing deposit address can deliver to (server keys only)',
			},
			{
				name: 'Pause',
				value: 'pause',
				action: 'Pause a standing deposit address',
				description:
					'Hold deposits instead of converting them; the address stays assigned (server keys only; path unconfirmed)',
			},
			{
				name: 'Refund Held Deposits',
				value: 'refundHeldDeposits',
				action: 'Refund the held deposits of a standing deposit address',
				description:
					'Send a batch of deposits held while the address was paused back (server keys only; path unconfirmed)',
			},
			{
				name: 'Resume',
				value: 'resume',
				action: 'Resume a standing deposit address',
				description: 'Convert deposits again after a pause (server keys only; path unconfirmed)',
			},
		],
		default: 'createOrGet',
	},
	...createOrGet.description,
	...get.description,
	...getDeposits.description,
	...getDestinations.description,
	...pause.description,
	...refundHeldDeposits.description,
	...resume.description,
];
