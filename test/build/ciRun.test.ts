/**
 * .ci/run's scheduling, on stand-ins: a copy of the script in a folder whose npm, node and install
 * scripts only record what ran and sleep. Every step runs and is reported; the slow installs run in
 * the background beside npm ci, lint beside the build; a failing background install fails the run with
 * its log shown, and the first failure stops the steps still running, with what they started.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const STEPS = ['node24', 'npm-ci', 'n8n-install', 'test-deps', 'build', 'lint', 'pack-scan', 'test', 'node22', 'e2e', 'browser', 'queue', 'faults'];

let dir: string;
beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-ci-run-'));
	for (const d of ['.ci', 'scripts', 'bin']) fs.mkdirSync(path.join(dir, d));
	fs.copyFileSync(path.join(ROOT, '.ci', 'run'), path.join(dir, '.ci', 'run'));
	const stub = (file: string, body: string) => fs.writeFileSync(path.join(dir, file), `#!/usr/bin/env bash\n${body}\n`, { mode: 0o755 });
	stub('scripts/node24.sh', 'true');
	stub('scripts/node22.sh', 'true');
	// Each stand-in appends "<what> start|end" to ran.txt; FAIL names the one that exits 1.
	const record = (what: string, seconds: string) =>
		`echo "${what} start" >>"$CI_STUB_DIR/ran.txt"; sleep ${seconds}; echo "${what} end" >>"$CI_STUB_DIR/ran.txt"; [ "\${FAIL:-}" != "${what}" ]`;
	stub('scripts/install-n8n.sh', record('n8n-install', '${N8N_SECONDS:-0.5}'));
	stub('scripts/install-test-deps.sh', record('test-deps', '0.5'));
	stub(
		'bin/npm',
		[
			'case "$1" in',
			'--version) echo 11.0.0 ;;',
			`ci) ${record('npm-ci', '0.5')} ;;`,
			'pack) touch "$4/n8n-nodes-orchestration-0.1.0.tgz" ;;',
			`test) ${record('test', '3')} ;;`,
			`run) ${record('$2', '"$([ "$2" = lint ] && echo 1.5 || echo 0.3)"')} ;;`,
			'esac',
		].join('\n'),
	);
	stub('bin/node', '[ "$1" = --version ] && echo v24.0.0; true');
	stub('bin/npx', `${record('jest on node22', '0.3')}`);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function ciRun(env: Record<string, string> = {}) {
	const r = spawnSync('bash', [path.join(dir, '.ci', 'run')], {
		env: { ...process.env, PATH: `${path.join(dir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`, CI_STUB_DIR: dir, GITHUB_ACTIONS: '', ...env },
		encoding: 'utf8',
		timeout: 60_000,
	});
	const ran = fs.existsSync(path.join(dir, 'ran.txt')) ? fs.readFileSync(path.join(dir, 'ran.txt'), 'utf8').trim().split('\n') : [];
	const at = (line: string) => ran.indexOf(line);
	return { status: r.status, out: r.stdout + r.stderr, ran, at };
}

/** The report's row of a step: `name start seconds result`. */
const row = (out: string, step: string) => out.match(new RegExp(`^${step} +(\\S+) +(\\S+) +(.+)$`, 'm'))?.slice(1);

describe('.ci/run', () => {
	it('runs every step, installs beside npm ci, lint beside the build, and reports each step', () => {
		const { status, out, at } = ciRun();
		expect(status).toBe(0);
		for (const step of STEPS) expect({ step, result: row(out, step)?.[2] }).toEqual({ step, result: 'ok' });
		// n8n's install started before npm ci ended, lint beside the build; the suites one after another.
		expect(at('n8n-install start')).toBeLessThan(at('npm-ci end'));
		expect(at('lint start')).toBeLessThan(at('build end'));
		expect(at('test:e2e start')).toBeGreaterThan(at('test end'));
		// Node 22 after npm test, before the suites in a real n8n
		expect(at('jest on node22 start')).toBeGreaterThan(at('test end'));
		expect(at('test:e2e start')).toBeGreaterThan(at('jest on node22 end'));
		expect(at('test:e2e:queue start')).toBeGreaterThan(at('test:e2e end'));
		expect(at('test:e2e:faults start')).toBeGreaterThan(at('test:e2e:queue end'));
		expect(at('test:browser start')).toBeGreaterThan(at('test:e2e:faults end'));
		// The suites that need n8n waited for it; the browser suite for Debian's packages.
		expect(at('test:e2e start')).toBeGreaterThan(at('n8n-install end'));
		expect(at('test:browser start')).toBeGreaterThan(at('test-deps end'));
		expect(out).toMatch(/wall time of \.ci\/run: \d+ s/);
	});

	it('fails when a background install fails, shows its log, and stops what runs', () => {
		const { status, out, ran } = ciRun({ FAIL: 'n8n-install', N8N_SECONDS: '2' });
		expect(status).toBe(1);
		expect(out).toContain('----- n8n-install: FAILED with exit code 1');
		expect(out).toContain('.ci/run: step n8n-install failed');
		expect(row(out, 'n8n-install')?.[2]).toBe('FAILED (1)');
		for (const suite of ['test:e2e', 'test:e2e:faults', 'test:e2e:queue', 'test:browser']) expect(ran).not.toContain(`${suite} start`);
	});

	it('stops the steps still running when one fails, with what they started', () => {
		const { status, out, ran } = ciRun({ FAIL: 'lint' });
		expect(status).toBe(1);
		expect(row(out, 'lint')?.[2]).toBe('FAILED (1)');
		// npm test had started beside lint; it never ended, nor did anything start after it.
		expect(ran).toContain('test start');
		expect(ran).not.toContain('test end');
		expect(row(out, 'test')?.[2]).toBe('stopped');
		expect(ran).not.toContain('test:e2e start');
	});
});
