// The one error of the protocol core: a message, the offending field and a machine reason. The n8n
// glue (nodes/transport/nodeErrors.ts) turns it into n8n's error with the item index and a hint.

export interface ProtocolErrorOptions {
	field?: string;
	reason?: string;
	cause?: unknown;
}

export class ProtocolError extends Error {
	field?: string;
	reason?: string;

	constructor(message: string, options: ProtocolErrorOptions = {}) {
		super(message, options.cause === undefined ? undefined : { cause: options.cause });
		this.name = 'ProtocolError';
		if (options.field !== undefined) this.field = options.field;
		if (options.reason !== undefined) this.reason = options.reason;
	}
}

/** Runs a rule about one input; its ProtocolError names `field` (rules such as textInput do not know it). */
export function inField<T>(field: string, rule: () => T): T {
	let failure: unknown;
	try {
		return rule();
	} catch (error) {
		failure = error;
	}
	if (!(failure instanceof ProtocolError)) throw failure;
	throw new ProtocolError(failure.message, { field, reason: failure.reason, cause: failure });
}
