/** network.getInfo: GET /api/v1/network/info (execution-gateway.md §2.3a, §4), cached 60 s per gateway URL. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { optionsOf } from '../../../n8n/items';
import { getNetworkInfo } from '../../helpers/gateway';

const show = { resource: ['network'], operation: ['getInfo'] };

export const description: INodeProperties[] = [
	optionsCollection({ show }, [
		{
			displayName: 'Force Refresh',
			name: 'forceRefresh',
			type: 'boolean',
			default: false,
			description:
				'Whether to bypass the 60-second cache and send forceRefresh=1 to the gateway, for example after a suspected re-key',
		},
	]),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const info = await getNetworkInfo(this, i, optionsOf(this, i).forceRefresh === true);
	return structuredClone(info) as IDataObject;
}
