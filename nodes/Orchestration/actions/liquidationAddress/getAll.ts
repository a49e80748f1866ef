/** liquidationAddress.getAll (deprecated): GET /v1/liquidation-addresses, one item per address (orchestration-service.md §4.4). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { limitField, returnAllField, showFor } from '../../helpers/fields';
import { limited, listOf } from '../../helpers/lists';
import { orchestrationRequest } from '../../helpers/request';
import type { OperationEnv } from '../types';

const show = showFor('liquidationAddress', ['getAll']);

export const description: INodeProperties[] = [returnAllField(show), limitField(show)];

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject[]> {
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'GET',
		path: '/v1/liquidation-addresses',
		itemIndex,
	});
	return limited(this, itemIndex, listOf(this, itemIndex, res.body, 'liquidationAddresses'));
}
