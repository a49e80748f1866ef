/**
 * An affiliate claim as the service answers it (public-notes "Affiliate management and claims"),
 * read leniently: the newer docs answer `{claim: {id, amount, settlementChain, settlementAsset,
 * payoutChain, payoutAsset, payoutAddress, status, txHash, errorMessage, nextAttemptAt, ...}}`
 * (`status` starts at `processing`); older answers may list `claims[]` or carry the record itself,
 * with `claimId`, `chain` and `asset`. A claim is paid asynchronously: it has ended once it has a
 * `txHash` (paid) or an error that is not retried. Pure.
 */

export type ClaimRecord = Record<string, unknown>;

function isRecord(value: unknown): value is ClaimRecord {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every claim record of an answer: `claim`, else `claims[]`, else the answer itself when it is a record. */
export function claimRecordsOf(body: unknown): ClaimRecord[] {
	if (!isRecord(body)) return [];
	if (isRecord(body.claim)) return [body.claim];
	if (Array.isArray(body.claims)) return body.claims.filter(isRecord);
	return [body];
}

/** The one claim of an answer that reads one claim back (`{claim}`, or the record itself). */
export function claimRecordOf(body: unknown): ClaimRecord | undefined {
	if (!isRecord(body)) return undefined;
	return isRecord(body.claim) ? body.claim : body;
}

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value !== '' ? value : undefined;

/** The claim's identifier: `id` (newer docs), else `claimId`. */
export function claimIdOf(claim: ClaimRecord): string | undefined {
	return text(claim.id) ?? text(claim.claimId);
}

/** The chain and asset `amount` counts in: the balance it settles (`settlementChain`/`settlementAsset`), else the older `chain`/`asset`. */
export function claimAmountAssetOf(claim: ClaimRecord): {
	chain: string | undefined;
	asset: string | undefined;
} {
	return {
		chain: text(claim.settlementChain) ?? text(claim.chain),
		asset: text(claim.settlementAsset) ?? text(claim.asset),
	};
}

/** How a followed claim ended. */
export type ClaimEnd = 'paid' | 'failed';

/** Statuses that say the claim failed for good. The notes name only `processing`; `failed` is the package's reading. */
const FAILED_CLAIM_STATUSES: ReadonlySet<string> = new Set(['failed']);

/**
 * Whether a claim has ended: `paid` once it carries a `txHash`; `failed` when its status is
 * `failed`, or when it carries an `errorMessage` and no `nextAttemptAt` (a failed attempt that is
 * retried carries the time of the next one, and is still under way). Anything else is still being
 * paid, whatever its status says.
 */
export function claimEndOf(claim: ClaimRecord): ClaimEnd | undefined {
	if (text(claim.txHash) !== undefined) return 'paid';
	const status = typeof claim.status === 'string' ? claim.status.toLowerCase() : undefined;
	if (status !== undefined && FAILED_CLAIM_STATUSES.has(status)) return 'failed';
	const retried =
		claim.nextAttemptAt !== undefined && claim.nextAttemptAt !== null && claim.nextAttemptAt !== '';
	if (text(claim.errorMessage) !== undefined && !retried) return 'failed';
	return undefined;
}
