/** affiliate.getClaims: GET /v1/affiliates/{affiliateId}/claims?limit=&offset=, newest first, at most 200 a page (public-notes; server key). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { optionsOf, textOption, textParameter } from '../../../n8n/items';
import { affiliatePath, CLAIMS_PAGE_MAX } from '../../../shared/orchestration/partnerPlan';
import { limitField, returnAllField, showFor } from '../common.descriptions';
import { readPages } from '../../helpers/paging';
import { catalogueFor } from '../../helpers/routes';
import { formattedClaim } from './claimResult';
import { affiliateIdField } from './shared';

const show = showFor('affiliate', ['getClaims']);

export const description: INodeProperties[] = [
	affiliateIdField(show, 'The affiliate whose claims are listed'),
	returnAllField(show),
	limitField(show),
	optionsCollection(show, [
		{
			displayName: 'Settlement Chain Name or ID',
			name: 'settlementChain',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getSourceChains' },
			default: '',
			description:
				'Only claims of balances accrued on this chain. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Settlement Asset',
			name: 'settlementAsset',
			type: 'string',
			default: '',
			placeholder: 'USDC',
			description: 'Only claims of balances accrued in this asset',
		},
	]),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const affiliateId = textParameter(this, 'affiliateId', i);
	const path = affiliatePath(affiliateId, '/claims');
	const options = optionsOf(this, i);
	const qs: IDataObject = {};
	for (const name of ['settlementChain', 'settlementAsset']) {
		const value = textOption(options, name);
		if (value !== undefined) qs[name] = value;
	}
	const claims = await readPages(this, i, { path, member: 'claims', pageMax: CLAIMS_PAGE_MAX, qs });
	const catalogue = claims.length > 0 ? await catalogueFor(this, i, false) : undefined;
	return claims.map((claim) => formattedClaim(claim, catalogue));
}
