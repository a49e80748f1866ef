/** accumulationAddress.sync (deprecated): POST /v1/accumulation-addresses/sync, no body (orchestration-service.md §2.8, §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { idempotencyKeyFor } from '../../helpers/request';
import { idempotencyKeyOption, optionsCollection, showFor } from '../../helpers/fields';
import { optionsOf } from '../../helpers/params';
import { explicitIdempotencyKey } from '../../helpers/quoteInput';
import { orchestrationRequest } from '../../helpers/request';
import type { OperationEnv } from '../types';

const show = showFor('accumulationAddress', ['sync']);

export const description: INodeProperties[] = [optionsCollection(show, [idempotencyKeyOption])];

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const explicitKey = explicitIdempotencyKey(this, itemIndex, optionsOf(this, itemIndex));
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'POST',
		path: '/v1/accumulation-addresses/sync',
		// §4.4: no body; the key is still derived per item so a retried item reuses it
		idempotencyKey: idempotencyKeyFor(this, itemIndex, { operation: 'accumulationAddress.sync', body: {}, explicitKey: explicitKey }),
		itemIndex,
	});
	return res.body;
}
