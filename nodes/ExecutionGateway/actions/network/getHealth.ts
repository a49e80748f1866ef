/** network.getHealth: GET /api/v1/health (execution-gateway.md §4; body not shown, passed through). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { joinUrl } from '../../../shared/secureUrl';
import type { ItemReader } from '../../../n8n/items';
import { gatewayUrlOf, publicGet } from '../../gateway';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, read: ItemReader): Promise<IDataObject> {
	const gatewayUrl = await gatewayUrlOf(read);
	const body = await publicGet<unknown>(read, joinUrl(gatewayUrl, '/api/v1/health'));
	// A 2xx answer means alive; a body that is not an object is kept as text.
	if (body !== null && typeof body === 'object' && !Array.isArray(body)) return { healthy: true, ...(body as IDataObject) };
	return { healthy: true, body: body === undefined ? null : String(body) };
}
