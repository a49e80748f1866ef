/** accumulationAddress.sync (deprecated): POST /v1/accumulation-addresses/sync, no body (orchestration-service.md §2.8, §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { explicitIdempotencyKey } from '../../../shared/orchestration/idempotency';
import { idempotencyKeyProperty, showFor } from '../common.descriptions';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import { idempotencyKeyOption } from '../../helpers/parameters';
import { orchestrationApiRequest } from '../../transport';

const show = showFor('accumulationAddress', ['sync']);

/** An action: it changes state at the service, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [optionsCollection(show, [idempotencyKeyProperty])];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const explicitKey = explicitIdempotencyKey(idempotencyKeyOption(this, i));
	// §4.4: no body; the key is still derived per item so a retried item reuses it
	const idempotencyKey = idempotencyKeyFor(this, i, {
		operation: 'accumulationAddress.sync',
		body: {},
		explicitKey,
	});
	const res = await orchestrationApiRequest.call(
		this,
		'POST',
		'/v1/accumulation-addresses/sync',
		undefined,
		{ idempotencyKey, itemIndex: i },
	);
	return res.body;
}
