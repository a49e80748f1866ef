/**
 * The tests judge the nodes by the sandbox (the oracle), not by the nodes' own answers: a test that
 * signs a delivery with the node's signer, or predicts the idempotency key with the node's own
 * derivation, passes by construction whatever the node does. And the sandbox's own schemas are
 * tested with the sandbox (test/sandbox), not from inside the nodes' unit tests, so nobody mistakes
 * them for the nodes' parsers. This scans the test files' imports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const TEST = join(ROOT, 'test');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
		return /\.(c|m)?(t|j)sx?$/.test(entry.name) ? [path] : [];
	});
}

interface Import {
	/** Path of the module, relative to the repository, without extension (`nodes/shared/orchestration/webhooks`). */
	module: string;
	/** The names it imports (`*` for a namespace import, `default` for a default one). */
	names: string[];
}

/** The relative imports of a file (static, type-only included), resolved against the repository. */
function importsOf(file: string): Import[] {
	const text = readFileSync(file, 'utf8');
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const out: Import[] = [];
	for (const statement of source.statements) {
		if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
		const specifier = statement.moduleSpecifier.text;
		if (!specifier.startsWith('.')) continue;
		const target = resolve(dirname(file), specifier);
		if (!target.startsWith(ROOT + sep)) continue;
		const clause = statement.importClause;
		const names: string[] = [];
		if (clause?.name) names.push('default');
		if (clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings)) names.push('*');
		if (clause?.namedBindings && ts.isNamedImports(clause.namedBindings)) {
			for (const el of clause.namedBindings.elements) names.push((el.propertyName ?? el.name).text);
		}
		out.push({ module: relative(ROOT, target).split(sep).join('/').replace(/\/index$/, ''), names });
	}
	return out;
}

const files = sourceFiles(TEST).map((file) => ({ file: relative(ROOT, file).split(sep).join('/'), imports: importsOf(file) }));
/** Tests that run the nodes against the sandbox: by operation, integration, end-to-end (plain, queue, faults), browser. */
const AGAINST_THE_SANDBOX = /^test\/(operations|integration|e2e|e2e-queue|e2e-faults|browser)\//;

/** "file: module { name }" for every name matching `names` that a test in `scope` imports from nodes/ (namespace imports of `modules` too). */
function fromNodes(scope: RegExp, names: RegExp, modules: RegExp): string[] {
	return files
		.filter((f) => scope.test(f.file))
		.flatMap((f) =>
			f.imports
				.filter((i) => /^nodes(\/|$)/.test(i.module))
				.flatMap((i) => i.names.filter((n) => names.test(n) || (n === '*' && modules.test(i.module))).map((n) => `${f.file}: ${i.module} { ${n} }`)),
		);
}

describe('tests against the sandbox judge the nodes by what the service observes', () => {
	test('there are such tests to scan', () => {
		expect(files.filter((f) => AGAINST_THE_SANDBOX.test(f.file)).length).toBeGreaterThan(50);
	});

	test("no delivery is signed with the node's own signer (spec §6 is signed by the sandbox or node:crypto)", () => {
		expect(fromNodes(AGAINST_THE_SANDBOX, /^(computeWebhookSignature|verifyWebhookSignature)$/, /orchestration\/webhooks$/)).toEqual([]);
	});

	test("no idempotency key is predicted with the node's own derivation (same key on a retry, different keys for different operations, from the sandbox's records)", () => {
		expect(fromNodes(AGAINST_THE_SANDBOX, /IdempotencyKey$/i, /idempotency$|registration$/)).toEqual([]);
	});
});

describe("the sandbox's own schemas are tested with the sandbox", () => {
	test("no unit test of the nodes imports the sandbox's request or response schemas", () => {
		const schemaModules = /^sandbox\/(orchestration\/(responses|wire)|gateway\/wireSchemas)$/;
		const found = files
			.filter((f) => f.file.startsWith('test/unit/'))
			.flatMap((f) => f.imports.filter((i) => schemaModules.test(i.module)).map((i) => `${f.file}: ${i.module}`));
		expect(found).toEqual([]);
	});
});
