/**
 * Parameters without an expression are resolved by n8n once per node run (runParameters.ts); with
 * an expression anywhere inside, once per item. The context is n8n-core's real ExecuteContext.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { holdsExpression, getNodeParameter as runParameter } from '../../../nodes/n8n/items';
import { core, createHarness } from '../../harness/n8n';
import { Orchestration } from '../../../nodes/Orchestration/Orchestration.node';

/** n8n-core's context of one node run over `items`, with every getNodeParameter call counted by name. */
function nodeRun(parameters: INodeParameters, items: INodeExecutionData[]) {
	const h = createHarness({ nodeType: new Orchestration(), credentialTypes: [], credentials: {}, parameters, executionId: 'exec-run-parameters' });
	const inputData = { main: [items] };
	const ctx = new core.ExecuteContext(h.workflow, h.node, h.additionalData, 'manual', { resultData: { runData: {} } } as never, 0, items, inputData, { node: h.node, data: inputData, source: null }, []);
	const calls = new Map<string, number>();
	const resolve = ctx.getNodeParameter.bind(ctx);
	Object.defineProperty(ctx, 'getNodeParameter', {
		value: (name: string, ...rest: unknown[]) => {
			calls.set(name, (calls.get(name) ?? 0) + 1);
			return (resolve as (...a: unknown[]) => unknown)(name, ...rest);
		},
	});
	return { ctx, calls };
}

const items = Array.from({ length: 4 }, (_, i) => ({ json: { n: i } }));
const PARAMETERS: INodeParameters = {
	resource: 'quote',
	operation: 'create',
	sourceChain: 'base',
	amount: '={{ 100 + $json.n }}',
	options: { slippageBps: 50, affiliateIds: { affiliate: [{ affiliateId: '={{ "a" + $json.n }}' }] } },
};

describe('runParameter', () => {
	it('resolves a value without an expression once per node run, the same value for every item', () => {
		const { ctx, calls } = nodeRun(PARAMETERS, items);
		const values = items.map((_, i) => runParameter(ctx, 'sourceChain', i, ''));
		expect(values).toEqual(['base', 'base', 'base', 'base']);
		expect(calls.get('sourceChain')).toBe(1);
		expect(items.map((_, i) => runParameter(ctx, 'options.slippageBps', i, 0))).toEqual([50, 50, 50, 50]);
		expect(calls.get('options.slippageBps')).toBe(1);
	});

	it('resolves a value with an expression anywhere inside for every item', () => {
		const { ctx, calls } = nodeRun(PARAMETERS, items);
		expect(items.map((_, i) => runParameter(ctx, 'amount', i, ''))).toEqual([100, 101, 102, 103]);
		expect(calls.get('amount')).toBe(4);
		const options = items.map((_, i) => runParameter(ctx, 'options', i, {}) as { affiliateIds: { affiliate: Array<{ affiliateId: string }> } });
		expect(options.map((o) => o.affiliateIds.affiliate[0].affiliateId)).toEqual(['a0', 'a1', 'a2', 'a3']);
		expect(calls.get('options')).toBe(4);
	});

	it('an absent value is its fallback, resolved once per fallback', () => {
		const { ctx, calls } = nodeRun(PARAMETERS, items);
		expect(items.map((_, i) => runParameter(ctx, 'options.onRateLimit', i, 'wait'))).toEqual(['wait', 'wait', 'wait', 'wait']);
		expect(runParameter(ctx, 'options.onRateLimit', 0, 'fail')).toBe('fail');
		expect(calls.get('options.onRateLimit')).toBe(2);
	});

	it('a new node run resolves again', () => {
		const first = nodeRun({ ...PARAMETERS, sourceChain: 'base' }, items);
		const second = nodeRun({ ...PARAMETERS, sourceChain: 'arbitrum' }, items);
		expect(runParameter(first.ctx, 'sourceChain', 0, '')).toBe('base');
		expect(runParameter(second.ctx, 'sourceChain', 0, '')).toBe('arbitrum');
	});

	it('holdsExpression looks inside objects and arrays', () => {
		expect(holdsExpression('base')).toBe(false);
		expect(holdsExpression('={{ 1 }}')).toBe(true);
		expect(holdsExpression({ a: [{ b: 'x' }, { c: '={{ $fromAI("c") }}' }] })).toBe(true);
		expect(holdsExpression({ a: [1, true, null, { b: 'x' }] })).toBe(false);
	});
});
