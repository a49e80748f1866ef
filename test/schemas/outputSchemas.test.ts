/**
 * Output schemas (issue 22: build before the first event): every operation of both action nodes and
 * the trigger has a `__schema__` file for every node version, where n8n 2.41 looks for it next to
 * the built node file, and fresh outputs against the sandbox match the committed files. The files
 * are generated from such outputs by `npm run schemas` (this suite with UPDATE_OUTPUT_SCHEMAS=1:
 * it writes the files from the outputs first; the build copies them into dist).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { ExecutionGateway } from '../../nodes/ExecutionGateway/ExecutionGateway.node';
import { Orchestration } from '../../nodes/Orchestration/Orchestration.node';
import { OrchestrationTrigger } from '../../nodes/OrchestrationTrigger/OrchestrationTrigger.node';
import { inferSchema, schemaPath, schemaProblems, type JsonSchema } from '../../scripts/lib/jsonSchema';
import { collectSamples, type Sample, type SchemaNode } from './samples';

const ROOT = path.resolve(__dirname, '../..');
const DESCRIPTIONS: Record<SchemaNode, INodeTypeDescription> = {
	Orchestration: new Orchestration().description,
	ExecutionGateway: new ExecutionGateway().description,
	OrchestrationTrigger: new OrchestrationTrigger().description,
};

const versionsOf = (d: INodeTypeDescription): number[] => (Array.isArray(d.version) ? d.version : [d.version]);

/** Every resource/operation pair a node offers (from its operation dropdowns), or one pair of nothing for the trigger. */
function operationsOf(d: INodeTypeDescription): Array<{ resource?: string; operation?: string }> {
	const resources = d.properties.find((p) => p.name === 'resource')?.options as Array<{ value: string }> | undefined;
	if (!resources) return [{}];
	return resources.flatMap(({ value: resource }) => {
		const ops = d.properties.filter((p: INodeProperties) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
		return ops.flatMap((p) => (p.options as Array<{ value: string }>).map(({ value }) => ({ resource, operation: value })));
	});
}

/** `npm run schemas`: one file per node version, inferred from the outputs (issue 22). */
function writeSchemas(samples: Sample[]): void {
	for (const sample of samples) {
		const schema = inferSchema(sample.outputs);
		for (const version of versionsOf(DESCRIPTIONS[sample.node])) {
			const file = path.join(ROOT, schemaPath(`nodes/${sample.node}`, version, sample.resource, sample.operation));
			fs.mkdirSync(path.dirname(file), { recursive: true });
			fs.writeFileSync(file, `${JSON.stringify(schema, null, '\t')}\n`);
		}
	}
}

const read = (file: string): JsonSchema => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as JsonSchema;

let samples: Sample[];
beforeAll(async () => {
	samples = await collectSamples();
	if (process.env.UPDATE_OUTPUT_SCHEMAS === '1') writeSchemas(samples);
}, 180_000);

describe('output schemas', () => {
	it('exist for every operation and version of both action nodes and the trigger, as n8n reads them', () => {
		const missing: string[] = [];
		let count = 0;
		for (const [node, description] of Object.entries(DESCRIPTIONS)) {
			for (const version of versionsOf(description)) {
				for (const { resource, operation } of operationsOf(description)) {
					const file = schemaPath(`nodes/${node}`, version, resource, operation);
					count++;
					if (!fs.existsSync(path.join(ROOT, file))) missing.push(file);
					else expect(read(file)).toMatchObject({ type: 'object', properties: expect.any(Object) });
				}
			}
		}
		expect(missing).toEqual([]);
		expect(count).toBeGreaterThanOrEqual(15 * 3 + 4 * 2 + 2);
	});

	it('match fresh outputs of every operation against the sandbox', () => {
		const problems: string[] = [];
		for (const sample of samples) {
			expect(sample.outputs.length).toBeGreaterThan(0);
			for (const version of versionsOf(DESCRIPTIONS[sample.node])) {
				const file = schemaPath(`nodes/${sample.node}`, version, sample.resource, sample.operation);
				for (const output of sample.outputs) problems.push(...schemaProblems(read(file), output).map((p) => `${file} ${p}`));
			}
		}
		expect(problems).toEqual([]);
		// A new operation needs a sample in samples.ts (and then `npm run schemas`).
		const key = (node: string, o: { resource?: string; operation?: string }) => `${node}.${o.resource ?? ''}.${o.operation ?? ''}`;
		const offered = Object.entries(DESCRIPTIONS).flatMap(([node, d]) => operationsOf(d).map((o) => key(node, o)));
		expect(samples.map((s) => key(s.node, s)).sort()).toEqual(offered.sort());
	});

	it('the check fails on an undeclared field or another type (it is not a rubber stamp)', () => {
		const schema = inferSchema([{ a: '1', b: [{ c: 1 }] }, { a: '2', d: null }]);
		expect(schemaProblems(schema, { a: '3', b: [{ c: 2.5 }] })).toEqual(['$.b[0].c: number, the schema says "integer"']);
		expect(schemaProblems(schema, { a: 3 })).toEqual(['$.a: integer, the schema says "string"']);
		expect(schemaProblems(schema, { e: true })).toEqual(['$.e: not in the schema']);
		expect(schemaProblems(schema, { a: '4' })).toEqual([]);
	});
});
