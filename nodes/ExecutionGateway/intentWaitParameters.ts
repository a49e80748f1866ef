/**
 * The parameters of Intent > Get / Execute's wait (description only; the wait itself is
 * intentWait.ts). Version 1.2 on: the wait parameters of the Orchestration node (same names, top
 * level); versions 1-1.1 keep theirs in "Options". The intent resource (actions/intent/index.ts)
 * composes them around its two operations' own parameters, written once for both.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { dropdown, optionsCollection } from '../n8n/descriptions';
import { waitParameters } from '../n8n/waitParameters';

/** Node versions whose wait parameters are the shared top-level ones. */
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
		optionsCollection({ show: { ...show, '@version': OPTION_WAIT_VERSIONS } }, [...options, ...waitOptionFields]),
		optionsCollection({ show: { ...show, '@version': SHARED_WAIT_VERSIONS } }, options),
	];
}
