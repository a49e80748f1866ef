/** accumulationAddress.reindex (deprecated): POST /v1/accumulation-addresses/{idOrAddress}/reindex, the ID or the deposit address (orchestration-service.md §2.8, §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { pathParameter } from '../../../n8n/items';
import { explicitIdempotencyKey } from '../../../shared/orchestration/idempotency';
import { idempotencyKeyProperty, showFor } from '../common.descriptions';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import { idempotencyKeyOption } from '../../helpers/parameters';
import { orchestrationApiRequest } from '../../transport';

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
	optionsCollection(show, [idempotencyKeyProperty]),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const idOrAddress = pathParameter(this, 'idOrAddress', i);
	const explicitKey = explicitIdempotencyKey(idempotencyKeyOption(this, i));
	const idempotencyKey = idempotencyKeyFor(this, i, {
		operation: 'accumulationAddress.reindex',
		body: { idOrAddress },
		explicitKey,
	});
	const res = await orchestrationApiRequest.call(
		this,
		'POST',
		`/v1/accumulation-addresses/${idOrAddress}/reindex`,
		undefined,
		{ idempotencyKey, itemIndex: i },
	);
	return res.body;
}
