/** The affiliate ID parameter of the operations on one affiliate. */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

export function affiliateIdField(displayOptions: IDisplayOptions, description: string): INodeProperties {
	return {
		displayName: 'Affiliate ID',
		name: 'affiliateId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'aff_partner_shop',
		description,
		displayOptions,
	};
}
