/**
 * The published package has no runtime dependencies: every dist file may require only node
 * built-ins, n8n-workflow and the modules n8n itself provides to community nodes.
 */
import { builtinModules } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { bundle, entries, distPathFor, ROOT } = require('../../scripts/bundle.js');

const N8N_PROVIDED = new Set(['n8n-workflow']);
const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

function requiredModules(source: string): string[] {
	const found = new Set<string>();
	for (const m of source.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)) found.add(m[1]);
	for (const m of source.matchAll(/\bimport\(\s*["'`]([^"'`]+)["'`]\s*\)/g)) found.add(m[1]);
	for (const m of source.matchAll(/^\s*import\s[^'"]*from\s+["']([^"']+)["']/gm)) found.add(m[1]);
	return [...found];
}

describe('dist bundle', () => {
	let outdir: string;
	let files: string[];
	beforeAll(async () => {
		// Inside the repository, so the bundles resolve n8n-workflow (a peer) from node_modules as in n8n.
		outdir = fs.mkdtempSync(path.join(ROOT, '.dist-test-'));
		files = await bundle({ outdir });
	}, 120000);
	afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

	it('requireModules finds what a bundle would leak', () => {
		expect(requiredModules('const a = require("zod"); import("x"); require(\'node:fs\')').sort()).toEqual(
			['node:fs', 'x', 'zod'].sort(),
		);
	});

	it('lists every node and credential of the source tree in package.json', () => {
		const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
		const listed = [...pkg.n8n.nodes, ...pkg.n8n.credentials].sort();
		expect(listed).toEqual((entries() as string[]).map(distPathFor).sort());
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	});

	it('requires nothing but node built-ins and n8n-provided modules', () => {
		const offenders: string[] = [];
		for (const rel of files) {
			const src = fs.readFileSync(path.join(outdir, rel.replace(/^dist\//, '')), 'utf8');
			for (const mod of requiredModules(src)) {
				if (!BUILTINS.has(mod) && !N8N_PROVIDED.has(mod)) offenders.push(`${rel}: ${mod}`);
			}
		}
		expect(offenders).toEqual([]);
	});

	it('exports each entry class by name, loadable with require', () => {
		for (const rel of files) {
			const abs = path.join(outdir, rel.replace(/^dist\//, ''));
			const className = path.basename(rel).replace(/\.(node|credentials)\.js$/, '');
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const mod = require(abs);
			expect(typeof mod[className]).toBe('function');
			expect(new mod[className]()).toBeTruthy();
		}
	});
});
