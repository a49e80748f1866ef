/**
 * Issue 14 point 2 on n8n-core's real tool path: as an AI-agent tool, Intent > Execute refuses
 * unless "Allow Actions as AI Tool" is on as a fixed value; reads stay available.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ExecutionGateway } from '../../../nodes/ExecutionGateway/ExecutionGateway.node';
import { TOOL_ACTIONS_OPTION } from '../../../nodes/n8n/toolMode';
import { btcTransferId, depositParams, gatewayHarness, run, startGatewayEnv, type GatewayEnv } from '../../harness/gateway';
import { asToolType, callAsTool } from '../../harness/tool';

describe('Execution Gateway as an AI-agent tool', () => {
	let env: GatewayEnv;
	beforeAll(async () => {
		env = await startGatewayEnv();
	});
	afterAll(async () => {
		await env.close();
	});
	beforeEach(() => env.proxy.reset());

	const executeAsTool = async (extra: INodeParameters = {}, args: IDataObject = {}) => {
		const sparkTransferId = btcTransferId();
		await env.registerTransfer({ sparkTransferId, amount: '5000' });
		const parameters = { ...depositParams([{ sparkTransferId, amount: '5000' }]), ...extra };
		return await callAsTool(gatewayHarness(env, parameters), new ExecutionGateway(), parameters, args);
	};

	it('the option exists only on the tool variant, as a fixed boolean that is off', () => {
		const option = asToolType(new ExecutionGateway()).description.properties.find((p) => p.name === TOOL_ACTIONS_OPTION);
		expect(option).toMatchObject({ type: 'boolean', default: false, noDataExpression: true, displayOptions: { show: { '@tool': [true] } } });
	});

	it('refuses Intent > Execute by default: nothing is signed or sent', async () => {
		const call = await executeAsTool();
		expect(call.toolNode.type).toBe('CUSTOM.executionGatewayTool');
		expect(call.error?.message).toMatch(/Intent > Execute is not available to an AI agent: "Allow Actions as AI Tool" is off/);
		expect(env.proxy.requests).toEqual([]);
		expect(await env.intents()).toEqual([]);
	});

	it('refuses when the option is an expression (a model could set it through $fromAI)', async () => {
		const call = await executeAsTool({ [TOOL_ACTIONS_OPTION]: "={{ $fromAI('allow', '', 'boolean') }}" }, { allow: true });
		expect(call.error?.message).toMatch(/it is an expression; it must be a fixed value/);
		expect(env.proxy.to('/api/v1/execute')).toEqual([]);
	});

	it('runs Intent > Execute when the option is on as a fixed value', async () => {
		const call = await executeAsTool({ [TOOL_ACTIONS_OPTION]: true });
		expect(call.error).toBeUndefined();
		expect(call.result?.[0]).toMatchObject({ status: 'ACCEPTED' });
		expect(env.proxy.to('/api/v1/execute')).toHaveLength(1);
	});

	it('read operations stay available to agents', async () => {
		const info = await callAsTool(gatewayHarness(env, {}), new ExecutionGateway(), { resource: 'network', operation: 'getInfo', options: {} });
		expect(info.error).toBeUndefined();
		expect(info.result?.[0]).toHaveProperty('minDepositSats');
		const [submitted] = await run(gatewayHarness(env, depositParams([{ sparkTransferId: await registered(env), amount: '5000' }])));
		const get = await callAsTool(gatewayHarness(env, {}), new ExecutionGateway(), { resource: 'intent', operation: 'get', submissionId: submitted.submissionId as string, options: {} });
		expect(get.error).toBeUndefined();
		expect(get.result?.[0]).toMatchObject({ submissionId: submitted.submissionId });
	});

	it('the same node outside tool mode is unaffected', async () => {
		const [out] = await run(gatewayHarness(env, depositParams([{ sparkTransferId: await registered(env), amount: '5000' }])));
		expect(out.status).toBe('ACCEPTED');
	});
});

async function registered(env: GatewayEnv): Promise<string> {
	const sparkTransferId = btcTransferId();
	await env.registerTransfer({ sparkTransferId, amount: '5000' });
	return sparkTransferId;
}
