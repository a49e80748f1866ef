/**
 * accumulationAddress.reindex (deprecated): POST /v1/accumulation-addresses/{idOrAddress}/reindex
 * (orchestration-service.md §2.8, §4.4); the path takes the ID or the deposit address.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { optionsCollection } from '../../../n8n/descriptions';
import { explicitIdempotencyKey } from '../../../shared/orchestration/idempotency';
import { idempotencyKeyOption, showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { idempotencyKeyFor } from '../../idempotencyKey';

const show = showFor('accumulationAddress', ['reindex']);

/** An action: it changes state at the service, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

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

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const idOrAddress = read.pathSegment('idOrAddress');
	const explicitKey = explicitIdempotencyKey(read.idempotencyKey());
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'POST',
		path: `/v1/accumulation-addresses/${idOrAddress}/reindex`,
		idempotencyKey: idempotencyKeyFor(read, { operation: 'accumulationAddress.reindex', body: { idOrAddress }, explicitKey }),
		requiredScope: 'accumulation:create',
		itemIndex: read.itemIndex,
	});
	return res.body;
}
