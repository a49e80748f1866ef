/**
 * The one "wait until final" of both action nodes, and its parameters (Order > Get Status, Intent > Get / Execute):
 * follow an event stream when the caller offers one, else (or once the stream is refused, closes
 * early or stays silent past the heartbeat gap) read again every interval, until a state ends the
 * wait or the deadline passes. Every sleep and every frame wait stops at once on n8n's Stop (the
 * execution cancel signal), and the outcome is reported with addExecutionHints. The decisions are
 * pure (nodes/shared/waitRules.ts); this file only acts on them.
 */
import {
	sleep,
	type IDisplayOptions,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';
import { statusOfFrame } from '../shared/sse';
import {
	announcesChange,
	HEARTBEAT_GAP_MS,
	intervalMsOf,
	MIN_WAIT_INTERVAL_SECONDS,
	nextFrameWait,
	nextPollDelay,
	STREAM_OPEN_MS,
	streamOpenDeadline,
	TOOL_WAIT_MAX_MS,
} from '../shared/waitRules';
import { dropdown } from './descriptions';
import { getNodeParameter } from './items';
import { isToolMode } from './toolMode';
import { WaitStopped } from './errors';
import type { EventStream } from './eventStream';

/** Tests shorten the heartbeat gap (45 s in use) to see a silent stream dropped quickly, and the opening's bound (10 s). */
export const streamTiming = { heartbeatGapMs: HEARTBEAT_GAP_MS, openMs: STREAM_OPEN_MS };

/** What following by stream gave: the stream, the service's refusal, or why none was opened (nothing was sent). */
export type Followed = EventStream | { refused: string } | { notOpened: string };

export type WaitVia = 'stream' | 'polling';

export interface Wait<S> {
	/** The state already known (the first read). */
	first: S;
	read: () => Promise<S>;
	/** Why this state ends the wait ('final', 'actionRequired', ...), or undefined to keep waiting. */
	endOf: (state: S) => string | undefined;
	intervalMs: number;
	/** Epoch ms after which no further read starts. */
	deadline: number;
	/** Shorten the last sleep so the last read lands on the deadline (else stop when a full interval no longer fits). */
	lastReadOnDeadline: boolean;
	/** n8n's execution cancel signal: Stop ends the wait at once. */
	signal?: AbortSignal;
	/** Opens a live stream of statuses, answered by `openBy` (epoch ms); the wait falls back to polling when it is refused, not opened, or drops. */
	follow?: (openBy: number) => Promise<Followed>;
	/** The status text of a state, compared with the statuses a stream announces. */
	statusOf?: (state: S) => string | undefined;
	/** When the wait began, if an earlier stretch of it already ran (for elapsedMs); else now. */
	startedAt?: number;
}

export interface WaitEnd<S> {
	state: S;
	endedBy: string;
	/** How the wait learnt of the end: the stream, or polling (from the start, or after a fallback). */
	via: WaitVia;
	/** Why the stream was left for polling, when it was. */
	fallback?: string;
	elapsedMs: number;
}

function throwIfStopped(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new WaitStopped();
}

/** The read a wait starts from: Stop landing while it is in flight ends it as WaitStopped too. */
export async function firstRead<S>(
	signal: AbortSignal | undefined,
	read: () => Promise<S>,
): Promise<S> {
	// the read's own error passes on as it came (itemErrorOf makes n8n's error of it later)
	return await read().catch(async (error: unknown) => {
		throwIfStopped(signal);
		return await Promise.reject(error);
	});
}

/** n8n-workflow's sleep, ended early (as WaitStopped) by Stop. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
	throwIfStopped(signal);
	if (!signal) return await sleep(ms);
	await sleep(ms, signal).catch(() => undefined);
	throwIfStopped(signal);
}

/** `missed`: the stream ran (or was tried) for a while, so a change may have gone unseen. */
type StreamOutcome<S> = { end: WaitEnd<S> } | { fallback: string; state: S; missed: boolean };

/** Follows the stream: every announced change is read in full; silence past the gap or an early close means polling. */
async function followStream<S>(
	wait: Wait<S>,
	state: S,
	started: number,
	open: NonNullable<Wait<S>['follow']>,
): Promise<StreamOutcome<S>> {
	const opened = await open(streamOpenDeadline(Date.now(), wait.deadline, streamTiming.openMs));
	throwIfStopped(wait.signal);
	if ('notOpened' in opened) return { fallback: opened.notOpened, state, missed: false };
	if (!('next' in opened))
		return { fallback: `the event stream was refused (${opened.refused})`, state, missed: true };
	const stream = opened;
	const statusOf = wait.statusOf ?? (() => undefined);
	let current = state;
	let lastFrameAt = Date.now();
	try {
		for (;;) {
			const frameWait = nextFrameWait({
				now: Date.now(),
				deadline: wait.deadline,
				lastFrameAt,
				gapMs: streamTiming.heartbeatGapMs,
			});
			const step = frameWait.ms > 0 ? await stream.next(frameWait.ms) : { silent: true as const };
			throwIfStopped(wait.signal);
			if ('silent' in step) {
				if (Date.now() < Math.min(wait.deadline, lastFrameAt + streamTiming.heartbeatGapMs))
					continue;
				if (frameWait.onSilence === 'timeout')
					return {
						end: {
							state: current,
							endedBy: 'timeout',
							via: 'stream',
							elapsedMs: Date.now() - started,
						},
					};
				return {
					fallback: `the event stream was silent for ${streamTiming.heartbeatGapMs / 1000} s (no heartbeat)`,
					state: current,
					missed: true,
				};
			}
			if ('closed' in step)
				return {
					fallback: 'the event stream closed before a final status',
					state: current,
					missed: true,
				};
			if ('broken' in step)
				return {
					fallback: `the event stream broke (${step.broken})`,
					state: current,
					missed: true,
				};
			lastFrameAt = Date.now();
			if (!announcesChange(statusOfFrame(step.frame), statusOf(current))) continue;
			// The stream carries only the status: the state itself comes from a read.
			current = await wait.read();
			const endedBy = wait.endOf(current);
			if (endedBy !== undefined)
				return { end: { state: current, endedBy, via: 'stream', elapsedMs: Date.now() - started } };
		}
	} finally {
		stream.close();
	}
}

/** Follows until final; Stop ends it as WaitStopped, also when it lands while a read or the stream's opening is in flight. */
export async function waitUntilFinal<S>(wait: Wait<S>): Promise<WaitEnd<S>> {
	const outcome = await followUntilFinal(wait).then(
		(end) => ({ end }),
		(error: unknown) => ({ error }),
	);
	if ('end' in outcome) return outcome.end;
	throwIfStopped(wait.signal);
	return await Promise.reject(outcome.error);
}

async function followUntilFinal<S>(wait: Wait<S>): Promise<WaitEnd<S>> {
	const started = wait.startedAt ?? Date.now();
	let state = wait.first;
	let fallback: string | undefined;
	const ended = (endedBy: string): WaitEnd<S> => ({
		state,
		endedBy,
		via: 'polling',
		...(fallback ? { fallback } : {}),
		elapsedMs: Date.now() - started,
	});
	throwIfStopped(wait.signal);
	const firstEnd = wait.endOf(state);
	if (firstEnd !== undefined) return ended(firstEnd);
	if (wait.follow && Date.now() < wait.deadline) {
		const outcome = await followStream(wait, state, started, wait.follow);
		if ('end' in outcome) return outcome.end;
		({ fallback, state } = outcome);
		// Changes may have been missed while the stream failed: read now rather than an interval later.
		if (outcome.missed && Date.now() < wait.deadline) {
			state = await wait.read();
			const end = wait.endOf(state);
			if (end !== undefined) return ended(end);
		}
	}
	for (;;) {
		const delay = nextPollDelay({
			now: Date.now(),
			deadline: wait.deadline,
			intervalMs: wait.intervalMs,
			lastReadOnDeadline: wait.lastReadOnDeadline,
		});
		if (delay === undefined) return ended('timeout');
		await pause(delay, wait.signal);
		state = await wait.read();
		const end = wait.endOf(state);
		if (end !== undefined) return ended(end);
	}
}

/** What the hint says of one wait: the subject (for example "order ord_1"), its end and how it was followed. */
export function waitHint(
	subject: string,
	end: Pick<WaitEnd<unknown>, 'endedBy' | 'via' | 'fallback' | 'elapsedMs'>,
	status: string | undefined,
): string {
	const seconds = (end.elapsedMs / 1000).toFixed(1);
	const how =
		end.via === 'stream'
			? 'followed on the event stream'
			: end.fallback
				? `polled: ${end.fallback}`
				: 'polled';
	const what =
		end.endedBy === 'final'
			? `reached ${status ?? 'a final state'}`
			: end.endedBy === 'timeout'
				? `was still ${status ?? 'not final'} at the wait timeout`
				: end.endedBy === 'actionRequired'
					? `needs an answer (${status ?? 'action required'})`
					: `ended the wait (${end.endedBy})`;
	return `${subject} ${what} after ${seconds} s (${how})`;
}

/** Reports a wait's outcome in n8n's output pane: info when it reached a final state as planned, a warning otherwise. */
export function reportWait(
	ctx: IExecuteFunctions,
	message: string,
	endedBy: string,
	fellBack: boolean,
): void {
	const type = endedBy === 'final' && !fellBack ? 'info' : 'warning';
	// Contexts without hints (an AI agent's tool call in some n8n versions) just skip the report.
	if (typeof ctx.addExecutionHints === 'function')
		ctx.addExecutionHints({ message, type, location: 'outputPane' });
}

// ---------------------------------------------------------------- the wait's parameters

export const DEFAULT_INTERVAL_SECONDS = 5;
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 600;

type Show = NonNullable<IDisplayOptions['show']>;

/** `waitUntilFinal`, then (shown once it is on) the interval, the timeout and what a timeout does. */
export function waitParameters(
	show: Show,
	untilWhat: string,
	between: INodeProperties[] = [],
): INodeProperties[] {
	const whenWaiting: IDisplayOptions = { show: { ...show, waitUntilFinal: [true] } };
	return [
		{
			displayName: 'Wait Until Final',
			name: 'waitUntilFinal',
			type: 'boolean',
			default: false,
			description: `Whether to wait until ${untilWhat}`,
			displayOptions: { show },
		},
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollIntervalSeconds',
			type: 'number',
			typeOptions: { minValue: MIN_WAIT_INTERVAL_SECONDS },
			default: DEFAULT_INTERVAL_SECONDS,
			description: `Time between two status reads when polling; never less than ${MIN_WAIT_INTERVAL_SECONDS} seconds`,
			displayOptions: whenWaiting,
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'waitTimeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_WAIT_TIMEOUT_SECONDS,
			description:
				"How long to wait at most (at most 1 hour when an AI agent runs the node as a tool). For waits of hours, end the node early and loop through n8n's Wait node instead (see the README).",
			displayOptions: whenWaiting,
		},
		...between.map((p) => ({ ...p, displayOptions: p.displayOptions ?? whenWaiting })),
		dropdown(
			[
				['Error', 'error', 'Fail the item (or give an error item with Continue On Fail)'],
				[
					'Return Last State',
					'returnLastState',
					'Output the last status read, with waitTimedOut set to true',
				],
			],
			{ displayName: 'On Timeout', name: 'onTimeout', displayOptions: whenWaiting },
		),
	];
}

/** A wait's timeout, at most TOOL_WAIT_MAX_MS when the node runs as an AI-agent tool. */
export function toolWaitCap(ctx: IExecuteFunctions, timeoutMs: number): number {
	return isToolMode(ctx) ? Math.min(timeoutMs, TOOL_WAIT_MAX_MS) : timeoutMs;
}

export interface WaitSettings {
	waitUntilFinal: boolean;
	intervalMs: number;
	timeoutMs: number;
	onTimeout: 'error' | 'returnLastState';
}

/** The top-level wait parameters of one item (never an interval below the minimum). */
export function waitSettingsOf(ctx: IExecuteFunctions, itemIndex: number): WaitSettings {
	const timeout = Number(
		getNodeParameter(ctx, 'waitTimeoutSeconds', itemIndex, DEFAULT_WAIT_TIMEOUT_SECONDS),
	);
	return {
		waitUntilFinal: getNodeParameter(ctx, 'waitUntilFinal', itemIndex, false) === true,
		intervalMs: intervalMsOf(
			Number(getNodeParameter(ctx, 'pollIntervalSeconds', itemIndex, DEFAULT_INTERVAL_SECONDS)) ||
				undefined,
			MIN_WAIT_INTERVAL_SECONDS,
			MIN_WAIT_INTERVAL_SECONDS,
		),
		timeoutMs: toolWaitCap(ctx, Math.max(0, Number.isFinite(timeout) ? timeout : 0) * 1000),
		onTimeout:
			getNodeParameter(ctx, 'onTimeout', itemIndex, 'error') === 'returnLastState'
				? 'returnLastState'
				: 'error',
	};
}
