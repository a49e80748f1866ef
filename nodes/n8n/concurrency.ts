/**
 * How many items of one run are in flight at once, for both action nodes: one option (Options >
 * Concurrency, stored in users' workflows as `options.concurrency`), one default, one reader.
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
