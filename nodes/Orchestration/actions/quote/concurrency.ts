/**
 * Concurrency of the Quote operations (Create, Create Offramp, Estimate) when the node sets none:
 * they price and move no funds, and the rate-limit pacer (nodes/n8n/pacing.ts) keeps a batch under
 * the service's limits, lowering it while little remains. Every other operation keeps
 * DEFAULT_CONCURRENCY (5), Order > Submit and Create Onramp among them (they move funds).
 */
import type { INodeProperties } from 'n8n-workflow';
import { concurrencyOption, quoteCreationOptions } from '../../parameters';

export const QUOTE_CONCURRENCY = 50;

export const quoteConcurrencyOption: INodeProperties = {
	...concurrencyOption,
	default: QUOTE_CONCURRENCY,
	description: `How many items are sent to the service at the same time (default ${QUOTE_CONCURRENCY}: quotes move no funds, and items wait for the service's rate limits). Output order always follows the input.`,
};

/** The options of every quote-creating operation with this Concurrency (Create Onramp keeps quoteCreationOptions and 5). */
export const quoteOperationOptions: INodeProperties[] = quoteCreationOptions.map((o) => (o === concurrencyOption ? quoteConcurrencyOption : o));
