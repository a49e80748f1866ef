/** liquidationAddress.getAll (deprecated): GET /v1/liquidation-addresses, one item per address (orchestration-service.md §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { listOf } from '../../../n8n/items';
import { limitField, returnAllField, showFor } from '../common.descriptions';
import { orchestrationApiRequest } from '../../transport';

const show = showFor('liquidationAddress', ['getAll']);

export const description: INodeProperties[] = [returnAllField(show), limitField(show)];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const res = await orchestrationApiRequest.call(
		this,
		'GET',
		'/v1/liquidation-addresses',
		undefined,
		{ itemIndex: i },
	);
	return listOf(this, i, res.body, 'liquidationAddresses');
}
