/** accumulationAddress.sync (deprecated): POST /v1/accumulation-addresses/sync, no body (orchestration-service.md §2.8, §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { optionsCollection } from '../../../n8n/descriptions';
import { explicitIdempotencyKey } from '../../../shared/orchestration/idempotency';
import { idempotencyKeyOption, showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { idempotencyKeyFor } from '../../idempotencyKey';

const show = showFor('accumulationAddress', ['sync']);

/** An action: it changes state at the service, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [optionsCollection(show, [idempotencyKeyOption])];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const explicitKey = explicitIdempotencyKey(read.idempotencyKey());
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'POST',
		path: '/v1/accumulation-addresses/sync',
		// §4.4: no body; the key is still derived per item so a retried item reuses it
		idempotencyKey: idempotencyKeyFor(read, { operation: 'accumulationAddress.sync', body: {}, explicitKey }),
		itemIndex: read.itemIndex,
	});
	return res.body;
}
