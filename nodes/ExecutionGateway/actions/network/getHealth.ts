/** network.getHealth: GET /api/v1/health (execution-gateway.md §4; body not shown, passed through). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { gatewayApiRequest } from '../../transport';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const { body } = await gatewayApiRequest.call(this, 'GET', '/api/v1/health', undefined, {
		itemIndex: i,
	});
	// A 2xx answer means alive; a body that is not an object is kept as text.
	if (body !== null && typeof body === 'object' && !Array.isArray(body))
		return { healthy: true, ...(body as IDataObject) };
	return { healthy: true, body: body === undefined ? null : String(body) };
}
