import type { FastifyReply } from 'fastify';

/**
 * A gateway rejection. The gateway's error body is "not shown" (execution-gateway.md §7), so the
 * sandbox answers like the orchestration service: `{error: {code, message}}`.
 */
export class GatewayApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
	) {
		super(message);
		this.name = 'GatewayApiError';
	}
}

export const rejectAdmission = (code: string, message: string): GatewayApiError => new GatewayApiError(400, code, message);
export const conflict = (code: string, message: string): GatewayApiError => new GatewayApiError(409, code, message);
export const unauthorized = (code: string, message: string): GatewayApiError => new GatewayApiError(401, code, message);
export const notFound = (message: string): GatewayApiError => new GatewayApiError(404, 'not_found', message);

export function sendGatewayError(reply: FastifyReply, err: GatewayApiError): FastifyReply {
	return reply.code(err.status).send({ error: { code: err.code, message: err.message } });
}
