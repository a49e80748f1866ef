/**
 * Parameters that cannot differ between the items of one node run. n8n resolves a parameter anew
 * for every `getNodeParameter` call (a copy of the value, the additional keys, a search of the
 * node's properties to validate it), once per item and field; a value without an expression
 * resolves to the same thing for every item, so it is resolved by n8n once per node run and reused.
 * A value with an expression anywhere inside (`=...`, `$fromAI()` included) goes to n8n for every
 * item, as before. Callers read the values and never change them.
 */
import type { IExecuteFunctions, INodeParameters } from 'n8n-workflow';

interface RunParameters {
	/** The node's stored parameters (n8n's Workflow has already added the defaults it shows). */
	raw: INodeParameters;
	resolved: Map<string, unknown>;
}

/** One entry per node run: n8n makes a new execute context for every run of a node. */
const runs = new WeakMap<object, RunParameters>();

/** Whether a stored value holds an expression anywhere inside (a string starting with "="). */
export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(holdsExpression);
	return false;
}

/** The stored value at a dotted path (`options.concurrency`), undefined when absent. */
function storedAt(parameters: INodeParameters, path: string): unknown {
	let value: unknown = parameters;
	for (const part of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[part];
	}
	return value;
}

/**
 * `ctx.getNodeParameter(name, itemIndex, fallback)`, resolved by n8n once per node run when the
 * stored value (or, when it is absent, the fallback) holds no expression.
 */
export function runParameter(ctx: IExecuteFunctions, name: string, itemIndex: number, fallback: unknown): unknown {
	let run = runs.get(ctx);
	if (run === undefined) {
		run = { raw: ctx.getNode().parameters ?? {}, resolved: new Map() };
		runs.set(ctx, run);
	}
	// Paths with brackets (lodash's `a[0].b`) are not read here: n8n resolves them every time.
	if (name.includes('[')) return ctx.getNodeParameter(name, itemIndex, fallback as never);
	const stored = storedAt(run.raw, name);
	const value = stored === undefined ? fallback : stored;
	if (holdsExpression(value)) return ctx.getNodeParameter(name, itemIndex, fallback as never);
	const key = stored === undefined ? `${name}\u0000${JSON.stringify(fallback) ?? 'undefined'}` : name;
	if (run.resolved.has(key)) return run.resolved.get(key);
	// n8n's own resolution and validation, once; an error is not kept (every item throws it again).
	const resolved = ctx.getNodeParameter(name, itemIndex, fallback as never);
	run.resolved.set(key, resolved);
	return resolved;
}
