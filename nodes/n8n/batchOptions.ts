/**
 * The options that say how a batch runs, for both action nodes: Options > Concurrency (stored in
 * users' workflows as `options.concurrency`; one default, one reader) and, for the operations that
 * send, On Rate Limit / Max Rate Limit Wait (the pacing that honours them is nodes/n8n/pacing.ts).
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** Enough to overlap round trips, few enough to stay polite to the services. */
export const DEFAULT_CONCURRENCY = 5;
export const MAX_CONCURRENCY = 50;

export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
	default: DEFAULT_CONCURRENCY,
	description: 'How many items are sent to the service at the same time. Output order always follows the input.',
};

/** Concurrency from the first item's options (a node-wide setting), `fallback` when unset (DEFAULT_CONCURRENCY), at most MAX_CONCURRENCY. */
export function concurrencyOf(ctx: IExecuteFunctions, fallback = DEFAULT_CONCURRENCY): number {
	if (ctx.getInputData().length === 0) return fallback;
	const raw = (ctx.getNodeParameter('options.concurrency', 0, fallback) as number) ?? fallback;
	const n = Math.floor(Number(raw));
	return Number.isFinite(n) && n >= 1 ? Math.min(n, MAX_CONCURRENCY) : fallback;
}

export const DEFAULT_MAX_WAIT_SECONDS = 300;

/** Options of the operations that send (quote, offramp, onramp, submit). */
export const rateLimitOptions: INodeProperties[] = [
	{
		displayName: 'On Rate Limit',
		name: 'onRateLimit',
		type: 'options',
		default: 'wait',
		options: [
			{ name: 'Fail the Item', value: 'fail', description: 'Fail the item at the first 429 rate_limited, without waiting' },
			{
				name: 'Wait',
				value: 'wait',
				description: "Pace the items by the service's Retry-After and X-RateLimit headers, each item waiting at most Max Rate Limit Wait",
			},
		],
		description: 'What an item does when the service limits the key. Waiting is safe: every retry sends the same idempotency key.',
	},
	{
		displayName: 'Max Rate Limit Wait (Seconds)',
		name: 'maxRateLimitWait',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: DEFAULT_MAX_WAIT_SECONDS,
		description: 'With On Rate Limit = Wait: the longest one item waits for the limit in all; past it the item fails with rate_limited',
	},
];
