import type { FastifyReply } from 'fastify';
import type { ZodType, ZodTypeDef } from 'zod';
import { describeZodError } from './wire';

/** An answer with the error body of spec §7: `{error: {code, message}}`. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
		this.name = 'ApiError';
	}
}

export interface ErrorBody {
	error: { code: string; message: string };
}

export function errorBody(code: string, message: string): ErrorBody {
	return { error: { code, message } };
}

export function sendApiError(reply: FastifyReply, err: ApiError): FastifyReply {
	for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
	return reply.code(err.status).send(errorBody(err.code, err.message));
}

export const badRequest = (message: string, code = 'invalid_request'): ApiError => new ApiError(400, code, message);
export const forbidden = (code: string, message: string): ApiError => new ApiError(403, code, message);
export const notFound = (message: string): ApiError => new ApiError(404, 'not_found', message);
export const conflict = (code: string, message: string): ApiError => new ApiError(409, code, message);

/** Parses with one of the sandbox's request schemas (wire.ts); 400 with "field: message" text otherwise. */
export function parseInput<T>(schema: ZodType<T, ZodTypeDef, unknown>, value: unknown, code = 'invalid_request'): T {
	const result = schema.safeParse(value);
	if (!result.success) throw badRequest(describeZodError(result.error), code);
	return result.data;
}
