// The one error of the protocol core: a message, the offending field and a machine reason. The n8n
// glue (nodes/n8n/errors.ts) turns it into n8n's error with the item index and a hint.
// Zod issues of a request or an answer become the same error (parseRequest, parseWithSchema).
import type { ZodError, ZodIssue, ZodType, ZodTypeDef } from 'zod';

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

/** How a value is named in a message: "null", "an array", "an object", "a boolean"... */
export function describeValue(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
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

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `['appFees', 3, 'feeBps']` -> `appFees[3].feeBps`; keys that are not identifiers are quoted. */
export function formatZodPath(path: ReadonlyArray<string | number>): string {
	let out = '';
	for (const part of path) {
		if (typeof part === 'number') out += `[${part}]`;
		else if (IDENTIFIER.test(part)) out += out === '' ? part : `.${part}`;
		else out += `[${JSON.stringify(part)}]`;
	}
	return out === '' ? '(root)' : out;
}

/**
 * A union reports only "Invalid input"; when exactly one branch got past the type check at the
 * union's own path, its issues say what is actually wrong.
 */
function expandIssue(issue: ZodIssue): ZodIssue[] {
	if (issue.code !== 'invalid_union') return [issue];
	const depth = issue.path.length;
	const plausible = issue.unionErrors.filter(
		(e) => !e.issues.every((i) => i.code === 'invalid_type' && i.path.length === depth),
	);
	if (plausible.length !== 1) return [issue];
	return plausible[0].issues.flatMap(expandIssue);
}

/** `"<path>: <message>"` per issue, joined by "; ", duplicates removed. */
export function formatZodError(err: ZodError): string {
	const lines: string[] = [];
	for (const issue of err.issues.flatMap(expandIssue)) {
		const line = `${formatZodPath(issue.path)}: ${issue.message}`;
		if (!lines.includes(line)) lines.push(line);
	}
	return lines.join('; ');
}

/**
 * Parses `value` with `schema` or throws a ProtocolError whose message starts with `what`
 * (e.g. "Invalid quote request") and lists every issue.
 */
export function parseWithSchema<Output, Input>(
	schema: ZodType<Output, ZodTypeDef, Input>,
	value: unknown,
	what: string,
	reason = 'invalid_shape',
): Output {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	const first = result.error.issues[0];
	return fail(
		`${what}: ${formatZodError(result.error)}`,
		first ? formatZodPath(first.path) : undefined,
		reason,
	);
}

function fail(message: string, field: string | undefined, reason: string): never {
	throw new ProtocolError(message, { field, reason });
}

function issueText(issue: ZodIssue): string {
	if (issue.code === 'invalid_enum_value') {
		return `"${String(issue.received)}" is not one of ${issue.options.map(String).join(', ')}`;
	}
	return issue.message;
}

/** Parses a request or throws a ProtocolError naming its first wrong field (the others listed after it). */
export function parseRequest<Output, Input>(
	schema: ZodType<Output, ZodTypeDef, Input>,
	value: unknown,
): Output {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	const [first, ...rest] = result.error.issues;
	const others = rest.map((i) => `${formatZodPath(i.path)}: ${issueText(i)}`);
	const problem = issueText(first) + (others.length ? ` (also: ${others.join('; ')})` : '');
	throw new ProtocolError(problem, { field: formatZodPath(first.path), reason: 'invalid_request' });
}
