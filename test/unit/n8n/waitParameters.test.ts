import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { waitSettingsOf } from '../../../nodes/n8n/wait';
import { TOOL_WAIT_MAX_MS } from '../../../nodes/shared/waitRules';
import { ExecutionGateway } from '../../../nodes/ExecutionGateway/ExecutionGateway.node';
import { Orchestration } from '../../../nodes/Orchestration/Orchestration.node';

const WAIT_NAMES = ['waitUntilFinal', 'pollIntervalSeconds', 'waitTimeoutSeconds', 'onTimeout'];

/** The top-level wait parameters a node shows for `operation`, as [name, type, minValue, values]. */
function waitParametersOf(properties: INodeProperties[], operation: string) {
	return properties
		.filter((p) => WAIT_NAMES.includes(p.name) && (p.displayOptions?.show?.operation as string[] | undefined)?.includes(operation))
		.map((p) => [p.name, p.type, p.typeOptions?.minValue, p.options?.map((o) => ('value' in o ? o.value : undefined))]);
}

describe('both action nodes wait with the same parameters in their newest versions', () => {
	const orchestration = new Orchestration().description;
	const gateway = new ExecutionGateway().description;

	it('Orchestration 3 (Get Status) and Execution Gateway 1.2 (Intent > Get, Execute): same names, place, types, minimum interval', () => {
		expect(orchestration.defaultVersion).toBe(3);
		expect(gateway.defaultVersion).toBe(1.2);
		const order = waitParametersOf(orchestration.properties, 'getStatus');
		expect(order.map(([name]) => name)).toEqual(WAIT_NAMES);
		expect(waitParametersOf(gateway.properties, 'get')).toEqual(order);
		expect(waitParametersOf(gateway.properties, 'execute')).toEqual(order);
		expect(order.find(([name]) => name === 'pollIntervalSeconds')?.[2]).toBe(3);
		expect(order.find(([name]) => name === 'onTimeout')?.[3]).toEqual(['error', 'returnLastState']);
	});

	it("the gateway's top-level wait shows from 1.2 on; versions 1-1.1 keep theirs in Options", () => {
		const top = gateway.properties.find((p) => p.name === 'waitUntilFinal');
		expect(top?.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 1.2 } }]);
		const optionSets = gateway.properties.filter((p) => p.name === 'options' && (p.displayOptions?.show?.operation as string[]).includes('execute'));
		const withWait = optionSets.filter((p) => (p.options as INodeProperties[]).some((o) => o.name === 'waitUntilFinal'));
		expect(withWait.map((p) => p.displayOptions?.show?.['@version'])).toEqual([[{ _cnd: { lt: 1.2 } }]]);
		expect(optionSets).toHaveLength(2);
	});
});

describe('a wait as an AI-agent tool is bounded', () => {
	/** A node run's context as the reader uses it: its type (…Tool as an agent's tool) and stored parameters. */
	const reader = (type: string, parameters: Record<string, unknown>) => {
		const ctx = { getNode: () => ({ type, parameters }), getNodeParameter: (name: string, _i: number, fallback: unknown) => parameters[name] ?? fallback };
		return ctx as unknown as IExecuteFunctions;
	};
	const day = { waitUntilFinal: true, waitTimeoutSeconds: 86_400 };

	it('at most one hour as a tool, whatever Timeout says; as set otherwise', () => {
		expect(TOOL_WAIT_MAX_MS).toBe(3_600_000);
		expect(waitSettingsOf(reader('CUSTOM.orchestrationTool', day), 0).timeoutMs).toBe(3_600_000);
		expect(waitSettingsOf(reader('CUSTOM.orchestration', day), 0).timeoutMs).toBe(86_400_000);
		expect(waitSettingsOf(reader('CUSTOM.orchestrationTool', { ...day, waitTimeoutSeconds: 60 }), 0).timeoutMs).toBe(60_000);
	});
});
