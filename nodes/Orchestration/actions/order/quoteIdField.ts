/** The Quote ID parameter of the order operations that start from a quote (Submit, Get by Quote). */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

export function quoteIdField(
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties {
	return {
		displayName: 'Quote ID',
		name: 'quoteId',
		type: 'string',
		required: true,
		default: '',
		description,
		displayOptions,
	};
}
