/**
 * Intent > Get / Execute's wait until FINALIZED or EXPIRED (execution-gateway.md §3; §6: no events,
 * so it polls) on the one wait of both nodes (nodes/n8n/wait.ts): it stops on Stop and reports its
 * outcome as an execution hint. Its parameters, by node version, are intentWaitParameters.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import { isFinalIntentStatus } from '../shared/gateway/responses';
import type { ItemReader } from '../n8n/items';
import { ItemError } from '../n8n/errors';
import { cancelSignalOf, reportWait, waitHint, waitUntilFinal } from '../n8n/wait';
import { toolWaitCap, waitSettingsOf } from '../n8n/waitParameters';
import { fetchIntent } from './gateway';
import { SHARED_WAIT_VERSION } from './intentWaitParameters';

export interface WaitOptions {
	waitUntilFinal: boolean;
	pollIntervalMs: number;
	timeoutMs: number;
	onTimeout: 'error' | 'returnLast';
	/** Version 1.2 on: the output always says how the wait ended (waitEndedBy, waitTimedOut). */
	shared: boolean;
}

/** Versions 1-1.1: the wait options from an options collection; the interval is at least one second. */
export function waitOptionsOf(options: IDataObject): WaitOptions {
	const seconds = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
	return {
		waitUntilFinal: options.waitUntilFinal === true,
		pollIntervalMs: Math.max(1, seconds(options.pollInterval, 5)) * 1000,
		timeoutMs: Math.max(1, seconds(options.waitTimeout, 300)) * 1000,
		onTimeout: options.onTimeout === 'returnLast' ? 'returnLast' : 'error',
		shared: false,
	};
}

/** The item's wait, wherever its node version keeps the parameters. */
export function waitOptionsFor(read: ItemReader): WaitOptions {
	if (read.ctx.getNode().typeVersion < SHARED_WAIT_VERSION) {
		const old = waitOptionsOf(read.options);
		return { ...old, timeoutMs: toolWaitCap(read, old.timeoutMs) };
	}
	const s = waitSettingsOf(read);
	const onTimeout = s.onTimeout === 'returnLastState' ? 'returnLast' : 'error';
	return {
		waitUntilFinal: s.waitUntilFinal,
		pollIntervalMs: s.intervalMs,
		timeoutMs: s.timeoutMs,
		onTimeout,
		shared: true,
	};
}

/** The intent to follow: its gateway, its submission id, and its last known status (if any). */
export interface SubmittedIntent {
	gatewayUrl: string;
	submissionId: string;
	last?: IDataObject;
}

/** Polls until FINALIZED or EXPIRED (§3), starting from `last` when the caller already has a status. */
export async function waitForFinal(read: ItemReader, intent: SubmittedIntent, wait: WaitOptions): Promise<IDataObject> {
	const { gatewayUrl, submissionId, last } = intent;
	const { ctx, itemIndex } = read;
	const end = await waitUntilFinal({
		first: last ?? (await fetchIntent(read, gatewayUrl, submissionId)),
		read: async () => await fetchIntent(read, gatewayUrl, submissionId),
		endOf: (current) => (isFinalIntentStatus(current.status) ? 'final' : undefined),
		intervalMs: wait.pollIntervalMs,
		deadline: Date.now() + wait.timeoutMs,
		// The last poll lands on the deadline rather than after it.
		lastReadOnDeadline: true,
		signal: cancelSignalOf(ctx),
	});
	reportWait(ctx, waitHint(`Item ${itemIndex}: intent ${submissionId}`, end, String(end.state.status)), end.endedBy, false);
	const outcome = wait.shared ? { waitEndedBy: end.endedBy, waitTimedOut: end.endedBy !== 'final' } : { waitTimedOut: true };
	if (end.endedBy === 'final') return wait.shared ? { ...end.state, ...outcome } : end.state;
	if (wait.onTimeout === 'returnLast') return { ...end.state, ...outcome };
	const timeoutSetting = wait.shared ? 'Timeout (Seconds)' : 'Wait Timeout';
	const onTimeoutSetting = wait.shared ? 'On Timeout' : 'On Wait Timeout';
	throw new ItemError(ctx.getNode(), `Intent ${submissionId} is still ${String(end.state.status)} after ${Math.round(wait.timeoutMs / 1000)} s of waiting`, {
		itemIndex,
		description: `Raise "${timeoutSetting}", or set "${onTimeoutSetting}" to return the last status and look it up later with Intent > Get.`,
		errorCode: 'wait_timeout',
	});
}
