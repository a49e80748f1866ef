/**
 * Issue 14 point 2 on n8n-core's real tool path: as an AI-agent tool the Orchestration node refuses
 * the operations that act unless "Allow Actions as AI Tool" is on as a fixed value; reads stay
 * available. Issue 20: every operation that sends anything but GET is such an action (checked over
 * all operations of both nodes), and the transport refuses a non-GET request from a tool even for
 * an operation the router does not list. The routers derive their lists from each operation's own
 * `toolAction` declaration.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';

import { ExecutionGateway } from '../../../nodes/ExecutionGateway/ExecutionGateway.node';
import { resources as gatewayResources, TOOL_ACTIONS as GATEWAY_TOOL_ACTIONS } from '../../../nodes/ExecutionGateway/actions/router';
import { resources as orchestrationResources, TOOL_ACTIONS } from '../../../nodes/Orchestration/actions/router';

import { Orchestration } from '../../../nodes/Orchestration/Orchestration.node';
import { TOOL_ACTIONS_OPTION } from '../../../nodes/n8n/toolMode';
import type { Sandbox } from '../../../sandbox';
import { asToolType, callAsTool } from '../../harness/tool';
import { control, orchestrationNode, quoteParams, SERVER_KEY, startTestSandbox } from '../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const asTool = async (parameters: INodeParameters) => {
	const all = { authentication: 'serverKey', ...parameters };
	return await callAsTool(orchestrationNode({ sb, key: SERVER_KEY, client: false, parameters: all }), new Orchestration(), all);
};

describe('Orchestration as an AI-agent tool', () => {
	it('the option is a fixed boolean, off, on the tool variant only', () => {
		const option = asToolType(new Orchestration()).description.properties.find((p) => p.name === TOOL_ACTIONS_OPTION);
		expect(option).toMatchObject({ type: 'boolean', default: false, noDataExpression: true, displayOptions: { show: { '@tool': [true] } } });
	});

	it.each([
		['Order > Submit', { resource: 'order', operation: 'submit', quoteId: 'q_1', txHash: `0x${'ab'.repeat(32)}` }],
		['Order > Create Onramp', { resource: 'order', operation: 'createOnramp' }],
		['Webhook > Create', { resource: 'webhook', operation: 'create', url: 'https://attacker.example/hook', options: { outputSecret: true } }],
		['Quote > Create', quoteParams()],
		['Accumulation Address (Deprecated) > Reindex', { resource: 'accumulationAddress', operation: 'reindex', idOrAddress: 'acc_1' }],
		['Accumulation Address (Deprecated) > Sync', { resource: 'accumulationAddress', operation: 'sync' }],
		['Affiliate > Claim', { resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha' }],
		['Affiliate > Claim', { resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', options: { payoutAddress: '0x000000000000000000000000000000000000dead' }, waitUntilFinal: true }],
		['Standing Deposit Address > Pause', { resource: 'standingAddress', operation: 'pause', reference: 'r1' }],
		['Standing Deposit Address > Resume', { resource: 'standingAddress', operation: 'resume', reference: 'r1' }],
		['Webhook > Delete', { resource: 'webhook', operation: 'delete', webhookId: 'wh_1' }],
	])('%s is refused by default, before any request', async (label, parameters) => {
		const call = await asTool(parameters);
		expect(call.toolNode.type).toBe('CUSTOM.orchestrationTool');
		expect(call.error?.message).toContain(`${label} is not available to an AI agent`);
		expect(await control(sb).requests()).toEqual([]);
	});

	it('an expression does not count as allowing', async () => {
		const call = await asTool({ resource: 'webhook', operation: 'create', url: 'https://x.example/h', [TOOL_ACTIONS_OPTION]: '={{ true }}' });
		expect(call.error?.message).toMatch(/Webhook > Create is not available to an AI agent/);
		expect(await control(sb).requests()).toEqual([]);
	});

	it('Webhook > Create runs when the option is on as a fixed value', async () => {
		const call = await asTool({ resource: 'webhook', operation: 'create', url: 'https://hooks.example/orders', [TOOL_ACTIONS_OPTION]: true });
		expect(call.error).toBeUndefined();
		expect(call.result?.[0]).toHaveProperty('url', 'https://hooks.example/orders');
	});

	it('estimates and reads stay available to agents', async () => {
		const estimate = await asTool({ ...quoteParams(), operation: 'estimate' });
		expect(estimate.error).toBeUndefined();
		const routes = await asTool({ resource: 'route', operation: 'getAll', returnAll: false, limit: 3 });
		expect(routes.error).toBeUndefined();
		expect(routes.result?.length).toBeGreaterThan(0);
		expect((await control(sb).requests()).length).toBeGreaterThan(0);
	});

	it('Accumulation Address > Sync runs when the option is on as a fixed value', async () => {
		const call = await asTool({ resource: 'accumulationAddress', operation: 'sync', [TOOL_ACTIONS_OPTION]: true });
		expect(call.error?.message ?? '').not.toMatch(/not available to an AI agent/);
		expect((await control(sb).requests()).map((r) => `${r.method} ${r.path}`)).toContain('POST /v1/accumulation-addresses/sync');
	});

	it('an operation that does not declare itself an action still sends no POST from a tool: the transport refuses it', async () => {
		const label = TOOL_ACTIONS['accumulationAddress.sync'];
		delete TOOL_ACTIONS['accumulationAddress.sync'];
		try {
			const call = await asTool({ resource: 'accumulationAddress', operation: 'sync' });
			expect(call.error?.message).toContain('A POST request (it changes something at the service) is not available to an AI agent');
			expect(await control(sb).requests()).toEqual([]);
		} finally {
			TOOL_ACTIONS['accumulationAddress.sync'] = label;
		}
	});
});

/**
 * The HTTP methods an operation's own files send (`method: 'POST'`): `<operation>.ts`, the parts
 * it is split into, `<operation><Part>.ts` that are not operations themselves, and the node-level
 * helpers of its resource it imports (intent/execute.ts: ../../helpers/intentSubmit.ts); reads go through GET helpers.
 */
function methodsIn(file: string, operations: string[]): string[] {
	const dir = path.dirname(file);
	const operation = path.basename(file, '.ts');
	const isPart = (f: string) => new RegExp(`^${operation}[A-Z]\\w*\\.ts$`).test(f) && !operations.includes(path.basename(f, '.ts'));
	const parts = fs.readdirSync(dir).filter((f) => f === `${operation}.ts` || isPart(f));
	// Helpers of the same folder the operation imports (e.g. one request shared by two operations).
	const own = fs.readFileSync(path.join(dir, `${operation}.ts`), 'utf8');
	for (const m of own.matchAll(/from '\.\/(\w+)'/g)) {
		if (!operations.includes(m[1]) && fs.existsSync(path.join(dir, `${m[1]}.ts`)) && !parts.includes(`${m[1]}.ts`)) parts.push(`${m[1]}.ts`);
	}
	const resource = path.basename(dir);
	for (const m of own.matchAll(/from '\.\.\/\.\.\/helpers\/(\w+)'/g)) {
		if (m[1].startsWith(resource) && fs.existsSync(path.join(dir, '../../helpers', `${m[1]}.ts`))) parts.push(`../../helpers/${m[1]}.ts`);
	}
	// orchestrationApiRequest.call(this, 'POST', ...) / gatewayApiRequest.call(ctx, 'POST', ...)
	return parts.flatMap((f) => [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/ApiRequest\s*\.call\(\s*\w+,\s*'([A-Z]+)'/g)].map((m) => m[1]));
}

/** `Resource > Operation` as the node shows them. */
function labelOf(node: INodeType, resource: string, operation: string): string {
	const props = node.description.properties;
	const options = (p: INodeProperties | undefined) => (p?.options ?? []) as Array<{ name: string; value: string }>;
	const resourceName = options(props.find((p) => p.name === 'resource')).find((o) => o.value === resource)?.name;
	const operationProp = props.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
	const operationName = options(operationProp).find((o) => o.value === operation)?.name;
	return `${resourceName} > ${operationName}`;
}

describe('the actions derived from the operations\' declarations', () => {
	it('are the ones the option\'s help names, in the node\'s own words', () => {
		const help = (node: INodeType) => String(node.description.properties.find((p) => p.name === TOOL_ACTIONS_OPTION)?.description);
		const named = help(new Orchestration()).match(/service \((.*): they move funds/)?.[1].split(', ');
		expect(new Set(named)).toEqual(new Set(Object.values(TOOL_ACTIONS)));
		expect(named).toHaveLength(Object.keys(TOOL_ACTIONS).length);
		expect(help(new ExecutionGateway())).toContain(`run ${Object.values(GATEWAY_TOOL_ACTIONS).join(', ')} (it signs intents`);
	});
});

describe.each([
	['Orchestration', new Orchestration(), orchestrationResources, TOOL_ACTIONS, 'nodes/Orchestration/actions'],
	['Execution Gateway', new ExecutionGateway(), gatewayResources, GATEWAY_TOOL_ACTIONS, 'nodes/ExecutionGateway/actions'],
])('every operation of %s', (_node, node, resources, toolActions, dir) => {
	const all = Object.entries(resources as Record<string, { operations: object }>).flatMap(([resource, { operations }]) => Object.keys(operations).map((operation) => ({ resource, operation })));

	it('that sends anything but GET is a tool action, named as the node shows it; no read is', () => {
		expect(all.length).toBeGreaterThan(2);
		const root = path.resolve(__dirname, '../../..', dir);
		for (const { resource, operation } of all) {
			const file = path.join(root, resource, `${operation}.ts`);
			expect({ file, exists: fs.existsSync(file) }).toEqual({ file, exists: true });
			const acts = methodsIn(file, Object.keys((resources as Record<string, { operations: object }>)[resource].operations)).some((m) => m !== 'GET' && m !== 'HEAD');
			const key = `${resource}.${operation}`;
			expect({ key, label: toolActions[key] }).toEqual({ key, label: acts ? labelOf(node, resource, operation) : undefined });
		}
	});
});
