/** An affiliate claim followed until paid (`txHash`) or failed (nodes/n8n/wait.ts), by polling: the service has no stream of claims. */
import type { IExecuteFunctions } from 'n8n-workflow';
import {
	claimEndOf,
	claimIdOf,
	type ClaimEnd,
	type ClaimRecord,
} from '../../shared/orchestration/claims';
import { cancelSignalOf } from '../../n8n/transport';
import { reportWait, waitUntilFinal, type WaitSettings } from '../../n8n/wait';

export interface ClaimToFollow {
	ctx: IExecuteFunctions;
	itemIndex: number;
	/** The claim as the claim or the first read answered it. */
	first: ClaimRecord;
	read: () => Promise<ClaimRecord>;
	settings: WaitSettings;
	/** When this item's wait began and when it must end (several claims of one answer share them). */
	startedAt: number;
	deadline: number;
}

export interface ClaimWaitResult {
	state: ClaimRecord;
	endedBy: ClaimEnd | 'timeout';
}

/** The hint's words for a claim's end; the service's error text is cut short (it is not ours to print in full). */
function outcomeText(end: ClaimEnd | 'timeout', claim: ClaimRecord): string {
	if (end === 'paid') return `was paid (txHash ${String(claim.txHash).slice(0, 80)})`;
	if (end === 'failed')
		return `failed (${typeof claim.errorMessage === 'string' ? claim.errorMessage.slice(0, 200) : String(claim.status ?? 'failed')})`;
	return `was still ${typeof claim.status === 'string' ? claim.status.slice(0, 40) : 'not paid'} at the wait timeout`;
}

export async function followClaim(c: ClaimToFollow): Promise<ClaimWaitResult> {
	const end = await waitUntilFinal<ClaimRecord>({
		first: c.first,
		read: c.read,
		endOf: claimEndOf,
		intervalMs: c.settings.intervalMs,
		deadline: c.deadline,
		lastReadOnDeadline: true,
		signal: cancelSignalOf(c.ctx),
		startedAt: c.startedAt,
	});
	const endedBy = end.endedBy as ClaimEnd | 'timeout';
	const seconds = (end.elapsedMs / 1000).toFixed(1);
	const message = `Item ${c.itemIndex}: claim ${claimIdOf(end.state) ?? '(no id)'} ${outcomeText(endedBy, end.state)} after ${seconds} s (polled)`;
	reportWait(c.ctx, message, endedBy === 'paid' ? 'final' : endedBy, false);
	return { state: end.state, endedBy };
}
