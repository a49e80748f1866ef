/**
 * The output schemas n8n 2.41 serves to the editor, one file per node version, generated at build
 * time from one committed schema per operation.
 *
 * Committed (`npm run schemas` writes them from real outputs of the newest node version):
 *   nodes/<Node>/__schema__/<resource>/<operation>.json   (the trigger: __schema__/output.json)
 *   nodes/<Node>/__schema__/since.json   fields a later node version added, by operation:
 *                                        { "<resource>/<operation>": { "<field>": <version> } }
 * Built (what n8n reads next to the node file, for the exact version a workflow stores):
 *   dist/nodes/<Node>/__schema__/v<x.y.z>/<resource>/<operation>.json   (the trigger: v<x.y.z>.json)
 * A version's schema is the committed one without the top-level fields added after that version.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { INodeTypeDescription } from 'n8n-workflow';
import { ExecutionGateway } from '../../nodes/ExecutionGateway/ExecutionGateway.node';
import { Orchestration } from '../../nodes/Orchestration/Orchestration.node';
import { OrchestrationTrigger } from '../../nodes/OrchestrationTrigger/OrchestrationTrigger.node';
import type { JsonSchema } from './jsonSchema';

/** The nodes with output schemas, by their folder under nodes/. */
export const SCHEMA_NODES = {
	Orchestration: new Orchestration().description,
	ExecutionGateway: new ExecutionGateway().description,
	OrchestrationTrigger: new OrchestrationTrigger().description,
} satisfies Record<string, INodeTypeDescription>;

export type SchemaNode = keyof typeof SCHEMA_NODES;

/** One operation of a node (both absent for the trigger, which has no resource or operation). */
export interface SchemaOperation {
	resource?: string;
	operation?: string;
}

/** Fields a later node version added, by `<resource>/<operation>`: field -> the version that added it. */
export type FieldsSince = Record<string, Record<string, number>>;

export const versionsOf = (d: Pick<INodeTypeDescription, 'version'>): number[] => (Array.isArray(d.version) ? d.version : [d.version]);

/** Every resource/operation pair a node offers (from its operation dropdowns), or one pair of nothing for the trigger. */
export function operationsOf(d: Pick<INodeTypeDescription, 'properties'>): SchemaOperation[] {
	const resources = d.properties.find((p) => p.name === 'resource')?.options as Array<{ value: string }> | undefined;
	if (!resources) return [{}];
	return resources.flatMap(({ value: resource }) => {
		const ops = d.properties.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
		return ops.flatMap((p) => (p.options as Array<{ value: string }>).map(({ value }) => ({ resource, operation: value })));
	});
}

const keyOf = ({ resource, operation }: SchemaOperation): string => [resource, operation].filter(Boolean).join('/') || 'output';

/** The committed schema of an operation, relative to the node's folder. */
export const committedSchemaFile = (op: SchemaOperation): string => `__schema__/${keyOf(op)}.json`;

/** The folder n8n pads a node version to in `__schema__/v<x.y.z>` (n8n-core output-schema-resolver). */
export function schemaVersionDir(version: number): string {
	return `v${String(version).split('.').concat(['0', '0']).slice(0, 3).join('.')}`;
}

/**
 * Where n8n 2.41 reads a version's output schema, relative to the node's folder: the editor asks
 * `/schemas/<node>/<version>/<resource>/<operation>.json` and the server reads that exact version's
 * file (no fallback to another version).
 */
export const builtSchemaFile = (version: number, op: SchemaOperation): string =>
	`__schema__/${[schemaVersionDir(version), op.resource, op.operation].filter(Boolean).join('/')}.json`;

/** The file as written: tab-indented JSON and a final newline. */
export const serializeSchema = (schema: JsonSchema): string => `${JSON.stringify(schema, null, '\t')}\n`;

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;

export function readFieldsSince(nodeDir: string): FieldsSince {
	const file = path.join(nodeDir, '__schema__/since.json');
	return fs.existsSync(file) ? readJson<FieldsSince>(file) : {};
}

/** A version's schema: the newest one without the top-level fields added after `version`. */
export function schemaAtVersion(newest: JsonSchema, since: Record<string, number> | undefined, version: number): JsonSchema {
	if (!since || !newest.properties) return newest;
	const properties = Object.fromEntries(Object.entries(newest.properties).filter(([field]) => !(since[field] > version)));
	return { ...newest, properties };
}

/**
 * Every file of a node's built `__schema__` folder (path relative to the node's folder, content).
 * Throws on what would ship a wrong or missing schema: an operation without its committed file,
 * or a since.json entry naming an unknown operation, a field the schema lacks, or no node version.
 */
export function versionedSchemas(nodeDir: string, description: Pick<INodeTypeDescription, 'version' | 'properties'>): Map<string, string> {
	const versions = versionsOf(description);
	const operations = operationsOf(description);
	const fieldsSince = readFieldsSince(nodeDir);
	const newest = new Map<string, JsonSchema>();
	for (const op of operations) {
		const file = path.join(nodeDir, committedSchemaFile(op));
		if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run schemas\` to write the output schema of ${keyOf(op)}`);
		newest.set(keyOf(op), readJson<JsonSchema>(file));
	}
	for (const [key, since] of Object.entries(fieldsSince)) {
		const schema = newest.get(key);
		if (!schema) throw new Error(`${nodeDir}/__schema__/since.json: no operation ${key}`);
		for (const [field, version] of Object.entries(since)) {
			if (!schema.properties?.[field]) throw new Error(`${nodeDir}/__schema__/since.json: ${key} has no field ${field}`);
			if (!versions.includes(version)) throw new Error(`${nodeDir}/__schema__/since.json: ${key}.${field} since ${version}, not a version of the node`);
		}
	}
	const files = new Map<string, string>();
	for (const version of versions) {
		for (const op of operations) files.set(builtSchemaFile(version, op), serializeSchema(schemaAtVersion(newest.get(keyOf(op))!, fieldsSince[keyOf(op)], version)));
	}
	return files;
}

/** Writes every node's versioned schemas under `<outdir>/nodes/<Node>/`; returns the paths written, relative to outdir. */
export function writeOutputSchemas(root: string, outdir: string): string[] {
	const written: string[] = [];
	for (const [node, description] of Object.entries(SCHEMA_NODES)) {
		for (const [file, text] of versionedSchemas(path.join(root, 'nodes', node), description)) {
			const to = path.join(outdir, 'nodes', node, file);
			fs.mkdirSync(path.dirname(to), { recursive: true });
			fs.writeFileSync(to, text);
			written.push(path.relative(outdir, to));
		}
	}
	return written;
}
