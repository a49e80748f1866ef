/** The node's Resource dropdown: the description shows it first, and its names label the operations (router.ts). */
import type { INodeProperties } from 'n8n-workflow';

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Accumulation Address (Deprecated)',
			value: 'accumulationAddress',
			description: 'Legacy standing addresses that accumulate deposits; use standing deposit addresses instead',
		},
		{ name: 'Affiliate', value: 'affiliate', description: 'Registered affiliates of the partner account' },
		{
			name: 'Liquidation Address (Deprecated)',
			value: 'liquidationAddress',
			description: 'Legacy addresses that liquidate Bitcoin deposits; use standing deposit addresses instead',
		},
		{ name: 'Order', value: 'order', description: 'Submit orders, create onramps and follow their status' },
		{ name: 'Quote', value: 'quote', description: 'Price a transfer and get a deposit address' },
		{ name: 'Route', value: 'route', description: 'Assets, the destinations they reach and limits' },
		{
			name: 'Standing Deposit Address',
			value: 'standingAddress',
			description: 'Reusable deposit addresses for your own references (server keys only); successor of the deprecated address models',
		},
		{ name: 'Webhook', value: 'webhook', description: 'Endpoints that receive signed order events' },
	],
	default: 'quote',
};
