/**
 * affiliate.getAll: GET /v1/affiliates?includeDisabled=&limit=&offset=, one item per affiliate
 * profile (orchestration-service.md §2.7, §4.5; paging and includeDisabled from public-notes).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ServiceAccess } from '../../../n8n/orchestrationClient';
import { AFFILIATES_PAGE_MAX } from '../../../shared/orchestration/partnerPlan';
import { limitField, returnAllField, showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { readPages } from '../../paging';

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

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject[]> {
	const includeDisabled = read.parameter('includeDisabled', false) === true;
	return await readPages(read, access, {
		path: '/v1/affiliates',
		member: 'affiliates',
		pageMax: AFFILIATES_PAGE_MAX,
		qs: { includeDisabled },
		requiredScope: 'affiliates:read',
	});
}
