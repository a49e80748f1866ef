/**
 * Runs a node as an AI-agent tool on n8n-core's real tool path: an agent-like node asks
 * `getInputConnectionData('ai_tool')`, n8n-core wraps the tool node with createNodeAsTool and calls
 * its `execute` through makeHandleToolInvocation on a SupplyDataContext, as n8n 2.41 does.
 */
import {
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeType,
	type INodeTypeDescription,
	type INodeTypes,
} from 'n8n-workflow';

import { core, type NodeHarness } from './n8n';
import { emptyRunData } from './gateway';

/**
 * The synthetic `<name>Tool` type n8n builds from a `usableAsTool` node (packages/cli
 * node-types.ts getByNameAndVersion + tool-generation convertNodeToAiTool): same execute, a
 * description named `...Tool` with no main input and an ai_tool output.
 */
export function asToolType(nodeType: INodeType): INodeType {
	const base = nodeType.description;
	const description: INodeTypeDescription = {
		...base,
		name: `${base.name}Tool`,
		displayName: `${base.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
		properties: [...base.properties, { displayName: 'Description', name: 'toolDescription', type: 'string', default: base.description }],
	};
	delete description.usableAsTool;
	return Object.create(nodeType, { description: { value: description } }) as INodeType;
}

const agentType: INodeType = {
	description: {
		displayName: 'Test Agent',
		name: 'testAgent',
		group: ['transform'],
		version: 1,
		description: 'calls its one tool',
		defaults: { name: 'Agent' },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true }],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
};

export interface ToolCall {
	/** What the tool returned to the agent (JSON text), when it succeeded. */
	result?: IDataObject[];
	error?: Error & IDataObject;
	/** The tool node as it ran (its type ends with `Tool`). */
	toolNode: INode;
}

/** Runs the harness's node as a tool with `parameters`, as an agent's tool call with `args`. */
export async function callAsTool(h: NodeHarness, nodeType: INodeType, parameters: INodeParameters, args: IDataObject = {}): Promise<ToolCall> {
	const toolType = asToolType(nodeType);
	const toolNode: INode = { ...h.node, name: `${h.node.name} Tool`, type: `${h.node.type}Tool` };
	toolNode.parameters = NodeHelpers.getNodeParameters(toolType.description.properties, parameters, true, false, toolNode, toolType.description) ?? parameters;
	const agentNode: INode = { id: 'agent', name: 'Agent', type: 'CUSTOM.testAgent', typeVersion: 1, position: [0, 0], parameters: {} };
	const nodeTypes = {
		getByName: (type: string) => (type.endsWith('Tool') ? toolType : agentType),
		getByNameAndVersion: (type: string) => (type.endsWith('Tool') ? toolType : agentType),
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const workflow = new Workflow({
		id: h.workflow.id,
		name: 'tool harness',
		nodes: [agentNode, toolNode],
		connections: { [toolNode.name]: { [NodeConnectionTypes.AiTool]: [[{ node: agentNode.name, type: NodeConnectionTypes.AiTool, index: 0 }]] } },
		active: false,
		nodeTypes,
		settings: {},
	});
	const call: ToolCall = { toolNode };
	const inputData = { main: [[{ json: {} }]] };
	const ctx = new core.ExecuteContext(workflow, agentNode, h.additionalData, 'manual', emptyRunData(), 0, inputData.main[0], inputData, { node: agentNode, data: inputData, source: null }, []);
	const tools = (await ctx.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Array<{ invoke(a: IDataObject): Promise<unknown> }>;
	const tool = Array.isArray(tools) ? tools[0] : (tools as { invoke(a: IDataObject): Promise<unknown> });
	try {
		const text = await tool.invoke(args);
		call.result = JSON.parse(String(text)) as IDataObject[];
	} catch (error) {
		call.error = error as Error & IDataObject;
	}
	return call;
}
