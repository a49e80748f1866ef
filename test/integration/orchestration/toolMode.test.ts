/**
 * Issue 14 point 2 on n8n-core's real tool path: as an AI-agent tool the Orchestration node refuses
 * Submit, Create Onramp and Webhook > Create unless "Allow Actions as AI Tool" is on as a fixed
 * value; quotes and reads stay available.
 */
import type { INodeParameters } from 'n8n-workflow';

import { Orchestration } from '../../../nodes/Orchestration/Orchestration.node';
import { TOOL_ACTIONS_OPTION } from '../../../nodes/n8n/toolMode';
import type { Sandbox } from '../../../sandbox';
import { asToolType, callAsTool } from '../gateway/toolHarness';
import { control, orchestrationNode, quoteParams, SERVER_KEY, startTestSandbox } from './helpers';

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
		['Affiliate > Claim', { resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha' }],
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

	it('quotes and reads stay available to agents', async () => {
		const quote = await asTool(quoteParams());
		expect(quote.error).toBeUndefined();
		expect(quote.result?.[0]).toHaveProperty('quoteId');
		const routes = await asTool({ resource: 'route', operation: 'getAll', returnAll: false, limit: 3 });
		expect(routes.error).toBeUndefined();
		expect(routes.result?.length).toBeGreaterThan(0);
	});
});
