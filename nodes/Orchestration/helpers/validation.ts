/** Request validation before anything is sent: the shared zod schemas, reported per field and item. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';
import { parseRequest } from '../../shared/errors';
import { mergeAdditionalFields } from '../../shared/orchestration/inputs';
import { checked } from './params';
import { fieldError, itemErrorOf } from '../../transport/nodeErrors';

/** Parses `value` or throws an error naming the first wrong field and the item. */
export function validateRequest<Output, Input>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	schema: ZodType<Output, ZodTypeDef, Input>,
	value: unknown,
): Output {
	try {
		return parseRequest(schema, value);
	} catch (error) {
		throw itemErrorOf(ctx.getNode(), itemIndex, error);
	}
}

/** The "Additional Body Fields" JSON: an object merged into the body, or nothing. */
export function parseAdditionalFields(ctx: IExecuteFunctions, itemIndex: number, raw: unknown, field = 'additionalFields'): IDataObject {
	if (raw === undefined || raw === null || raw === '') return {};
	let value: unknown = raw;
	if (typeof raw === 'string') {
		try {
			value = JSON.parse(raw);
		} catch {
			throw fieldError(ctx.getNode(), itemIndex, field, 'is not valid JSON');
		}
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw fieldError(ctx.getNode(), itemIndex, field, 'must be a JSON object, e.g. {"zeroconfEnabled": true}');
	}
	return value as IDataObject;
}

/**
 * The operation's own members (blank ones dropped), then the "Additional Fields" JSON: a member
 * colliding with one the operation set is refused, naming it, before anything is sent.
 */
export function withAdditionalFields(ctx: IExecuteFunctions, itemIndex: number, raw: unknown, own: IDataObject): IDataObject {
	const extra = parseAdditionalFields(ctx, itemIndex, raw);
	return checked(ctx, itemIndex, 'additionalFields', () => mergeAdditionalFields(compact(own), extra)) as IDataObject;
}

/** Drops undefined and empty-string members so optional parameters left blank are not sent. */
export function compact(body: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [k, v] of Object.entries(body)) if (v !== undefined && v !== '') out[k] = v;
	return out;
}
