/** What Pause and Resume share: PATCH /v1/standing-deposit-addresses/{ref}/enabled {enabled} (public-notes; the path is from public client code, unconfirmed). */
import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { itemFailure, optionsOf, textOption, textParameter } from '../../../n8n/items';
import { isReplayed } from '../../../shared/orchestration/idempotency';
import {
	planStandingEnabled,
	STANDING_ENABLED_PATH,
} from '../../../shared/orchestration/partnerPlan';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import { orchestrationApiRequest } from '../../transport';
import { referenceField } from './createOrGet';

/** A 404 may be the reference, or the unconfirmed path: what to check, and the way around. */
const NOT_FOUND_HINT =
	'Either no instruction has this reference (check it with Standing Deposit Address > Get), or the service does not know this request\'s path: it comes from public client code and is not confirmed by the docs. If Get finds the reference, set Options > "Request Path" to the path the service documents.';

/** The reference, a notice that the path is unconfirmed, and the path override. */
export function enabledSwitchDescription(
	displayOptions: IDisplayOptions,
	verb: 'Pause' | 'Resume',
): INodeProperties[] {
	const effect =
		verb === 'Pause'
			? 'Deposits paid while paused are held, not converted, until you resolve them at the service'
			: 'Deposits paid from now on are converted again';
	return [
		referenceField(displayOptions),
		{
			displayName: `${effect}. The path of this request (PATCH ${STANDING_ENABLED_PATH}) comes from public client code and is not confirmed by the service's docs; if the service answers 404 for a reference that exists, set "Request Path" in Options.`,
			name: 'unconfirmedPathNotice',
			type: 'notice',
			default: '',
			displayOptions,
		},
		optionsCollection(displayOptions, [
			{
				displayName: 'Request Path',
				name: 'requestPath',
				type: 'string',
				default: STANDING_ENABLED_PATH,
				description:
					'Path of the PATCH {"enabled": ...} request under the Base URL; {ref} stands for the encoded reference. Change it only if the service documents another one.',
			},
		]),
	];
}

/** Sends PATCH {enabled} for the item's reference (a key derived from the run, the item, the path and the switch) and checks the answer's `enabled`. */
export async function switchEnabled(
	ctx: IExecuteFunctions,
	i: number,
	enabled: boolean,
): Promise<IDataObject> {
	const reference = textParameter(ctx, 'reference', i);
	const pathTemplate = textOption(optionsOf(ctx, i), 'requestPath') ?? STANDING_ENABLED_PATH;
	const { path, body } = planStandingEnabled(reference, enabled, pathTemplate);
	const idempotencyKey = idempotencyKeyFor(ctx, i, {
		operation: `standingAddress.${enabled ? 'resume' : 'pause'}`,
		body: { reference, path, enabled },
	});
	const res = await orchestrationApiRequest.call(ctx, 'PATCH', path, body as IDataObject, {
		idempotencyKey,
		hints: { not_found: NOT_FOUND_HINT },
		itemIndex: i,
		// the path may be the user's "Request Path": the row is the documented one's
		endpoint: `PATCH ${STANDING_ENABLED_PATH}`,
	});
	const answer =
		typeof res.body === 'object' && res.body !== null && !Array.isArray(res.body) ? res.body : {};
	if (typeof answer.enabled === 'boolean' && answer.enabled !== enabled) {
		throw itemFailure(
			ctx,
			i,
			`The service answered "enabled": ${String(answer.enabled)} to a request to ${enabled ? 'resume' : 'pause'} "${reference}"`,
			{
				description:
					'The instruction did not change as asked. Read it with Standing Deposit Address > Get before relying on it.',
			},
		);
	}
	const replayed = isReplayed(res.headers);
	return { reference, ...answer, ...(replayed ? { replayed } : {}) };
}
