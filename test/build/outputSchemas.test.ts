/**
 * The packed tarball holds an output schema for every (node version, resource, operation), exactly
 * where n8n 2.41's editor route finds it (n8n-core's resolveOutputSchemaPath without version
 * fallback: the folder of the version the workflow stores), and each is the generator's: the
 * committed schema of the operation, without the fields since.json dates after that version.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveOutputSchemaPath } from 'n8n-core';
import type { JsonSchema } from '../../scripts/lib/jsonSchema';
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

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { packStaged } = require('../../scripts/pack.js');

const ROOT = path.resolve(__dirname, '../..');
const NODES = Object.keys(SCHEMA_NODES) as SchemaNode[];
const keyOf = (o: { resource?: string; operation?: string }) => [o.resource, o.operation].filter(Boolean).join('/') || 'output';

let tmp: string;
let dist: string;
beforeAll(async () => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-schemas-'));
	const tarball: string = await packStaged(tmp);
	execFileSync('tar', ['-xzf', tarball, '-C', tmp]);
	dist = path.join(tmp, 'package/dist');
}, 120_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('output schemas in the packed tarball', () => {
	it.each(NODES)('%s: one per node version and operation, where the editor asks for it, as generated', (node) => {
		const description = SCHEMA_NODES[node];
		const nodeDir = path.join(dist, 'nodes', node);
		const committed = (op: { resource?: string; operation?: string }) => fs.readFileSync(path.join(ROOT, 'nodes', node, committedSchemaFile(op)), 'utf8');
		const since = readFieldsSince(path.join(ROOT, 'nodes', node));
		const versions = versionsOf(description);
		const operations = operationsOf(description);
		const found = new Set<string>();
		for (const version of versions) {
			for (const op of operations) {
				const file = resolveOutputSchemaPath({ nodeDir, version: String(version), resource: op.resource, operation: op.operation });
				expect({ version, op, exists: file !== undefined && fs.existsSync(file) }).toEqual({ version, op, exists: true });
				found.add(path.relative(nodeDir, file!));
				const text = fs.readFileSync(file!, 'utf8');
				const expected = serializeSchema(schemaAtVersion(JSON.parse(committed(op)) as JsonSchema, since[keyOf(op)], version));
				expect({ version, op, text }).toEqual({ version, op, text: expected });
				// The newest version ships the committed file byte for byte.
				if (version === versions.at(-1)) expect(text).toBe(committed(op));
			}
		}
		// Nothing else: no unversioned copies, no since.json.
		const shipped = (fs.readdirSync(path.join(nodeDir, '__schema__'), { recursive: true }) as string[])
			.filter((f) => fs.statSync(path.join(nodeDir, '__schema__', f)).isFile())
			.map((f) => path.join('__schema__', f));
		expect(shipped.sort()).toEqual([...found].sort());
		expect(found.size).toBe(versions.length * operations.length);
	});

	it('an older version ships without the fields its node version does not output', () => {
		const read = (node: string, rel: string) => JSON.parse(fs.readFileSync(path.join(dist, 'nodes', node, '__schema__', rel), 'utf8')) as JsonSchema;
		expect(Object.keys(read('Orchestration', 'v3.0.0/order/getStatus.json').properties!)).toEqual(expect.arrayContaining(['waitedVia', 'actionRequired', 'waitEndedBy']));
		for (const v of ['v1.0.0', 'v2.0.0']) {
			const fields = Object.keys(read('Orchestration', `${v}/order/getStatus.json`).properties!);
			expect(fields).toContain('waitEndedBy');
			expect(fields).not.toContain('waitedVia');
			expect(fields).not.toContain('actionRequired');
		}
		expect(Object.keys(read('ExecutionGateway', 'v1.2.0/intent/execute.json').properties!)).toContain('waitEndedBy');
		expect(Object.keys(read('ExecutionGateway', 'v1.1.0/intent/execute.json').properties!)).not.toContain('waitEndedBy');
		expect(Object.keys(read('ExecutionGateway', 'v1.1.0/intent/execute.json').properties!)).toContain('waitTimedOut');
	});
});
