/**
 * Input errors of the gateway protocol core. The n8n glue turns them into NodeOperationError and
 * the sandbox into `{error: {code, message}}`; messages never repeat secret input (keys, tokens).
 */
export class GatewayInputError extends Error {
	/** Name of the offending input (`privateKey`, `deposits[0].amount`, ...). */
	readonly field: string;
	/** Machine-readable reason (`invalid_hex`, `wrong_length`, `out_of_range`, ...). */
	readonly reason: string;

	constructor(field: string, reason: string, message: string) {
		super(message);
		this.name = 'GatewayInputError';
		this.field = field;
		this.reason = reason;
	}
}
