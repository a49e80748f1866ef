/**
 * affiliate.claim: POST /v1/affiliates/{affiliateId}/claim, no body: claims the whole available
 * balance (the 80 % share, at least 1 USDC), settled where the fees accrued (public-notes; server
 * key). It moves money: refused as an AI tool unless allowed (router TOOL_ACTIONS); the key is
 * derived from the execution, node and item, so n8n's Retry On Fail replays the first claim.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { withFormattedAmounts } from '../../../shared/orchestration/amounts';
import { affiliatePath } from '../../../shared/orchestration/partnerPlan';
import { showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import type { RoutesCatalogue } from '../../service';
import type { OperationEnv } from '../types';
import { affiliateIdField } from './shared';

const show = showFor('affiliate', ['claim']);

export const description: INodeProperties[] = [
	affiliateIdField(show, 'The affiliate whose whole available balance is claimed (paid to its payout address)'),
	{
		displayName:
			'Claim pays out money. It is idempotent within one execution (Retry On Fail replays the first claim); running the workflow again claims what has accrued since.',
		name: 'claimNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
];

/** `amount` with `amountFormatted` when its chain and asset are in the routes listing (the package's ...Formatted amounts). */
export function formattedClaim(claim: IDataObject, catalogue: RoutesCatalogue | undefined): IDataObject {
	const chain = typeof claim.chain === 'string' ? claim.chain : undefined;
	const asset = typeof claim.asset === 'string' ? claim.asset : undefined;
	const decimals = catalogue?.find(chain, asset)?.decimals;
	return withFormattedAmounts(claim, { amount: decimals });
}

/** One item per claim record of the answer (`claims` or `claim`), else the answer as is. */
export function claimRecords(body: IDataObject): IDataObject[] {
	if (Array.isArray(body?.claims)) return body.claims as IDataObject[];
	if (typeof body?.claim === 'object' && body.claim !== null) return [body.claim as IDataObject];
	return [body];
}

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, { service }: OperationEnv): Promise<IDataObject[]> {
	const affiliateId = read.textParameter('affiliateId');
	const path = read.plan(() => affiliatePath(affiliateId, '/claim'));
	const res = await service.request<IDataObject>({
		method: 'POST',
		path,
		idempotencyKey: service.idempotencyKey({ operation: 'affiliate.claim', body: { affiliateId } }),
	});
	const catalogue = await service.catalogue(false);
	const replayed = String(res.headers['x-idempotency-replayed'] ?? '') === 'true';
	return claimRecords(res.body).map((claim) => ({ ...formattedClaim(claim, catalogue), ...(replayed ? { replayed } : {}) }));
}
