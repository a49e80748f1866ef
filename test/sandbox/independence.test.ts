/**
 * The sandbox is a test oracle (docs/sandbox.md): written from the specs and the public notes, it must
 * share no code with the nodes it checks, or a belief both got wrong passes every test. This scans
 * every source file under sandbox/ for module specifiers (static and type-only imports, re-exports,
 * `import x = require()`, `require()`, dynamic `import()`, `typeof import()` types, `jest.mock`) and
 * fails on any that resolves into nodes/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const SANDBOX = join(ROOT, 'sandbox');
const NODES = join(ROOT, 'nodes');

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
	const found: string[] = [];
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
			if (callee.kind === ts.SyntaxKind.ImportKeyword || named('require') || ['require.resolve', 'jest.mock', 'jest.requireActual'].includes(member)) {
				literal(node.arguments[0]);
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** The specifiers of `text` (a file at `fileName`) that reach into nodes/. */
function nodesImportsOf(fileName: string, text: string): string[] {
	return specifiersOf(fileName, text).filter((specifier) => {
		// a bare `nodes/...` would resolve through a path alias or baseUrl: refused too
		if (!specifier.startsWith('.') && !specifier.startsWith('/')) return /^nodes(\/|$)/.test(specifier);
		const target = resolve(dirname(fileName), specifier);
		return target === NODES || target.startsWith(NODES + sep);
	});
}

describe('the sandbox imports nothing from nodes/', () => {
	const files = sourceFiles(SANDBOX);

	test('it has source files to scan', () => {
		expect(files.length).toBeGreaterThan(40);
	});

	test('no file under sandbox/ names a module under nodes/', () => {
		const offending = files.flatMap((file) =>
			nodesImportsOf(file, readFileSync(file, 'utf8')).map((specifier) => `${relative(ROOT, file)}: ${specifier}`),
		);
		expect(offending).toEqual([]);
	});

	test('the scan finds every form of import (so the check above can fail)', () => {
		const file = join(SANDBOX, 'orchestration', 'probe.ts');
		const text = [
			"import { a } from '../../nodes/shared/orchestration/enums';",
			"import type { B } from '../../nodes/shared/errors';",
			"import c = require('../../nodes/shared/sha256');",
			"export { d } from '../../nodes/shared/gateway';",
			"export * from '../../nodes/shared/orchestration';",
			"const e = require('../../nodes/shared/redact');",
			"const f = await import('../../nodes/shared/pacing');",
			"type G = typeof import('../../nodes/shared/inputs');",
			"jest.mock('../../nodes/shared/retries');",
			"import './../../nodes/n8n/transport';",
			"import { ok } from './spec';",
			"import { z } from 'zod';",
			"import { fine } from '../../sandbox/orchestration/spec';",
			"import { alias } from 'nodes/shared/errors';",
		].join('\n');
		expect(nodesImportsOf(file, text)).toEqual([
			'../../nodes/shared/orchestration/enums',
			'../../nodes/shared/errors',
			'../../nodes/shared/sha256',
			'../../nodes/shared/gateway',
			'../../nodes/shared/orchestration',
			'../../nodes/shared/redact',
			'../../nodes/shared/pacing',
			'../../nodes/shared/inputs',
			'../../nodes/shared/retries',
			'./../../nodes/n8n/transport',
			'nodes/shared/errors',
		]);
	});
});
