/** affiliate.getAll: GET /v1/affiliates?includeDisabled=&limit=&offset= (orchestration-service.md §2.7, §4.5; paging and includeDisabled: public-notes). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { getNodeParameter } from '../../../n8n/items';
import { AFFILIATES_PAGE_MAX } from '../../../shared/orchestration/partnerPlan';
import { limitField, returnAllField, showFor } from '../common.descriptions';
import { readPages } from '../../helpers/paging';

const show = showFor('affiliate', ['getAll']);

export const description: INodeProperties[] = [
	returnAllField(show),
	limitField(show),
	{
		displayName: 'Include Disabled',
		name: 'includeDisabled',
		type: 'boolean',
		default: false,
		description: 'Whether to list disabled affiliates too (the service leaves them out by default)',
		displayOptions: show,
	},
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const includeDisabled = getNodeParameter(this, 'includeDisabled', i, false) === true;
	return await readPages(this, i, {
		path: '/v1/affiliates',
		member: 'affiliates',
		pageMax: AFFILIATES_PAGE_MAX,
		qs: { includeDisabled },
	});
}
