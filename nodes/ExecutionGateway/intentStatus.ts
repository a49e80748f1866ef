/**
 * Intent status (execution-gateway.md §2.3, §3): lookup by submission id with the parsed reason of
 * an EXPIRED intent, and waiting until a final state by polling (§6: no events, status is polled).
 */
import { NodeApiError, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { isFinalIntentStatus, IntentStatusSchema, normalizeIntentStatus, statusReasonOf } from '../shared/gateway/responses';
import { ItemError } from '../transport/nodeErrors';
import { waitUntilFinal } from '../transport/waitUntilFinal';
import { joinUrl } from '../transport/request';
import { authenticatedCall } from './gateway';

/** §2.3 fields (unknown ones passed through) plus `statusReason` for an EXPIRED intent. */
export function intentStatusOutput(ctx: IExecuteFunctions, body: unknown, itemIndex: number): IDataObject {
	const result = IntentStatusSchema.safeParse(body);
	if (!result.success) {
		const issue = result.error.issues[0];
		const message = `The gateway's intent status is not the §2.3 shape (${issue.path.join('.') || 'body'}: ${issue.message})`;
		throw new NodeApiError(ctx.getNode(), { message }, { message, itemIndex });
	}
	// The spec's spelling in the output, whatever case the gateway answers in (issue 10).
	const out: IDataObject = { ...(result.data as IDataObject), status: normalizeIntentStatus(result.data.status) as string };
	if (out.status === 'EXPIRED') out.statusReason = statusReasonOf(result.data.statusMessage) as IDataObject | null;
	return out;
}

export async function fetchIntent(ctx: IExecuteFunctions, gatewayUrl: string, submissionId: string, itemIndex: number): Promise<IDataObject> {
	const res = await authenticatedCall<unknown>(ctx, {
		method: 'GET',
		url: joinUrl(gatewayUrl, `/api/v1/intents/${encodeURIComponent(submissionId)}`),
		itemIndex,
	});
	return intentStatusOutput(ctx, res.body, itemIndex);
}

export interface WaitOptions {
	waitUntilFinal: boolean;
	pollIntervalMs: number;
	timeoutMs: number;
	onTimeout: 'error' | 'returnLast';
}

/** Options shared by intent.execute and intent.get (inside their "Options" collection). */
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
	{
		displayName: 'On Wait Timeout',
		name: 'onTimeout',
		type: 'options',
		options: [
			{ name: 'Fail the Item', value: 'error', description: 'Raise an error naming the last status' },
			{ name: 'Return Last Status', value: 'returnLast', description: 'Output the last status seen, with waitTimedOut: true' },
		],
		default: 'error',
		description: 'With Wait Until Final: what happens when the intent is not final in time',
	},
];

/** Reads the wait options from an options collection; the interval is at least one second. */
export function waitOptionsOf(options: IDataObject): WaitOptions {
	const seconds = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
	return {
		waitUntilFinal: options.waitUntilFinal === true,
		pollIntervalMs: Math.max(1, seconds(options.pollInterval, 5)) * 1000,
		timeoutMs: Math.max(1, seconds(options.waitTimeout, 300)) * 1000,
		onTimeout: options.onTimeout === 'returnLast' ? 'returnLast' : 'error',
	};
}

/** The intent to follow: its gateway, its submission id, and its last known status (if any). */
export interface SubmittedIntent {
	gatewayUrl: string;
	submissionId: string;
	last?: IDataObject;
}

/** Polls until FINALIZED or EXPIRED (§3), starting from `last` when the caller already has a status. */
export async function waitForFinal(ctx: IExecuteFunctions, itemIndex: number, intent: SubmittedIntent, wait: WaitOptions): Promise<IDataObject> {
	const { gatewayUrl, submissionId, last } = intent;
	const end = await waitUntilFinal({
		first: last ?? (await fetchIntent(ctx, gatewayUrl, submissionId, itemIndex)),
		read: async () => await fetchIntent(ctx, gatewayUrl, submissionId, itemIndex),
		endOf: (current) => (isFinalIntentStatus(current.status) ? 'final' : undefined),
		intervalMs: wait.pollIntervalMs,
		deadline: Date.now() + wait.timeoutMs,
		// The last poll lands on the deadline rather than after it.
		lastReadOnDeadline: true,
	});
	if (end.endedBy === 'final') return end.state;
	if (wait.onTimeout === 'returnLast') return { ...end.state, waitTimedOut: true };
	throw new ItemError(ctx.getNode(), `Intent ${submissionId} is still ${String(end.state.status)} after ${Math.round(wait.timeoutMs / 1000)} s of waiting`, {
		itemIndex,
		description: 'Raise "Wait Timeout", or set "On Wait Timeout" to return the last status and look it up later with Intent > Get.',
		errorCode: 'wait_timeout',
	});
}
