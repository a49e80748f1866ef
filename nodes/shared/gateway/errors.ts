/**
 * Input errors of the gateway protocol core: the core's one error (field, reason, message). The n8n
 * glue turns them into an item error and the sandbox into `{error: {code, message}}`; messages never
 * repeat secret input (keys, tokens).
 */
import { ProtocolError } from '../errors';

export class GatewayInputError extends ProtocolError {
	/** Name of the offending input (`privateKey`, `deposits[0].amount`, ...). */
	declare readonly field: string;
	/** Machine-readable reason (`invalid_hex`, `wrong_length`, `out_of_range`, ...). */
	declare readonly reason: string;

	constructor(field: string, reason: string, message: string) {
		super(message, { field, reason });
		this.name = 'GatewayInputError';
	}
}
