/** List answers: the array member of a body, cut to "Limit" unless "Return All". */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

export function listOf(ctx: IExecuteFunctions, itemIndex: number, body: IDataObject | undefined, member: string): IDataObject[] {
	const list = body?.[member];
	if (!Array.isArray(list)) {
		throw new NodeOperationError(ctx.getNode(), `The answer has no "${member}" list`, { itemIndex });
	}
	return list as IDataObject[];
}

export function limited(ctx: IExecuteFunctions, itemIndex: number, list: IDataObject[]): IDataObject[] {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return list;
	const limit = Math.max(1, Number(ctx.getNodeParameter('limit', itemIndex, 50)) || 50);
	return list.slice(0, limit);
}
