/**
 * Prints the shape measures of issues 13 and 24: files one operation's bundle pulls in, shipped lines,
 * files over 400 lines, import circles, long or wide functions, duplicate pairs not marked
 * boilerplate, and (after `npm run build`) the size of dist/ and the cold load time of each entry.
 * Run: npx tsx scripts/measure-shape.ts [--files]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { bundledShippedFiles, isOperationSource } from './lib/operationBundle';

const ROOT = join(__dirname, '..');
const SHIPPED_DIRS = ['nodes', 'credentials'];
const MAX_FUNCTION_LINES = 50;
const MAX_PARAMETERS = 4;
const MAX_FILE_LINES = 400;
/** Fresh `node` processes per entry for the cold load time; the median is printed. */
const COLD_LOAD_RUNS = 5;
/** The operations the issue bounds, and the bound. */
const BOUNDED_OPERATIONS: Record<string, number> = { 'Orchestration quote.create': 12, 'ExecutionGateway intent.execute': 12 };

function filesUnder(dir: string): string[] {
	return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
		.map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

const shippedFiles = SHIPPED_DIRS.flatMap(filesUnder).sort();

/** Operation files: nodes/<Node>/actions/<resource>/<op>(.operation).ts that export the operation's `execute` (not indexes or shared pieces). */
function operationFiles(): Array<{ name: string; file: string }> {
	const pattern = /^nodes\/(\w+)\/actions\/(\w+)\/(\w+?)(?:\.operation)?\.ts$/;
	return shippedFiles.flatMap((file) => {
		const match = pattern.exec(file);
		if (!match || !isOperationSource(readFileSync(join(ROOT, file), 'utf8'))) return [];
		return [{ name: `${match[1]} ${match[2]}.${match[3]}`, file }];
	});
}

function shippedLines(): number {
	return shippedFiles.reduce((sum, file) => sum + linesOf(file), 0);
}

function linesOf(file: string): number {
	return readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1;
}

/** The shipped files a file imports by relative path (type-only imports included: they are read too). */
function importsOf(file: string): string[] {
	const source = readFileSync(join(ROOT, file), 'utf8');
	const specifiers = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g)].map((m) => m[1]);
	return specifiers.flatMap((spec) => {
		const base = join(dirname(file), spec);
		const found = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(join(ROOT, candidate)));
		return found ? [found] : [];
	});
}

/** Import circles: strongly connected groups of more than one file (Tarjan), each listed once. */
function importCircles(): string[][] {
	const graph = new Map(shippedFiles.map((file) => [file, importsOf(file)] as const));
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const circles: string[][] = [];
	let next = 0;
	const visit = (file: string): void => {
		index.set(file, next);
		low.set(file, next++);
		stack.push(file);
		onStack.add(file);
		for (const target of graph.get(file) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(file, Math.min(low.get(file)!, low.get(target)!));
			} else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
		}
		if (low.get(file) !== index.get(file)) return;
		const group: string[] = [];
		for (let member = stack.pop()!; ; member = stack.pop()!) {
			onStack.delete(member);
			group.push(member);
			if (member === file) break;
		}
		if (group.length > 1 || graph.get(file)?.includes(file)) circles.push(group.sort());
	};
	for (const file of shippedFiles) if (!index.has(file)) visit(file);
	return circles;
}

function distFiles(): string[] {
	const dist = join(ROOT, 'dist');
	if (!existsSync(dist)) return [];
	return readdirSync(dist, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile())
		.map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
		.sort();
}

/**
 * ms to require() one dist entry in a fresh node process, median of COLD_LOAD_RUNS; with
 * `withoutN8n`, n8n-workflow is required first and not counted (what this package's own code costs).
 */
function coldLoadMs(entry: string, withoutN8n = false): number {
	const preload = withoutN8n ? "require('n8n-workflow');" : '';
	const script = `${preload}const t=process.hrtime.bigint();require(${JSON.stringify(join(ROOT, entry))});process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`;
	const runs = Array.from({ length: COLD_LOAD_RUNS }, () => Number(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })));
	return runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)];
}

function printDist(): void {
	const files = distFiles();
	if (files.length === 0) {
		console.log('dist/: not built (npm run build first)');
		return;
	}
	const bytes = (list: string[]) => list.reduce((sum, f) => sum + statSync(join(ROOT, f)).size, 0);
	const js = files.filter((f) => f.endsWith('.js'));
	console.log(`dist/: ${bytes(files)} bytes in ${files.length} files (JavaScript ${bytes(js)} bytes in ${js.length} files)`);
	const entries = js.filter((f) => /\.(node|credentials)\.js$/.test(f));
	console.log(`Cold load (require() in a fresh node process, median of ${COLD_LOAD_RUNS}): all / with n8n-workflow already loaded`);
	let total = 0;
	let own = 0;
	for (const entry of entries) {
		const ms = coldLoadMs(entry);
		const ownMs = coldLoadMs(entry, true);
		total += ms;
		own += ownMs;
		console.log(`  ${entry.padEnd(60)} ${ms.toFixed(1).padStart(7)} ms ${ownMs.toFixed(1).padStart(7)} ms`);
	}
	console.log(`  ${'sum of the medians'.padEnd(60)} ${total.toFixed(1).padStart(7)} ms ${own.toFixed(1).padStart(7)} ms`);
}

interface FunctionFinding {
	where: string;
	lines: number;
	parameters: number;
}

function functionsOf(file: string): FunctionFinding[] {
	const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
	const found: FunctionFinding[] = [];
	const visit = (node: ts.Node): void => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
			const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			const parameters = node.parameters.filter((p) => p.name.getText() !== 'this').length;
			found.push({ where: `${file}:${start + 1}`, lines: end - start + 1, parameters });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** Pairs `duplicates` reports and does not mark boilerplate, from its summary line. */
function duplicatePairs(dir: string): number {
	const output = execFileSync('duplicates', ['--repo', dir, '--seconds', '120'], { cwd: ROOT, encoding: 'utf8' });
	const summary = /^(\d+) pairs.*?(?:(\d+) of those marked boilerplate)?\)?$/m.exec(output);
	if (/^no duplicates/m.test(output)) return 0;
	if (!summary) throw new Error(`Unexpected duplicates output: ${output.split('\n')[0]}`);
	return Number(summary[1]) - Number(summary[2] ?? 0);
}

async function main(): Promise<void> {
	console.log('Files under nodes/ and credentials/ in the bundle of one operation:');
	for (const { name, file } of operationFiles()) {
		const files = await bundledShippedFiles(file);
		const bound = BOUNDED_OPERATIONS[name];
		console.log(`  ${name.padEnd(42)} ${String(files.length).padStart(3)}${bound === undefined ? '' : `  (bound ${bound})`}`);
		// --files lists them for the bounded operations.
		if (bound !== undefined && process.argv.includes('--files')) for (const f of files) console.log(`      ${f}`);
	}
	console.log(`Shipped lines (.ts under nodes/ and credentials/): ${shippedLines()} in ${shippedFiles.length} files`);
	const tooLong = shippedFiles.filter((file) => linesOf(file) > MAX_FILE_LINES);
	console.log(`Shipped files over ${MAX_FILE_LINES} lines: ${tooLong.length}`);
	for (const file of tooLong) console.log(`  ${file} (${linesOf(file)} lines)`);
	const circles = importCircles();
	console.log(`Import circles: ${circles.length}`);
	for (const circle of circles) console.log(`  ${circle.join(' <-> ')}`);
	const functions = shippedFiles.flatMap(functionsOf);
	const long = functions.filter((f) => f.lines > MAX_FUNCTION_LINES);
	const wide = functions.filter((f) => f.parameters > MAX_PARAMETERS);
	console.log(`Functions over ${MAX_FUNCTION_LINES} lines: ${long.length}`);
	for (const f of long) console.log(`  ${f.where} (${f.lines} lines)`);
	console.log(`Functions over ${MAX_PARAMETERS} parameters: ${wide.length}`);
	for (const f of wide) console.log(`  ${f.where} (${f.parameters} parameters)`);
	const pairs = SHIPPED_DIRS.map((dir) => [dir, duplicatePairs(dir)] as const);
	const total = pairs.reduce((sum, [, n]) => sum + n, 0);
	console.log(`Duplicate pairs not marked boilerplate: ${total} (${pairs.map(([d, n]) => `${d} ${n}`).join(', ')}; bound 5)`);
	printDist();
}

void main();
