/**
 * Prints the shape measures of issue 13: files one operation's bundle pulls in, shipped lines,
 * long or wide functions, and duplicate pairs not marked boilerplate. Run: npx tsx scripts/measure-shape.ts [--files]
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';

const ROOT = join(__dirname, '..');
const SHIPPED_DIRS = ['nodes', 'credentials'];
const MAX_FUNCTION_LINES = 50;
const MAX_PARAMETERS = 4;
/** The operations the issue bounds, and the bound. */
const BOUNDED_OPERATIONS: Record<string, number> = { 'Orchestration quote.create': 12, 'ExecutionGateway intent.execute': 12 };

function filesUnder(dir: string): string[] {
	return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
		.map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

const shippedFiles = SHIPPED_DIRS.flatMap(filesUnder).sort();

/** Operation files: nodes/<Node>/actions/<resource>/<op>(.operation).ts, not indexes or shared pieces. */
function operationFiles(): Array<{ name: string; file: string }> {
	const pattern = /^nodes\/(\w+)\/actions\/(\w+)\/(\w+?)(?:\.operation)?\.ts$/;
	return shippedFiles.flatMap((file) => {
		const match = pattern.exec(file);
		if (!match || ['index', 'description', 'types'].includes(match[3])) return [];
		return [{ name: `${match[1]} ${match[2]}.${match[3]}`, file }];
	});
}

async function bundledShippedFiles(file: string): Promise<string[]> {
	const result = await build({
		stdin: { contents: `export * from './${file}';`, resolveDir: ROOT, loader: 'ts' },
		bundle: true,
		write: false,
		metafile: true,
		platform: 'node',
		format: 'cjs',
		logLevel: 'silent',
		external: ['n8n-workflow', 'n8n-core'],
	});
	return Object.keys(result.metafile.inputs).filter((input) => SHIPPED_DIRS.some((dir) => input.startsWith(`${dir}/`)));
}

function shippedLines(): number {
	return shippedFiles.reduce((sum, file) => sum + readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1, 0);
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
}

void main();
