/**
 * Prints, as JSON, what stored workflows depend on: every node's and credential's description as n8n
 * loads it from dist/ (package.json's "n8n" lists), every version of a versioned node, and the names
 * of the methods a description refers to (loadOptions, listSearch, credential tests, webhook methods).
 * Two dumps that are byte-identical mean workflows saved against one build open and run unchanged
 * against the other. Functions are written as "[function]" (their names are not part of the contract).
 *
 * Run after `npm run build`: npx tsx scripts/dump-descriptions.ts > descriptions.json
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

interface PackageN8n {
	nodes: string[];
	credentials: string[];
}

/** The class a dist entry exports (n8n instantiates the first exported class). */
function loadClass(distFile: string): new () => Record<string, unknown> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exported = require(join(ROOT, distFile)) as Record<string, unknown>;
	const found = Object.values(exported).find((value) => typeof value === 'function');
	if (found === undefined) throw new Error(`${distFile} exports no class`);
	return found as new () => Record<string, unknown>;
}

/** JSON with functions marked, so a description that changes a function into a value (or back) shows. */
function plain(value: unknown): unknown {
	return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'function' ? '[function]' : v)));
}

/** The method names a node offers under each group (loadOptions, listSearch, credentialTest, ...). */
function methodNames(methods: unknown): Record<string, string[]> {
	if (methods === null || typeof methods !== 'object') return {};
	return Object.fromEntries(Object.entries(methods as Record<string, object>).map(([group, fns]) => [group, Object.keys(fns).sort()]));
}

/** One node instance as n8n reads it: its description, its methods and its webhook methods. */
function nodeShape(node: Record<string, unknown>): unknown {
	return {
		description: plain(node.description),
		methods: methodNames(node.methods),
		webhookMethods: methodNames(node.webhookMethods),
		hasExecute: typeof node.execute === 'function',
		hasWebhook: typeof node.webhook === 'function',
		hasTrigger: typeof node.trigger === 'function',
		hasPoll: typeof node.poll === 'function',
	};
}

function dump(): unknown {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { n8n: PackageN8n };
	const nodes = pkg.n8n.nodes.map((file) => {
		const node = new (loadClass(file))();
		// A VersionedNodeType holds one node per version under nodeVersions.
		const versions = node.nodeVersions as Record<string, Record<string, unknown>> | undefined;
		const perVersion = versions
			? Object.fromEntries(Object.entries(versions).map(([version, versionNode]) => [version, nodeShape(versionNode)]))
			: undefined;
		return { file, ...(nodeShape(node) as object), ...(perVersion ? { versions: perVersion } : {}) };
	});
	const credentials = pkg.n8n.credentials.map((file) => ({ file, credential: plain(new (loadClass(file))()) }));
	return { nodes, credentials };
}

process.stdout.write(`${JSON.stringify(dump(), null, '\t')}\n`);
