/** affiliate.getClaim: GET /v1/affiliates/{affiliateId}/claims/{claimId} → {claim} (public-notes, newer docs; server key). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { textParameter } from '../../../n8n/items';
import { showFor } from '../common.descriptions';
import { claimOutputs, claimWaitParameters, readClaim } from './claimResult';
import { affiliateIdField } from './shared';

const show = showFor('affiliate', ['getClaim']);

export const description: INodeProperties[] = [
	affiliateIdField(show, 'The affiliate the claim belongs to'),
	{
		displayName: 'Claim ID',
		name: 'claimId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'clm_...',
		description:
			"The claim's ID, as Claim and Get Claims output it (map it by expression from a Claim node)",
		displayOptions: show,
	},
	...claimWaitParameters('getClaim'),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const affiliateId = textParameter(this, 'affiliateId', i);
	const claimId = textParameter(this, 'claimId', i);
	const claim = await readClaim(this, i, affiliateId, claimId);
	return await claimOutputs(this, i, affiliateId, [claim]);
}
