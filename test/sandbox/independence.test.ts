/**
 * The sandbox is a test oracle (docs/sandbox.md): written from the specs and the public notes, it must
 * share no code with the nodes it checks, or a belief both got wrong passes every test. Starting from
 * every source file under sandbox/, this follows every module specifier (static and type-only
 * imports, re-exports, `import x = require()`, `require()`, dynamic `import()`, `typeof import()`
 * types, `jest.mock`, `/// <reference path>`) through TypeScript's own resolver with the project's
 * compiler options (relative paths, `paths` mappings, `.js` written for `.ts`, index files), file
 * after file, through test/, scripts/ or anywhere else in the project, and fails on any chain that
 * reaches nodes/ (or dist/, the nodes built).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return /\.(c|m)?(t|j)sx?$/.test(entry.name) ? [path] : [];
	});
}

/** Every module specifier a file names, in any of the forms TypeScript and Node load modules by. */
function specifiersOf(fileName: string, text: string): string[] {
	const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
	const found: string[] = source.referencedFiles.map((ref) => (ref.fileName.startsWith('.') ? ref.fileName : `./${ref.fileName}`));
	const literal = (node: ts.Node | undefined) => {
		if (node && ts.isStringLiteralLike(node)) found.push(node.text);
	};
	const visit = (node: ts.Node): void => {
		if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
		else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
		else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
		else if (ts.isCallExpression(node)) {
			const callee = node.expression;
			const named = (name: string) => ts.isIdentifier(callee) && callee.text === name;
			const member = ts.isPropertyAccessExpression(callee) ? callee.getText(source) : '';
			if (callee.kind === ts.SyntaxKind.ImportKeyword || named('require') || ['require.resolve', 'jest.mock', 'jest.requireActual', 'jest.requireMock'].includes(member)) {
				literal(node.arguments[0]);
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** The compiler options of a tsconfig.json (its `paths` and `baseUrl` included). */
function compilerOptionsOf(tsconfigPath: string): ts.CompilerOptions {
	const { config, error } = ts.readConfigFile(tsconfigPath, ts.sys.readFile);
	if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
	return { ...ts.parseJsonConfigFileContent(config, ts.sys, dirname(tsconfigPath)).options, allowJs: true, resolveJsonModule: true };
}

const inside = (dir: string, file: string) => file === dir || file.startsWith(dir + sep);

/**
 * Every chain of imports from a file under `startDir` to a file under one of `forbidden`, following
 * every import of every project file reached (node_modules is not followed), and the specifiers of
 * project files that resolve to nothing (an edge the walk could not follow is a failure too).
 */
function chainsInto(root: string, startDir: string, forbidden: string[], options: ts.CompilerOptions): { chains: string[]; unresolved: string[]; visited: string[] } {
	const host = ts.createCompilerHost(options);
	const cache = ts.createModuleResolutionCache(root, (f) => f, options);
	const via = new Map<string, string | undefined>();
	const queue: string[] = [];
	for (const file of sourceFiles(startDir)) {
		via.set(file, undefined);
		queue.push(file);
	}
	const chains: string[] = [];
	const unresolved: string[] = [];
	const chainOf = (file: string): string[] => (via.get(file) === undefined ? [file] : [...chainOf(via.get(file) as string), file]);
	while (queue.length > 0) {
		const file = queue.shift() as string;
		for (const specifier of specifiersOf(file, readFileSync(file, 'utf8'))) {
			const resolved = ts.resolveModuleName(specifier, file, options, host, cache).resolvedModule;
			if (!resolved) {
				// a bare `nodes/...` or an unresolvable path may still be loaded by another resolver
				if (specifier.startsWith('.') || specifier.startsWith('/') || /^(nodes|dist)(\/|$)/.test(specifier)) unresolved.push(`${relative(root, file)}: ${specifier}`);
				continue;
			}
			const target = realpathSync(resolved.resolvedFileName);
			if (forbidden.some((dir) => inside(dir, target) || inside(dir, resolved.resolvedFileName))) {
				chains.push([...chainOf(file), target].map((f) => relative(root, f)).join(' -> '));
				continue;
			}
			if (resolved.isExternalLibraryImport || !inside(root, target) || target.includes(`${sep}node_modules${sep}`)) continue;
			if (!via.has(target)) {
				via.set(target, file);
				queue.push(target);
			}
		}
	}
	return { chains, unresolved, visited: [...via.keys()].map((f) => relative(root, f)) };
}

const chainsOnly = (...args: Parameters<typeof chainsInto>) => {
	const { chains, unresolved } = chainsInto(...args);
	return { chains, unresolved };
};

describe('the sandbox reaches nothing under nodes/, directly or through any other file', () => {
	test('it has source files to scan', () => {
		expect(sourceFiles(join(ROOT, 'sandbox')).length).toBeGreaterThan(40);
	});

	test('no chain of imports leads from sandbox/ into nodes/ or dist/, and every relative import resolves', () => {
		const { chains, unresolved, visited } = chainsInto(ROOT, join(ROOT, 'sandbox'), [join(ROOT, 'nodes'), join(ROOT, 'dist')], compilerOptionsOf(join(ROOT, 'tsconfig.json')));
		expect({ chains, unresolved }).toEqual({ chains: [], unresolved: [] });
		// the walk followed the sandbox's own imports (its JSON seeds included)
		expect(visited).toEqual(expect.arrayContaining(['sandbox/index.ts', 'sandbox/control-guard.ts', 'sandbox/config.default.json']));
	});

	test('the scan finds every form of import', () => {
		const text = [
			'/// <reference path="ref.ts" />',
			"import { a } from './a';",
			"import type { B } from './b';",
			"import c = require('./c');",
			"export { d } from './d';",
			"export * from './e';",
			"const f = require('./f');",
			"const g = await import('./g');",
			"type H = typeof import('./h');",
			"jest.mock('./i');",
			"jest.requireActual('./j');",
			"require.resolve('./k');",
			"import './l';",
		].join('\n');
		expect(specifiersOf('/x/probe.ts', text)).toEqual(['./ref.ts', './a', './b', './c', './d', './e', './f', './g', './h', './i', './j', './k', './l']);
	});

	describe('on a planted fixture tree (so the check above can fail)', () => {
		let dir: string;
		const write = (path: string, text: string) => {
			mkdirSync(dirname(join(dir, path)), { recursive: true });
			writeFileSync(join(dir, path), text);
		};
		const walk = () => chainsOnly(dir, join(dir, 'sandbox'), [join(dir, 'nodes'), join(dir, 'dist')], compilerOptionsOf(join(dir, 'tsconfig.json')));

		beforeEach(() => {
			dir = realpathSync(mkdtempSync(join(tmpdir(), 'sandbox-independence-')));
			write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler', paths: { '@helpers/*': ['test/helpers/*'], '~scripts': ['scripts/lib/index.ts'] } } }));
			write('nodes/shared/enums.ts', 'export const CHAINS = ["base"];\n');
			write('nodes/shared/index.ts', 'export * from "./enums";\n');
			write('sandbox/app.ts', 'import { ok } from "./spec";\nimport { z } from "zod";\nexport const x = [ok, z];\n');
			write('sandbox/spec.ts', 'export const ok = 1;\n');
		});
		afterEach(() => rmSync(dir, { recursive: true, force: true }));

		test('a clean tree passes', () => {
			expect(walk()).toEqual({ chains: [], unresolved: [] });
		});

		test('a type-only import of a test helper that imports nodes/ fails, naming the chain', () => {
			write('sandbox/spec.ts', 'import type { H } from "../test/helpers/h";\nexport const ok = 1 as unknown as H;\n');
			write('test/helpers/h.ts', 'import { CHAINS } from "../../nodes/shared/enums";\nexport type H = typeof CHAINS;\n');
			expect(walk().chains).toEqual(['sandbox/spec.ts -> test/helpers/h.ts -> nodes/shared/enums.ts']);
		});

		test('through a path mapping, a script, an index file, a re-export, `.js` written for `.ts`, and a dynamic import, three files deep', () => {
			write('sandbox/app.ts', 'export { helper } from "@helpers/mapped";\n');
			write('test/helpers/mapped.ts', 'export * from "~scripts";\nexport const helper = 1;\n');
			write('scripts/lib/index.ts', 'export { run } from "./run.js";\n');
			write('scripts/lib/run.ts', 'export async function run() { return import("../../nodes/shared"); }\n');
			expect(walk().chains).toEqual(['sandbox/app.ts -> test/helpers/mapped.ts -> scripts/lib/index.ts -> scripts/lib/run.ts -> nodes/shared/index.ts']);
		});

		test('typeof import(), require(), jest.mock and /// <reference path> in a helper, and the built nodes in dist/', () => {
			write('sandbox/app.ts', 'import "../test/a";\n');
			write('test/a.ts', [
				'/// <reference path="../scripts/ref.ts" />',
				'type T = typeof import("../nodes/shared/enums");',
				'const r = require("../scripts/r");',
				'jest.mock("../nodes/shared/index");',
				'export { r }; export type { T };',
			].join('\n'));
			write('scripts/r.js', 'module.exports = require("../dist/nodes/Orchestration.node.js");\n');
			write('dist/nodes/Orchestration.node.js', 'module.exports = {};\n');
			write('scripts/ref.ts', 'import "../nodes/shared/enums";\n');
			expect(walk().chains.sort()).toEqual([
				'sandbox/app.ts -> test/a.ts -> nodes/shared/enums.ts',
				'sandbox/app.ts -> test/a.ts -> nodes/shared/index.ts',
				'sandbox/app.ts -> test/a.ts -> scripts/r.js -> dist/nodes/Orchestration.node.js',
				'sandbox/app.ts -> test/a.ts -> scripts/ref.ts -> nodes/shared/enums.ts',
			]);
		});

		test('an import that resolves to nothing, or a bare nodes/ alias no mapping resolves, fails too; with a baseUrl the alias is a chain', () => {
			write('sandbox/app.ts', 'import "./missing";\nimport { CHAINS } from "nodes/shared/enums";\nexport { CHAINS };\n');
			expect(walk()).toEqual({ chains: [], unresolved: ['sandbox/app.ts: ./missing', 'sandbox/app.ts: nodes/shared/enums'] });
			write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler', baseUrl: '.' } }));
			expect(walk()).toEqual({ chains: ['sandbox/app.ts -> nodes/shared/enums.ts'], unresolved: ['sandbox/app.ts: ./missing'] });
		});

		test('cycles end', () => {
			write('sandbox/app.ts', 'import "../test/c1";\n');
			write('test/c1.ts', 'import "./c2";\n');
			write('test/c2.ts', 'import "./c1";\nimport "../nodes/shared/enums";\n');
			expect(walk().chains).toEqual(['sandbox/app.ts -> test/c1.ts -> test/c2.ts -> nodes/shared/enums.ts']);
		});
	});
});
