/**
 * AI-agent tool mode. n8n 2.41 turns a `usableAsTool` node into a synthetic
 * `<name>Tool` node type (packages/cli tool-generation convertNodeToAiTool) that runs the same
 * `execute`, called by the agent with model-chosen arguments. The node in the workflow keeps the
 * `...Tool` type, so `getNode().type` is the signal (n8n's own `isToolType` reads it the same way).
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ItemError } from './errors';

/** Name of the fixed option that lets an agent run the operations that act (move funds, register, reveal). */
export const TOOL_ACTIONS_OPTION = 'allowActionsAsTool';

/** The answer per context: a node's type does not change within a run, and getNode copies the node on every call. */
const toolModes = new WeakMap<object, boolean>();

/** Whether this node runs as an AI-agent tool: its type is `<package>.<name>Tool`. */
export function isToolMode(ctx: Pick<IExecuteFunctions, 'getNode'>): boolean {
	const known = toolModes.get(ctx);
	if (known !== undefined) return known;
	const type = ctx.getNode().type ?? '';
	const name = type.slice(type.lastIndexOf('.') + 1);
	const toolMode = name.endsWith('Tool') && !name.endsWith('HitlTool');
	toolModes.set(ctx, toolMode);
	return toolMode;
}

/** The option, shown only on the tool variant of the node (`@tool`), never an expression. */
export function toolActionsProperty(actions: string): INodeProperties {
	return {
		displayName: 'Allow Actions as AI Tool',
		name: TOOL_ACTIONS_OPTION,
		type: 'boolean',
		noDataExpression: true,
		default: false,
		displayOptions: { show: { '@tool': [true] } },
		description: `Whether an AI agent may run ${actions} through this tool. Off: only read operations run. Put human review in front of the tool when on.`,
	};
}

/** The option's words for a node whose acting operations are `toolActions` (toolActionsOf). */
export function toolActionsText(toolActions: Record<string, string>): string {
	return `the operations that change something at the service (${Object.values(toolActions).join(', ')}: they move funds, fix where a deposit goes, register or remove a webhook and show its secret, or change state)`;
}

/** A resource of a node as its router sees it: its parameters (the Operation dropdown among them) and its operation modules. */
export interface ResourceModule {
	description: INodeProperties[];
	operations: Record<string, { toolAction?: boolean }>;
}

/**
 * The operations an AI agent may run only with "Allow Actions as AI Tool": those whose module
 * declares `toolAction`, by `<resource>.<operation>`, labelled `Resource > Operation` as the node's
 * dropdowns show them (the label the refusal names).
 */
export function toolActionsOf(
	resourceProperty: INodeProperties,
	resources: Record<string, ResourceModule>,
): Record<string, string> {
	const nameIn = (property: INodeProperties | undefined, value: string) =>
		(property?.options as Array<{ name: string; value: string }> | undefined)?.find(
			(o) => o.value === value,
		)?.name ?? value;
	const actions: Record<string, string> = {};
	for (const [resource, { description, operations }] of Object.entries(resources)) {
		const operationProperty = description.find((p) => p.name === 'operation');
		for (const [operation, module] of Object.entries(operations)) {
			if (module.toolAction === true)
				actions[`${resource}.${operation}`] =
					`${nameIn(resourceProperty, resource)} > ${nameIn(operationProperty, operation)}`;
		}
	}
	return actions;
}

/**
 * Refuses an acting operation in tool mode unless the option is on as a fixed value: the raw
 * parameter must be `true`, so neither an expression nor a `$fromAI()` value chosen by the model counts.
 */
export function assertToolActionAllowed(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	operationLabel: string,
): void {
	if (!isToolMode(ctx)) return;
	const node = ctx.getNode();
	const raw = node.parameters?.[TOOL_ACTIONS_OPTION];
	if (raw === true) return;
	const why =
		typeof raw === 'string' && raw.startsWith('=')
			? ' (it is an expression; it must be a fixed value)'
			: '';
	throw new ItemError(
		node,
		`${operationLabel} is not available to an AI agent: "Allow Actions as AI Tool" is off${why}`,
		{
			description:
				'This operation changes something at the service (it moves funds, fixes where a deposit goes, registers a webhook, reveals a secret or changes state), so an agent may not run it by default. Turn on "Allow Actions as AI Tool" on this tool node (a fixed value, not an expression) and put human review in front of it; read operations stay available.',
		},
	);
}

/**
 * The chosen operation of a node run (resource and operation parameters), refused as an AI-agent
 * tool when it is one of `toolActions` and actions are not allowed.
 */
export function chosenOperation<T>(
	ctx: IExecuteFunctions,
	resources: Record<string, { operations: Record<string, T> }>,
	toolActions: Record<string, string>,
): T {
	const resource = ctx.getNodeParameter('resource', 0) as string;
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const op = resources[resource]?.operations[operation];
	if (op === undefined)
		throw new ItemError(
			ctx.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	const action = toolActions[`${resource}.${operation}`];
	if (action !== undefined) assertToolActionAllowed(ctx, action);
	return op;
}
