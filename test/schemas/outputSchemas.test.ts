/**
 * Output schemas: every operation of both action nodes and the trigger has one committed schema (its
 * newest node version's), and fresh outputs of EVERY node version against the sandbox match the
 * schema the build writes for that version (scripts/lib/outputSchemas.ts: the committed one without
 * the fields since.json says a later version added). Where an older version lacks a top-level field
 * the newest outputs, since.json must say so, and each of its entries must be true.
 * `npm run schemas` (this suite with UPDATE_OUTPUT_SCHEMAS=1) writes the committed files from the
 * newest version's outputs first.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resources as gatewayResources } from '../../nodes/ExecutionGateway/actions/router';
import { SHARED_WAIT_VERSION } from '../../nodes/ExecutionGateway/helpers/intentWait';
import { LIVE_WAIT_VERSION } from '../../nodes/Orchestration/actions/order/getStatus';
import { resources as orchestrationResources } from '../../nodes/Orchestration/actions/router';
import { inferSchema, schemaProblems, type JsonSchema } from '../../scripts/lib/jsonSchema';
import {
	committedSchemaFile,
	operationsOf,
	readFieldsSince,
	SCHEMA_NODES,
	schemaAtVersion,
	serializeSchema,
	versionsOf,
	type SchemaNode,
} from '../../scripts/lib/outputSchemas';
import { collectSamples, type Sample, type SampleVersions } from './samples';

const ROOT = path.resolve(__dirname, '../..');
const NODES = Object.keys(SCHEMA_NODES) as SchemaNode[];
const newestOf = (node: SchemaNode): number => versionsOf(SCHEMA_NODES[node]).at(-1)!;
const committedPath = (s: { node: SchemaNode; resource?: string; operation?: string }) => path.join(ROOT, 'nodes', s.node, committedSchemaFile(s));
const read = (file: string): JsonSchema => JSON.parse(fs.readFileSync(file, 'utf8')) as JsonSchema;
const keyOf = (s: { resource?: string; operation?: string }) => [s.resource, s.operation].filter(Boolean).join('/') || 'output';

/**
 * The passes: the newest versions first, then each older version of every node (a node with fewer
 * versions repeats its oldest). Outputs are taken with the same inputs in every pass.
 */
function passes(): SampleVersions[] {
	const depth = Math.max(...NODES.map((n) => versionsOf(SCHEMA_NODES[n]).length));
	return Array.from({ length: depth }, (_, i) =>
		Object.fromEntries(NODES.map((n) => [n, [...versionsOf(SCHEMA_NODES[n])].reverse()[Math.min(i, versionsOf(SCHEMA_NODES[n]).length - 1)]])),
	);
}

/** `npm run schemas`: the committed file of each operation, inferred from the newest version's outputs. */
function writeSchemas(samples: Sample[]): void {
	for (const sample of samples) {
		fs.mkdirSync(path.dirname(committedPath(sample)), { recursive: true });
		fs.writeFileSync(committedPath(sample), serializeSchema(inferSchema(sample.outputs)));
	}
}

let byPass: Array<{ versions: SampleVersions; samples: Sample[] }>;
beforeAll(async () => {
	const all = passes();
	// One sandbox each; the passes mostly wait on the sandbox's clock, so they run side by side.
	const collected = await Promise.all(all.map(async (versions) => ({ versions, samples: await collectSamples(versions) })));
	byPass = collected;
	if (process.env.UPDATE_OUTPUT_SCHEMAS === '1') writeSchemas(byPass[0].samples);
}, 300_000);

describe('output schemas', () => {
	it('are committed once for every operation of both action nodes and the trigger', () => {
		const missing: string[] = [];
		const listed: string[] = [];
		for (const node of NODES) {
			for (const op of operationsOf(SCHEMA_NODES[node])) {
				listed.push(`${node}:${keyOf(op)}`);
				const file = committedPath({ node, ...op });
				if (!fs.existsSync(file)) missing.push(path.relative(ROOT, file));
				else expect(read(file)).toMatchObject({ type: 'object', properties: expect.any(Object) });
			}
		}
		expect(missing).toEqual([]);
		// every operation the routers run is listed by its node's description, and nothing else
		const routed = [
			...Object.entries(orchestrationResources).flatMap(([r, { operations }]) => Object.keys(operations).map((o) => `Orchestration:${r}/${o}`)),
			...Object.entries(gatewayResources).flatMap(([r, { operations }]) => Object.keys(operations).map((o) => `ExecutionGateway:${r}/${o}`)),
			'OrchestrationTrigger:output',
		];
		expect(listed.sort()).toEqual(routed.sort());
		// No per-version copies in the source tree: the build writes those.
		const versionDirs = NODES.flatMap((n) => fs.readdirSync(path.join(ROOT, 'nodes', n, '__schema__')).filter((f) => /^v\d/.test(f)));
		expect(versionDirs).toEqual([]);
	});

	it('the passes cover every version of every node, the newest first', () => {
		expect(byPass[0].versions).toEqual(Object.fromEntries(NODES.map((n) => [n, newestOf(n)])));
		for (const node of NODES) expect(new Set(byPass.map((p) => p.versions[node]))).toEqual(new Set(versionsOf(SCHEMA_NODES[node])));
	});

	it('match fresh outputs of every operation, at every node version, against the sandbox', () => {
		const problems: string[] = [];
		for (const { versions, samples } of byPass) {
			for (const sample of samples) {
				expect(sample.outputs.length).toBeGreaterThan(0);
				const version = versions[sample.node]!;
				const schema = schemaAtVersion(read(committedPath(sample)), readFieldsSince(path.join(ROOT, 'nodes', sample.node))[keyOf(sample)], version);
				for (const output of sample.outputs) problems.push(...schemaProblems(schema, output).map((p) => `${sample.node} ${version} ${keyOf(sample)} ${p}`));
			}
			// A new operation needs a sample in samples.ts (and then `npm run schemas`).
			const offered = NODES.flatMap((node) => operationsOf(SCHEMA_NODES[node]).map((o) => `${node}.${keyOf(o)}`));
			expect(samples.map((s) => `${s.node}.${keyOf(s)}`).sort()).toEqual(offered.sort());
		}
		expect(problems).toEqual([]);
	});

	it('differ between versions exactly where since.json says: fields the newest outputs and an older version never does', () => {
		const fieldsOf = (samples: Sample[], node: SchemaNode, key: string) =>
			new Set(samples.filter((s) => s.node === node && keyOf(s) === key).flatMap((s) => s.outputs.flatMap((o) => Object.keys(o))));
		const undeclared: string[] = [];
		const untrue: string[] = [];
		const [newest, ...older] = byPass;
		for (const sample of newest.samples) {
			const key = keyOf(sample);
			const since = readFieldsSince(path.join(ROOT, 'nodes', sample.node))[key] ?? {};
			const newestFields = fieldsOf(newest.samples, sample.node, key);
			for (const field of Object.keys(since)) if (!newestFields.has(field)) untrue.push(`${sample.node} ${key}.${field}: the newest version does not output it`);
			for (const { versions, samples } of older) {
				const version = versions[sample.node]!;
				const olderFields = fieldsOf(samples, sample.node, key);
				for (const field of newestFields) {
					const declared = since[field] !== undefined && since[field] > version;
					if (!olderFields.has(field) && !declared) undeclared.push(`${sample.node} ${version} ${key}.${field}`);
					if (olderFields.has(field) && declared) untrue.push(`${sample.node} ${version} ${key}.${field}: version ${version} outputs it`);
				}
			}
		}
		expect({ undeclared, untrue }).toEqual({ undeclared: [], untrue: [] });
		// The entries today, at the versions where the node's code tells them apart.
		expect(readFieldsSince(path.join(ROOT, 'nodes/Orchestration'))).toEqual({ 'order/getStatus': { waitedVia: LIVE_WAIT_VERSION, actionRequired: LIVE_WAIT_VERSION } });
		const shared = { waitEndedBy: SHARED_WAIT_VERSION };
		expect(readFieldsSince(path.join(ROOT, 'nodes/ExecutionGateway'))).toEqual({ 'intent/execute': shared, 'intent/get': shared });
	});

	it('the check fails on an undeclared field or another type (it is not a rubber stamp)', () => {
		const schema = inferSchema([{ a: '1', b: [{ c: 1 }] }, { a: '2', d: null }]);
		expect(schemaProblems(schema, { a: '3', b: [{ c: 2.5 }] })).toEqual(['$.b[0].c: number, the schema says "integer"']);
		expect(schemaProblems(schema, { a: 3 })).toEqual(['$.a: integer, the schema says "string"']);
		expect(schemaProblems(schema, { e: true })).toEqual(['$.e: not in the schema']);
		expect(schemaProblems(schema, { a: '4' })).toEqual([]);
		// and an older version's schema refuses a field added after it
		const newest = inferSchema([{ a: '1', added: 'x' }]);
		expect(schemaProblems(schemaAtVersion(newest, { added: 3 }, 2), { a: '1', added: 'x' })).toEqual(['$.added: not in the schema']);
		expect(schemaProblems(schemaAtVersion(newest, { added: 3 }, 3), { a: '1', added: 'x' })).toEqual([]);
	});
});
