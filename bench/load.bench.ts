/**
 * Package load cost at n8n start: the size of every dist/ JavaScript file and, for each node and
 * credential file listed in package.json, the median time to require it and construct its class
 * in a fresh Node process where n8n-workflow is already loaded (as it is inside n8n).
 * `LOAD_BENCH_DIST=<folder inside the repo>` measures an existing build instead of a fresh one.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { bundle, ROOT } = require('../scripts/bundle.js');

const RUNS = Number(process.env.LOAD_BENCH_RUNS ?? 15);

/** One fresh process: preload n8n-workflow, then time require + new of one entry, in ms. */
/** Arguments: file, class name, file, class name, ...: all loaded in one process, as n8n does. */
const PROBE = `
require('n8n-workflow');
const args = process.argv.slice(1);
const t0 = process.hrtime.bigint();
for (let i = 0; i < args.length; i += 2) new (require(args[i])[args[i + 1]])();
console.log(Number(process.hrtime.bigint() - t0) / 1e6);
`;

function loadMs(pairs: string[]): number {
	const out = execFileSync(process.execPath, ['-e', PROBE, ...pairs], { cwd: ROOT, encoding: 'utf8' });
	return Number(out.trim());
}

function median(xs: number[]): number {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)];
}

function jsFiles(dir: string): string[] {
	return (fs.readdirSync(dir, { recursive: true }) as string[])
		.filter((f) => f.endsWith('.js'))
		.sort();
}

async function distFolder(): Promise<{ dir: string; cleanup: () => void }> {
	const given = process.env.LOAD_BENCH_DIST;
	if (given) return { dir: path.resolve(given), cleanup: () => undefined };
	const dir = fs.mkdtempSync(path.join(ROOT, '.dist-test-bench-'));
	await bundle({ outdir: dir });
	return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export async function run(): Promise<void> {
	const { dir, cleanup } = await distFolder();
	try {
		let total = 0;
		console.log('file                                                   bytes');
		for (const f of jsFiles(dir)) {
			const size = fs.statSync(path.join(dir, f)).size;
			total += size;
			console.log(`${f.padEnd(52)} ${String(size).padStart(8)}`);
		}
		console.log(`${'all dist JavaScript (budget: test/build/dist.test.ts)'.padEnd(52)} ${String(total).padStart(8)}`);
		const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
		console.log(`\nload + construct, median of ${RUNS} fresh processes with n8n-workflow loaded (goal < 30 ms)`);
		const all: string[] = [];
		for (const listed of [...pkg.n8n.nodes, ...pkg.n8n.credentials] as string[]) {
			const file = path.join(dir, listed.replace(/^dist\//, ''));
			const pair = [file, path.basename(file).replace(/\.(node|credentials)\.js$/, '')];
			all.push(...pair);
			const times = Array.from({ length: RUNS }, () => loadMs(pair));
			console.log(`${path.basename(file).padEnd(52)} ${median(times).toFixed(1).padStart(6)} ms`);
		}
		const whole = Array.from({ length: RUNS }, () => loadMs(all));
		console.log(`${'the whole package, one process (n8n start)'.padEnd(52)} ${median(whole).toFixed(1).padStart(6)} ms`);
	} finally {
		cleanup();
	}
}
