/**
 * The wait parameters both action nodes show in their newest versions, with the same names, place
 * (top level, under the operation) and minimum interval: Wait Until Final, Poll Interval (Seconds),
 * Timeout (Seconds), On Timeout. Orchestration versions 1-2 stored these very names; Execution
 * Gateway versions 1-1.1 keep theirs inside "Options" (nodes/ExecutionGateway/gateway.ts).
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { intervalMsOf, MIN_WAIT_INTERVAL_SECONDS, TOOL_WAIT_MAX_MS } from '../shared/waitRules';
import { isToolMode } from './toolMode';
import { dropdown } from './descriptions';
import type { ItemReader } from './items';

export const DEFAULT_INTERVAL_SECONDS = 5;
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 600;

type Show = NonNullable<IDisplayOptions['show']>;

/** `waitUntilFinal`, then (shown once it is on) the interval, the timeout and what a timeout does. */
export function waitParameters(show: Show, untilWhat: string, between: INodeProperties[] = []): INodeProperties[] {
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
			description: 'How long to wait at most (at most 1 hour when an AI agent runs the node as a tool). For waits of hours, end the node early and loop through n8n\'s Wait node instead (see the README).',
			displayOptions: whenWaiting,
		},
		...between.map((p) => ({ ...p, displayOptions: p.displayOptions ?? whenWaiting })),
		dropdown(
			[
				['Error', 'error', 'Fail the item (or give an error item with Continue On Fail)'],
				['Return Last State', 'returnLastState', 'Output the last status read, with waitTimedOut set to true'],
			],
			{ displayName: 'On Timeout', name: 'onTimeout', displayOptions: whenWaiting },
		),
	];
}

/** A wait's timeout, at most TOOL_WAIT_MAX_MS when the node runs as an AI-agent tool. */
export function toolWaitCap(read: ItemReader, timeoutMs: number): number {
	return isToolMode(read.ctx) ? Math.min(timeoutMs, TOOL_WAIT_MAX_MS) : timeoutMs;
}

export interface WaitSettings {
	waitUntilFinal: boolean;
	intervalMs: number;
	timeoutMs: number;
	onTimeout: 'error' | 'returnLastState';
}

/** The top-level wait parameters of one item (never an interval below the minimum). */
export function waitSettingsOf(read: ItemReader): WaitSettings {
	const timeout = Number(read.parameter('waitTimeoutSeconds', DEFAULT_WAIT_TIMEOUT_SECONDS));
	return {
		waitUntilFinal: read.parameter('waitUntilFinal', false) === true,
		intervalMs: intervalMsOf(Number(read.parameter('pollIntervalSeconds', DEFAULT_INTERVAL_SECONDS)) || undefined, MIN_WAIT_INTERVAL_SECONDS, MIN_WAIT_INTERVAL_SECONDS),
		timeoutMs: toolWaitCap(read, Math.max(0, Number.isFinite(timeout) ? timeout : 0) * 1000),
		onTimeout: read.parameter('onTimeout', 'error') === 'returnLastState' ? 'returnLastState' : 'error',
	};
}
