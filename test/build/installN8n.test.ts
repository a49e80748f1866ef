/**
 * scripts/install-n8n.sh keeps n8n in a cache folder keyed by the sha256 of its lock file: a machine
 * that installed this lock once reuses it (CI's warm runs), and a changed lock never installs under
 * an n8n another checkout runs. Checked on a stand-in cache (no install is started: each case leaves
 * a ready folder, or npm pointed at nothing so an install would fail).
 */
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const RUNTIME = path.join(ROOT, 'scripts', 'n8n-runtime');
const VERSION: string = JSON.parse(fs.readFileSync(path.join(RUNTIME, 'package.json'), 'utf8')).dependencies.n8n;
const LOCK_SHA = crypto.createHash('sha256').update(fs.readFileSync(path.join(RUNTIME, 'package-lock.json'))).digest('hex');

let tools: string;
beforeEach(() => {
	tools = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-install-n8n-'));
});
afterEach(() => fs.rmSync(tools, { recursive: true, force: true }));

/** Runs the script on the stand-in cache; an install it starts fails at once (no registry). */
function install(): { status: number | null; dir: string; stderr: string } {
	const r = spawnSync('bash', [path.join(ROOT, 'scripts', 'install-n8n.sh')], {
		env: {
			...process.env,
			// This Node 24 (node24.sh installs none), and an npm with an empty cache, offline.
			PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
			ORCH_TOOLS: tools,
			N8N_HOME_DIR: '',
			npm_config_cache: path.join(tools, 'npm-cache'),
			npm_config_offline: 'true',
			npm_config_registry: 'http://127.0.0.1:9/',
		},
		encoding: 'utf8',
		timeout: 60_000,
	});
	return { status: r.status, dir: r.stdout.trim().split('\n').pop() ?? '', stderr: r.stderr };
}

/** A folder as a finished install leaves it: n8n's bin and `.ready` holding `sha`. */
function readyInstall(dir: string, sha: string): void {
	fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
	fs.writeFileSync(path.join(dir, 'node_modules', '.bin', 'n8n'), '#!/bin/sh\n', { mode: 0o755 });
	fs.writeFileSync(path.join(dir, '.ready'), `${sha}\n`);
}

describe('install-n8n.sh: the n8n cache keyed by its lock file', () => {
	const keyed = () => path.join(tools, `n8n-${VERSION}-${LOCK_SHA.slice(0, 16)}`);

	it('reuses the folder named after this lock when it is ready, installing nothing', () => {
		readyInstall(keyed(), LOCK_SHA);
		expect(install()).toMatchObject({ status: 0, dir: keyed() });
	});

	it('a folder of another lock is left alone: this lock installs into its own', () => {
		const other = path.join(tools, `n8n-${VERSION}-0123456789abcdef`);
		readyInstall(other, '0123456789abcdef'.repeat(4));
		const r = install();
		expect(r.status).not.toBe(0); // the install was attempted (and failed without a registry)
		expect(r.stderr).toContain(`into ${keyed()}`);
		expect(fs.readFileSync(path.join(other, '.ready'), 'utf8').trim()).toBe('0123456789abcdef'.repeat(4));
	});

	it('takes an install of the unkeyed layout made from this same lock, through a link', () => {
		const legacy = path.join(tools, `n8n-${VERSION}`);
		readyInstall(legacy, LOCK_SHA);
		expect(install()).toMatchObject({ status: 0, dir: keyed() });
		expect(fs.realpathSync(keyed())).toBe(fs.realpathSync(legacy));
	});

	it('never installs through a link whose folder now holds another lock', () => {
		const legacy = path.join(tools, `n8n-${VERSION}`);
		readyInstall(legacy, 'f'.repeat(64));
		fs.symlinkSync(legacy, keyed());
		const r = install();
		expect(r.stderr).toContain(`into ${keyed()}`);
		expect(fs.lstatSync(keyed()).isSymbolicLink()).toBe(false);
		expect(fs.readFileSync(path.join(legacy, '.ready'), 'utf8').trim()).toBe('f'.repeat(64));
	});
});
