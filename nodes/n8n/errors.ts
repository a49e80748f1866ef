/**
 * n8n's errors of this package, made here and nowhere else. Two kinds: an ItemError is a failure n8n
 * raises itself (bad input, a refused state, a wait that ended, a credential refused before any
 * request), a ServiceError is the service's answer (or its silence, or an answer the node cannot use).
 * The core's one error, ProtocolError (field, reason, message), is translated once, where the per-item
 * loop catches it (itemErrorOf): it names the field and the item. The machine code travels in a typed
 * field, read by the loop for continueOnFail output.
 */
import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';
import { ProtocolError } from '../shared/errors';

export interface ItemErrorOptions {
	/** The item the failure is of; none for a failure of the whole run (the credential, the operation chosen). */
	itemIndex?: number;
	description?: string;
	/** The service's code for the same failure (e.g. the gateway's admission code), when it has one. */
	errorCode?: string;
}

/** A failure that n8n raised, not the service: bad input, a refused network state, a wait timeout. */
export class ItemError extends NodeOperationError {
	readonly errorCode?: string;

	constructor(node: INode, message: string, options: ItemErrorOptions = {}) {
		super(node, message, { itemIndex: options.itemIndex, description: options.description });
		// n8n tells node errors apart by name (n8n-core WorkflowExecute.rethrowNodeError), not by class.
		this.name = 'NodeOperationError';
		this.errorCode = options.errorCode;
	}
}

export interface ServiceErrorOptions {
	message: string;
	itemIndex?: number;
	description?: string;
	httpCode?: string;
	/** The service's machine code (`error.code` of the body); undefined when it sent none. */
	errorCode?: string;
	/** Attempts made: more than one means an earlier attempt may have acted. */
	attempts?: number;
}

/** The service answered with an error, could not be reached, or answered what the node cannot use. */
export class ServiceError extends NodeApiError {
	readonly errorCode?: string;
	readonly attempts?: number;

	constructor(node: INode, errorResponse: JsonObject, options: ServiceErrorOptions) {
		const { errorCode, attempts, ...shown } = options;
		super(node, errorResponse, shown);
		// n8n tells node errors apart by name (n8n-core WorkflowExecute.rethrowNodeError), not by class.
		this.name = 'NodeApiError';
		this.errorCode = errorCode;
		this.attempts = attempts;
	}
}

/** Thrown when the execution is stopped during a wait (nodes/n8n/wait.ts); the loop makes it the item's error. */
export class WaitStopped extends Error {
	constructor() {
		super('The wait was stopped: the execution was cancelled');
	}
}

/** One wrong field of an item: its name, what is wrong, and the service's code for the same mistake. */
export interface FieldMistake {
	field: string;
	problem: string;
	errorCode?: string;
}

/** `Invalid "<field>" in item N: <problem>`, raised before any request leaves. */
export function fieldError(node: INode, itemIndex: number, { field, problem, errorCode }: FieldMistake): ItemError {
	return new ItemError(node, `Invalid "${field}" in item ${itemIndex}: ${problem}`, {
		itemIndex,
		description: `Fix "${field}" for item ${itemIndex}; nothing was sent to the service.`,
		errorCode,
	});
}

/** How a node names the core's fields and codes (the parameter name, the service's code for it). */
export interface FieldNaming {
	field?: (coreField: string) => string;
	errorCode?: (field: string, reason?: string) => string | undefined;
}

/**
 * Any failure of one item as n8n's error, the one translation (the per-item loop's): a core error
 * names its field; a stopped wait says so; n8n's errors pass as they are.
 */
export function itemErrorOf(node: INode, itemIndex: number, error: unknown, naming: FieldNaming = {}): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof ProtocolError && error.field !== undefined) {
		const field = naming.field?.(error.field) ?? error.field;
		return fieldError(node, itemIndex, { field, problem: error.message, errorCode: naming.errorCode?.(error.field, error.reason) });
	}
	if (error instanceof WaitStopped) return new ItemError(node, error.message, { itemIndex });
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/** The machine code of a failure, for the error item of continueOnFail. */
export function errorCodeOf(error: unknown): string | undefined {
	return error instanceof ItemError || error instanceof ServiceError ? error.errorCode : undefined;
}
