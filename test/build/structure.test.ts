/**
 * The structure's rules that matter to a reader: no import circles (type-only imports count: a
 * reader follows them too), the protocol core (nodes/shared) imports nothing from n8n and nothing of
 * the nodes, and n8n's errors are made in one file (nodes/n8n/errors.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const SOURCE_DIRS = ['nodes', 'credentials', 'sandbox', 'scripts', 'bench'];

function tsFilesUnder(dir: string): string[] {
	if (!existsSync(join(ROOT, dir))) return [];
	return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
		.filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
		.map((e) => relative(ROOT, join(e.parentPath, e.name)))
		.sort();
}

/** Every module a file names in an import or export (`import type` included). */
function specifiersOf(file: string): string[] {
	return ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true).importedFiles.map((f) => f.fileName);
}

/** A relative specifier as the file it names (`.ts`, or a folder's index.ts); undefined for packages. */
function resolved(file: string, specifier: string): string | undefined {
	if (!specifier.startsWith('.')) return undefined;
	const base = join(dirname(file), specifier);
	return [`${base}.ts`, base, join(base, 'index.ts')].find((candidate) => candidate.endsWith('.ts') && existsSync(join(ROOT, candidate)));
}

const files = SOURCE_DIRS.flatMap(tsFilesUnder);
const imports = new Map(files.map((file) => [file, specifiersOf(file)]));
const edges = new Map(files.map((file) => [file, (imports.get(file) ?? []).flatMap((s) => resolved(file, s) ?? [])]));

/** Groups of two files or more that import each other, each listed once (Tarjan's strongly connected components). */
function circles(): string[][] {
	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[][] = [];
	const visit = (file: string): void => {
		index.set(file, counter);
		low.set(file, counter);
		counter++;
		stack.push(file);
		onStack.add(file);
		for (const next of edges.get(file) ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(file, Math.min(low.get(file)!, low.get(next)!));
			} else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
		}
		if (low.get(file) === index.get(file)) {
			const group: string[] = [];
			let member: string;
			do {
				member = stack.pop()!;
				onStack.delete(member);
				group.push(member);
			} while (member !== file);
			if (group.length > 1) found.push(group.sort());
		}
	};
	for (const file of files) if (!index.has(file)) visit(file);
	return found;
}

describe('the structure', () => {
	it('reads the source tree (the rules below are about real files)', () => {
		expect(files).toContain('nodes/shared/errors.ts');
		expect(edges.get('nodes/n8n/items.ts')).toContain('nodes/n8n/errors.ts');
	});

	it('has no import circles', () => {
		expect(circles()).toEqual([]);
	});

	it('keeps the protocol core free of n8n and of the nodes: nodes/shared imports only nodes/shared and libraries', () => {
		const crossings = files
			.filter((file) => file.startsWith('nodes/shared/'))
			.flatMap((file) =>
				(imports.get(file) ?? [])
					.filter((s) => /^n8n-/.test(s) || (s.startsWith('.') && !(resolved(file, s) ?? join(dirname(file), s)).startsWith('nodes/shared/')))
					.map((s) => `${file} -> ${s}`),
			);
		expect(crossings).toEqual([]);
	});

	it("makes n8n's errors in nodes/n8n/errors.ts only (ItemError, ServiceError; the loop translates the core's)", () => {
		const makers = files
			.filter((file) => file.startsWith('nodes/') && file !== 'nodes/n8n/errors.ts')
			.filter((file) => /new (NodeOperationError|NodeApiError)\(/.test(readFileSync(join(ROOT, file), 'utf8')));
		expect(makers).toEqual([]);
	});
});
