/** affiliate.getClaims: GET /v1/affiliates/{affiliateId}/claims?limit=&offset=, one item per claim (public-notes; server key). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { affiliatePath, CLAIMS_PAGE_MAX } from '../../../shared/orchestration/partnerPlan';
import { limitField, returnAllField, showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import type { OperationEnv } from '../types';
import { formattedClaim } from './claim';
import { affiliateIdField } from './shared';

const show = showFor('affiliate', ['getClaims']);

export const description: INodeProperties[] = [affiliateIdField(show, 'The affiliate whose claims are listed'), returnAllField(show), limitField(show)];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, { service }: OperationEnv): Promise<IDataObject[]> {
	const affiliateId = read.textParameter('affiliateId');
	const path = read.plan(() => affiliatePath(affiliateId, '/claims'));
	const claims = await service.pages({ path, member: 'claims', pageMax: CLAIMS_PAGE_MAX });
	const catalogue = claims.length > 0 ? await service.catalogue(false) : undefined;
	return claims.map((claim) => formattedClaim(claim, catalogue));
}
