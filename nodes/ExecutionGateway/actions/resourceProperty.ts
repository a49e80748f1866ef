/** The node's Resource dropdown: the description shows it first, and its names label the operations (router.ts). */
import type { INodeProperties } from 'n8n-workflow';

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Intent', value: 'intent' },
		{ name: 'Network', value: 'network' },
	],
	default: 'intent',
};
