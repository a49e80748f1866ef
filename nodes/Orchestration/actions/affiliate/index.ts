import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as claim from './claim';
import * as disable from './disable';
import * as getAll from './getAll';
import * as getClaim from './getClaim';
import * as getClaims from './getClaims';
import * as getPayoutDestinations from './getPayoutDestinations';
import * as upsert from './upsert';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = {
	name: 'Affiliate',
	value: 'affiliate',
	description: 'Registered affiliates of the partner account',
};

export const operations: Record<string, OperationModule> = {
	claim,
	disable,
	getAll,
	getClaim,
	getClaims,
	getPayoutDestinations,
	upsert,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['affiliate'] } },
		options: [
			{
				name: 'Claim',
				value: 'claim',
				action: 'Claim an affiliate balance',
				description:
					'Pay out the available balance of an affiliate, optionally until it is paid (server keys only)',
			},
			{
				name: 'Create or Update',
				value: 'upsert',
				action: 'Create or update an affiliate',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
			},
			{
				name: 'Disable',
				value: 'disable',
				action: 'Disable an affiliate',
				description: 'Stop new quotes from naming an affiliate (server keys only)',
			},
			{
				name: 'Get Claim',
				value: 'getClaim',
				action: 'Get a claim of an affiliate',
				description: 'Read one claim, optionally until it is paid or fails (server keys only)',
			},
			{
				name: 'Get Claims',
				value: 'getClaims',
				action: 'Get the claims of an affiliate',
				description: 'List the claims made for an affiliate (server keys only)',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many affiliates',
				description: 'List the registered affiliates of the partner account',
			},
			{
				name: 'Get Payout Destinations',
				value: 'getPayoutDestinations',
				action: 'Get the payout destinations of affiliates',
				description:
					'List the chains and assets an affiliate can be paid in now (server keys only)',
			},
		],
		default: 'getAll',
	},
	...claim.description,
	...upsert.description,
	...disable.description,
	...getClaim.description,
	...getClaims.description,
	...getPayoutDestinations.description,
	...getAll.description,
];
