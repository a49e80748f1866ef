/**
 * What n8n's lint checks on literal parameter declarations, checked on the built descriptions, since
 * dropdown() and optionsCollection() hide the literals from the lint: a dropdown's default is one of
 * its values, its rows are sorted by name, a collection's options are sorted by display name, and
 * names are unique among siblings shown together.
 */
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { dropdown, optionsCollection } from '../../../nodes/n8n/descriptions';
import { ExecutionGateway } from '../../../nodes/ExecutionGateway/ExecutionGateway.node';
import { Orchestration } from '../../../nodes/Orchestration/Orchestration.node';
import { OrchestrationTrigger } from '../../../nodes/OrchestrationTrigger/OrchestrationTrigger.node';

type Child = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** Every parameter declaration of a description, nested ones (collections, fixed collections) included. */
function allParameters(properties: Child[], at = ''): Array<{ path: string; p: INodeProperties }> {
	const out: Array<{ path: string; p: INodeProperties }> = [];
	for (const child of properties) {
		if ('values' in child && Array.isArray(child.values)) {
			out.push(...allParameters(child.values, `${at}${child.name}.`));
			continue;
		}
		if (!('type' in child)) continue;
		const p = child as INodeProperties;
		out.push({ path: `${at}${p.name}`, p });
		if ((p.type === 'collection' || p.type === 'fixedCollection') && Array.isArray(p.options)) {
			out.push(...allParameters(p.options as Child[], `${at}${p.name}.`));
		}
	}
	return out;
}

const nodes: Array<[string, INodeTypeDescription]> = [
	['Orchestration', new Orchestration().description],
	['Execution Gateway', new ExecutionGateway().description],
	['Orchestration Trigger', new OrchestrationTrigger().description],
];

const staticDropdowns = nodes.flatMap(([node, d]) =>
	allParameters(d.properties)
		.filter(({ p }) => (p.type === 'options' || p.type === 'multiOptions') && Array.isArray(p.options) && p.options.length > 0)
		.map(({ path, p }) => ({ node, path, p })),
);

const collections = nodes.flatMap(([node, d]) =>
	allParameters(d.properties)
		.filter(({ p }) => p.type === 'collection')
		.map(({ path, p }) => ({ node, path, p })),
);

describe('parameter declarations (what n8n lint checks on literals)', () => {
	it('finds the dropdowns the builders make (the walk is not empty)', () => {
		const names = staticDropdowns.map(({ path }) => path);
		for (const name of ['amountMode', 'deliveryMode', 'amountFormat', 'lookupBy', 'sourceReference', 'options.onTimeout', 'amountType']) {
			expect(names.some((n) => n === name || n.endsWith(`.${name}`))).toBe(true);
		}
		expect(staticDropdowns.length).toBeGreaterThan(20);
		expect(collections.length).toBeGreaterThan(10);
	});

	it.each(staticDropdowns.map((d) => [`${d.node} ${d.path}`, d.p] as const))('%s: the default is one of its values', (_name, p) => {
		const values = (p.options as INodePropertyOptions[]).map((o) => o.value);
		if (p.type === 'multiOptions') {
			expect((p.default as unknown[]).every((v) => values.includes(v as string))).toBe(true);
		} else {
			expect(values).toContain(p.default);
		}
	});

	it.each(
		staticDropdowns
			// Resources and operations: n8n's own lint rules cover them (literals). Trigger events: "All Events"
			// first, then the kinds in the order's lifecycle (spec 6), which reads better than A to Z.
			.filter(({ node, path }) => !['resource', 'operation'].includes(path) && !(node === 'Orchestration Trigger' && path === 'events'))
			.map((d) => [`${d.node} ${d.path}`, d.p] as const),
	)('%s: rows sorted by name', (_name, p) => {
		const names = (p.options as INodePropertyOptions[]).map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	it.each(collections.map((c) => [`${c.node} ${c.path}`, c.p] as const))('%s: options sorted by display name', (_name, p) => {
		const names = (p.options as INodeProperties[]).map((o) => o.displayName);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});
});

describe('dropdown()', () => {
	it('makes an options parameter whose default is the first row unless given, with descriptions only where written', () => {
		const p = dropdown(
			[
				['A', 'a', 'first'],
				['B', 'b'],
			],
			{ displayName: 'X', name: 'x' },
		);
		expect(p).toEqual({
			displayName: 'X',
			name: 'x',
			type: 'options',
			default: 'a',
			options: [
				{ name: 'A', value: 'a', description: 'first' },
				{ name: 'B', value: 'b' },
			],
		});
		expect(dropdown([['A', 'a'], ['B', 'b']], { displayName: 'X', name: 'x', default: 'b' }).default).toBe('b');
	});

	it('optionsCollection sorts its options by display name and leaves the input list alone', () => {
		const input: INodeProperties[] = [
			{ displayName: 'Zeta', name: 'z', type: 'string', default: '' },
			{ displayName: 'Alpha', name: 'a', type: 'string', default: '' },
		];
		const c = optionsCollection({ show: { resource: ['r'] } }, input);
		expect((c.options as INodeProperties[]).map((o) => o.name)).toEqual(['a', 'z']);
		expect(input.map((o) => o.name)).toEqual(['z', 'a']);
	});
});
