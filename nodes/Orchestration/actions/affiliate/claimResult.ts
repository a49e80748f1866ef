/**
 * What Claim and Get Claim share: a claim read back (`GET /v1/affiliates/{affiliateId}/claims/{claimId}`
 * → `{claim}`, public-notes), its amount made readable, and optionally followed until it is paid
 * (`txHash`) or fails, bounded by the wait's timeout (Wait Until Final, as on Get Status).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { ItemError } from '../../../n8n/errors';
import { catalogueFor, orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { withFormattedAmounts } from '../../../shared/orchestration/amounts';
import { claimAmountAssetOf, claimIdOf, claimRecordOf, type ClaimRecord } from '../../../shared/orchestration/claims';
import { claimPath } from '../../../shared/orchestration/partnerPlan';
import { DEFAULT_WAIT_TIMEOUT_SECONDS, waitParameters, waitSettingsOf } from '../../../n8n/waitParameters';
import type { OrchestrationReader } from '../../itemReader';
import { followClaim } from '../../claimWait';
import type { RoutesCatalogue } from '../../../shared/orchestration/routesCatalogue';

/** Wait Until Final and its settings, on Claim and on Get Claim (the names Get Status stores). */
export function claimWaitParameters(operation: 'claim' | 'getClaim'): INodeProperties[] {
	return waitParameters(
		{ resource: ['affiliate'], operation: [operation] },
		'the claim is paid (it has a txHash) or has failed (an error that is not retried), reading it again every Poll Interval',
	);
}

/** `amount` with `amountFormatted` when its chain and asset (the settlement's, or the older chain/asset) are in the routes listing. */
export function formattedClaim(claim: IDataObject, catalogue: RoutesCatalogue | undefined): IDataObject {
	const { chain, asset } = claimAmountAssetOf(claim);
	const decimals = catalogue?.find(chain, asset)?.decimals;
	return withFormattedAmounts(claim, { amount: decimals });
}

/** One claim read back; an answer that holds no claim record is an error of the item. */
export async function readClaim(read: OrchestrationReader, access: ServiceAccess, affiliateId: string, claimId: string): Promise<ClaimRecord> {
	const path = claimPath(affiliateId, claimId);
	const res = await orchestrationRequest<unknown>(read.ctx, access, { method: 'GET', path, hints: { not_found: CLAIM_NOT_FOUND_HINT }, itemIndex: read.itemIndex });
	const claim = claimRecordOf(res.body);
	if (claim === undefined) {
		throw new ItemError(read.ctx.getNode(), `The answer for claim ${claimId} holds no claim`, { itemIndex: read.itemIndex });
	}
	return claim;
}

const CLAIM_NOT_FOUND_HINT =
	'No claim with this ID exists for this affiliate: check both IDs (Affiliate > Get Claims lists the claims; a claim\'s ID is its "id").';

/**
 * The output items of claims: each with its formatted amount and, when Wait Until Final is on,
 * followed until paid or failed (`waitEndedBy` `paid`, `failed` or `timeout`, `waitTimedOut`);
 * a timeout fails the item unless On Timeout is Return Last State.
 */
export async function claimOutputs(
	read: OrchestrationReader,
	access: ServiceAccess,
	affiliateId: string,
	claims: ClaimRecord[],
	extra: IDataObject = {},
): Promise<IDataObject[]> {
	const settings = waitSettingsOf(read);
	const startedAt = Date.now();
	const deadline = startedAt + settings.timeoutMs;
	const outputs: IDataObject[] = [];
	for (const first of claims) {
		let claim = first;
		const wait: IDataObject = {};
		if (settings.waitUntilFinal) {
			const claimId = claimIdOf(first);
			if (claimId === undefined) {
				throw read.failure('The claim answer has no "id" to follow', { description: 'Turn off "Wait Until Final" and read the claim later with Affiliate > Get Claims.' });
			}
			const end = await followClaim({
				ctx: read.ctx,
				itemIndex: read.itemIndex,
				first,
				read: async () => await readClaim(read, access, affiliateId, claimId),
				settings,
				startedAt,
				deadline,
			});
			claim = end.state;
			if (end.endedBy === 'timeout' && settings.onTimeout !== 'returnLastState') {
				const timeoutSeconds = Number(read.parameter('waitTimeoutSeconds', DEFAULT_WAIT_TIMEOUT_SECONDS)) || 0;
				throw read.failure(`Claim ${claimId} is still "${String(claim.status ?? 'processing').slice(0, 40)}" after waiting ${timeoutSeconds} s (wait timeout): it is not paid yet`, {
					description: 'The claim goes on at the service. Read it later with Affiliate > Get Claim, raise "Timeout (Seconds)", or set "On Timeout" to Return Last State.',
				});
			}
			Object.assign(wait, { waitEndedBy: end.endedBy, waitTimedOut: end.endedBy === 'timeout' });
		}
		outputs.push({ ...(claim as IDataObject), ...extra, ...wait });
	}
	const catalogue = outputs.length > 0 ? await catalogueFor(read, access, false) : undefined;
	return outputs.map((o) => formattedClaim(o, catalogue));
}
