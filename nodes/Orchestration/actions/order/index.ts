import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationModule } from '../types';
import * as createOnramp from './createOnramp';
import * as getStatus from './getStatus';
import * as submit from './submit';
import * as acceptZeroconfOffer from './acceptZeroconfOffer';
import * as declineZeroconfOffer from './declineZeroconfOffer';
import * as getByQuote from './getByQuote';
import * as approveReprice from './approveReprice';
import * as rejectReprice from './rejectReprice';
import * as refundReprice from './refundReprice';

/** This resource in the Resource dropdown. */
export const resource: INodePropertyOptions = {
	name: 'Order',
	value: 'order',
	description: 'Submit orders, create onramps and follow their status',
};

export const operations: Record<string, OperationModule> = {
	createOnramp,
	getStatus,
	submit,
	acceptZeroconfOffer,
	declineZeroconfOffer,
	getByQuote,
	approveReprice,
	rejectReprice,
	refundReprice,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['order'] } },
		options: [
			{
				name: 'Accept ZeroConf Offer',
				value: 'acceptZeroconfOffer',
				action: 'Accept the zeroconf offer of an order',
				description:
					'Take the instant ZeroConf offer on a Bitcoin deposit of an order in awaiting_approval',
			},
			{
				name: 'Approve Reprice',
				value: 'approveReprice',
				action: 'Approve the new price of an order',
				description:
					'Let an order in awaiting_approval go on at the new price, with the least it may deliver',
			},
			{
				name: 'Create Onramp',
				value: 'createOnramp',
				action: 'Create a lightning onramp',
				description: 'Buy an asset with Bitcoin paid over Lightning (BOLT11 invoice)',
			},
			{
				name: 'Decline ZeroConf Offer',
				value: 'declineZeroconfOffer',
				action: 'Decline the zeroconf offer of an order',
				description:
					'Refuse the ZeroConf offer: the order waits for one on-chain confirmation instead',
			},
			{
				name: 'Get by Quote',
				value: 'getByQuote',
				action: 'Get a quote and its order',
				description:
					'Whether a quote was paid (funded) and its order, without an error while it is unpaid',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				action: 'Get the status of an order',
				description: 'Read an order by order ID or quote ID, optionally waiting until it is final',
			},
			{
				name: 'Refund Reprice',
				value: 'refundReprice',
				action: 'Refund an order instead of approving its new price',
				description:
					'Send the deposit of a Bitcoin-source order in awaiting_approval back instead of approving the new price',
			},
			{
				name: 'Reject Reprice',
				value: 'rejectReprice',
				action: 'Reject the new price of an order',
				description: 'Refuse the new price of an order in awaiting_approval: the order fails',
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
	...acceptZeroconfOffer.description,
	...declineZeroconfOffer.description,
	...getByQuote.description,
	...approveReprice.description,
	...rejectReprice.description,
	...refundReprice.description,
];
