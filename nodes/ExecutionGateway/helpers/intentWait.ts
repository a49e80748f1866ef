/**
 * Intent > Get / Execute's wait until FINALIZED or EXPIRED (execution-gateway.md §3; §6: no events,
 * so it polls) on the one wait of both nodes (nodes/n8n/wait.ts): it stops on Stop and reports its
 * outcome as an execution hint; its parameters by node version.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { isFinalIntentStatus } from '../../shared/gateway/responses';
import { dropdown, optionsCollection } from '../../n8n/descriptions';
import { ItemError } from '../../n8n/errors';
import { optionsOf } from '../../n8n/items';
import { cancelSignalOf } from '../../n8n/transport';
import {
	firstRead,
	reportWait,
	toolWaitCap,
	waitHint,
	waitParameters,
	waitSettingsOf,
	waitUntilFinal,
} from '../../n8n/wait';
import { fetchIntent } from './gateway';

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
	const seconds = (v: unknown, fallback: number) =>
		typeof v === 'number' && Number.isFinite(v) ? v : fallback;
	return {
		waitUntilFinal: options.waitUntilFinal === true,
		pollIntervalMs: Math.max(1, seconds(options.pollInterval, 5)) * 1000,
		timeoutMs: Math.max(1, seconds(options.waitTimeout, 300)) * 1000,
		onTimeout: options.onTimeout === 'returnLast' ? 'returnLast' : 'error',
		shared: false,
	};
}

/** The item's wait, wherever its node version keeps the parameters. */
export function waitOptionsFor(ctx: IExecuteFunctions, itemIndex: number): WaitOptions {
	if (ctx.getNode().typeVersion < SHARED_WAIT_VERSION) {
		const old = waitOptionsOf(optionsOf(ctx, itemIndex));
		return { ...old, timeoutMs: toolWaitCap(ctx, old.timeoutMs) };
	}
	const s = waitSettingsOf(ctx, itemIndex);
	const onTimeout = s.onTimeout === 'returnLastState' ? 'returnLast' : 'error';
	return {
		waitUntilFinal: s.waitUntilFinal,
		pollIntervalMs: s.intervalMs,
		timeoutMs: s.timeoutMs,
		onTimeout,
		shared: true,
	};
}

/** The intent to follow: its submission id, and its last known status (if any). */
export interface SubmittedIntent {
	submissionId: string;
	last?: IDataObject;
}

/** Polls until FINALIZED or EXPIRED (§3), starting from `last` when the caller already has a status. */
export async function waitForFinal(
	ctx: IExecuteFunctions,
	itemIndex: number,
	intent: SubmittedIntent,
	wait: WaitOptions,
): Promise<IDataObject> {
	const { submissionId, last } = intent;
	const signal = cancelSignalOf(ctx);
	const end = await waitUntilFinal({
		first:
			last ??
			(await firstRead(signal, async () => await fetchIntent(ctx, itemIndex, submissionId))),
		read: async () => await fetchIntent(ctx, itemIndex, submissionId),
		endOf: (current) => (isFinalIntentStatus(current.status) ? 'final' : undefined),
		intervalMs: wait.pollIntervalMs,
		deadline: Date.now() + wait.timeoutMs,
		// The last poll lands on the deadline rather than after it.
		lastReadOnDeadline: true,
		signal,
	});
	reportWait(
		ctx,
		waitHint(`Item ${itemIndex}: intent ${submissionId}`, end, String(end.state.status)),
		end.endedBy,
		false,
	);
	const outcome = wait.shared
		? { waitEndedBy: end.endedBy, waitTimedOut: end.endedBy !== 'final' }
		: { waitTimedOut: true };
	if (end.endedBy === 'final') return wait.shared ? { ...end.state, ...outcome } : end.state;
	if (wait.onTimeout === 'returnLast') return { ...end.state, ...outcome };
	const timeoutSetting = wait.shared ? 'Timeout (Seconds)' : 'Wait Timeout';
	const onTimeoutSetting = wait.shared ? 'On Timeout' : 'On Wait Timeout';
	throw new ItemError(
		ctx.getNode(),
		`Intent ${submissionId} is still ${String(end.state.status)} after ${Math.round(wait.timeoutMs / 1000)} s of waiting`,
		{
			itemIndex,
			description: `Raise "${timeoutSetting}", or set "${onTimeoutSetting}" to return the last status and look it up later with Intent > Get.`,
			errorCode: 'wait_timeout',
		},
	);
}

// ---------------------------------------------------------------- the wait's parameters by node version

export const SHARED_WAIT_VERSION = 1.2;
export const SHARED_WAIT_VERSIONS = [{ _cnd: { gte: SHARED_WAIT_VERSION } }];
export const OPTION_WAIT_VERSIONS = [{ _cnd: { lt: SHARED_WAIT_VERSION } }];

/** The top-level wait parameters of version 1.2 on, for intent.execute and intent.get. */
export const sharedWaitParameters: INodeProperties[] = waitParameters(
	{
		resource: ['intent'],
		operation: ['execute', 'get'],
		'@version': SHARED_WAIT_VERSIONS,
	},
	'the intent is FINALIZED or EXPIRED',
);

/** Versions 1-1.1: options of intent.execute and intent.get (inside their "Options" collection). */
export const waitOptionFields: INodeProperties[] = [
	{
		displayName: 'Wait Until Final',
		name: 'waitUntilFinal',
		type: 'boolean',
		default: false,
		description: 'Whether to poll the intent until it is FINALIZED or EXPIRED before returning',
	},
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollInterval',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 5,
		description: 'With Wait Until Final: seconds between two status lookups (at least 1)',
	},
	{
		displayName: 'Wait Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 300,
		description: 'With Wait Until Final: how long to wait for a final state',
	},
	dropdown(
		[
			['Fail the Item', 'error', 'Raise an error naming the last status'],
			['Return Last Status', 'returnLast', 'Output the last status seen, with waitTimedOut: true'],
		],
		{
			displayName: 'On Wait Timeout',
			name: 'onTimeout',
			description: 'With Wait Until Final: what happens when the intent is not final in time',
		},
	),
];

/** "Options" of an operation that waits: with the wait options in versions 1-1.1; from 1.2 the wait parameters are top level. */
export function optionsWithWait(show: IDataObject, options: INodeProperties[]): INodeProperties[] {
	return [
		optionsCollection({ show: { ...show, '@version': OPTION_WAIT_VERSIONS } }, [
			...options,
			...waitOptionFields,
		]),
		optionsCollection({ show: { ...show, '@version': SHARED_WAIT_VERSIONS } }, options),
	];
}
