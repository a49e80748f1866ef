/**
 * accumulationAddress.reindex (deprecated): POST /v1/accumulation-addresses/{idOrAddress}/reindex
 * (orchestration-service.md §2.8, §4.4); the path takes the ID or the deposit address.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { idempotencyKeyFor } from '../../helpers/request';
import { idempotencyKeyOption, optionsCollection, showFor } from '../../helpers/fields';
import { optionsOf, pathParam } from '../../helpers/params';
import { explicitIdempotencyKey } from '../../helpers/quoteInput';
import { orchestrationRequest } from '../../helpers/request';
import type { OperationEnv } from '../types';

const show = showFor('accumulationAddress', ['reindex']);

export const description: INodeProperties[] = [
	{
		displayName: 'ID or Deposit Address',
		name: 'idOrAddress',
		type: 'string',
		required: true,
		default: '',
		description: 'The accumulation address ID or its deposit address',
		displayOptions: show,
	},
	optionsCollection(show, [idempotencyKeyOption]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const idOrAddress = pathParam(this, 'idOrAddress', itemIndex);
	const explicitKey = explicitIdempotencyKey(this, itemIndex, optionsOf(this, itemIndex));
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'POST',
		path: `/v1/accumulation-addresses/${idOrAddress}/reindex`,
		idempotencyKey: idempotencyKeyFor(this, itemIndex, { operation: 'accumulationAddress.reindex', body: { idOrAddress }, explicitKey: explicitKey }),
		itemIndex,
		requiredScope: 'accumulation:create',
	});
	return res.body;
}
