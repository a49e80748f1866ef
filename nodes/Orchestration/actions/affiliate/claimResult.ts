/** What Claim and Get Claim share: a claim read back (GET /v1/affiliates/{affiliateId}/claims/{claimId} → `{claim}`, public-notes), its amount made readable, its wait. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ItemError } from '../../../n8n/errors';
import { getNodeParameter, itemFailure } from '../../../n8n/items';
import { DEFAULT_WAIT_TIMEOUT_SECONDS, waitParameters, waitSettingsOf } from '../../../n8n/wait';
import { withFormattedAmounts } from '../../../shared/orchestration/amounts';
import {
	claimAmountAssetOf,
	claimIdOf,
	claimRecordOf,
	type ClaimRecord,
} from '../../../shared/orchestration/claims';
import { claimPath } from '../../../shared/orchestration/partnerPlan';
import type { RoutesCatalogue } from '../../../shared/orchestration/routesCatalogue';
import { followClaim } from '../../helpers/claimWait';
import { catalogueFor } from '../../helpers/routes';
import { orchestrationApiRequest } from '../../transport';

/** Wait Until Final and its settings, on Claim and on Get Claim (the names Get Status stores). */
export function claimWaitParameters(operation: 'claim' | 'getClaim'): INodeProperties[] {
	return waitParameters(
		{ resource: ['affiliate'], operation: [operation] },
		'the claim is paid (it has a txHash) or has failed (an error that is not retried), reading it again every Poll Interval',
	);
}

/** `amount` with `amountFormatted` when its chain and asset (the settlement's, or the older chain/asset) are in the routes listing. */
export function formattedClaim(
	claim: IDataObject,
	catalogue: RoutesCatalogue | undefined,
): IDataObject {
	const { chain, asset } = claimAmountAssetOf(claim);
	const decimals = catalogue?.find(chain, asset)?.decimals;
	return withFormattedAmounts(claim, { amount: decimals });
}

/** One claim read back; an answer that holds no claim record is an error of the item. */
export async function readClaim(
	ctx: IExecuteFunctions,
	i: number,
	affiliateId: string,
	claimId: string,
): Promise<ClaimRecord> {
	const res = await orchestrationApiRequest.call(
		ctx,
		'GET',
		claimPath(affiliateId, claimId),
		undefined,
		{ hints: { not_found: CLAIM_NOT_FOUND_HINT }, itemIndex: i },
	);
	const claim = claimRecordOf(res.body);
	if (claim === undefined)
		throw new ItemError(ctx.getNode(), `The answer for claim ${claimId} holds no claim`, {
			itemIndex: i,
		});
	return claim;
}

const CLAIM_NOT_FOUND_HINT =
	'No claim with this ID exists for this affiliate: check both IDs (Affiliate > Get Claims lists the claims; a claim\'s ID is its "id").';

/** The claims as output items, formatted and, with Wait Until Final, followed until paid or failed (a timeout fails the item unless On Timeout says otherwise). */
export async function claimOutputs(
	ctx: IExecuteFunctions,
	i: number,
	affiliateId: string,
	claims: ClaimRecord[],
	extra: IDataObject = {},
): Promise<IDataObject[]> {
	const settings = waitSettingsOf(ctx, i);
	const startedAt = Date.now();
	const deadline = startedAt + settings.timeoutMs;
	const outputs: IDataObject[] = [];
	for (const first of claims) {
		let claim = first;
		const wait: IDataObject = {};
		if (settings.waitUntilFinal) {
			const claimId = claimIdOf(first);
			if (claimId === undefined) {
				throw itemFailure(ctx, i, 'The claim answer has no "id" to follow', {
					description:
						'Turn off "Wait Until Final" and read the claim later with Affiliate > Get Claims.',
				});
			}
			const end = await followClaim({
				ctx,
				itemIndex: i,
				first,
				read: async () => await readClaim(ctx, i, affiliateId, claimId),
				settings,
				startedAt,
				deadline,
			});
			claim = end.state;
			if (end.endedBy === 'timeout' && settings.onTimeout !== 'returnLastState') {
				const timeoutSeconds =
					Number(getNodeParameter(ctx, 'waitTimeoutSeconds', i, DEFAULT_WAIT_TIMEOUT_SECONDS)) || 0;
				throw itemFailure(
					ctx,
					i,
					`Claim ${claimId} is still "${String(claim.status ?? 'processing').slice(0, 40)}" after waiting ${timeoutSeconds} s (wait timeout): it is not paid yet`,
					{
						description:
							'The claim goes on at the service. Read it later with Affiliate > Get Claim, raise "Timeout (Seconds)", or set "On Timeout" to Return Last State.',
					},
				);
			}
			Object.assign(wait, { waitEndedBy: end.endedBy, waitTimedOut: end.endedBy === 'timeout' });
		}
		outputs.push({ ...(claim as IDataObject), ...extra, ...wait });
	}
	const catalogue = outputs.length > 0 ? await catalogueFor(ctx, i, false) : undefined;
	return outputs.map((o) => formattedClaim(o, catalogue));
}
