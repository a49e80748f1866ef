/**
 * `./quickstart` on a machine that lacks a prerequisite stops at once and says what to install,
 * before it fetches or installs anything; `npm start` (which it runs) logs in with secrets of its
 * clone's own, made on the first start and reused after.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { START_SECRETS_FILE, isN8nPassword, loginLines, startSecrets } from '../../scripts/lib/startSecrets';

const ROOT = path.resolve(__dirname, '../..');

function which(tool: string): string {
	return spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
}

describe('./quickstart prerequisites', () => {
	it('fails at once naming what is missing and how to install it, having fetched and written nothing', () => {
		const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-minbin-'));
		const home = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-home-'));
		try {
			for (const tool of ['bash', 'dirname']) fs.symlinkSync(which(tool), path.join(bin, tool));
			// Without npm, tar or curl on PATH nothing can be fetched; an empty HOME shows nothing was written.
			const r = spawnSync(path.join(bin, 'bash'), [path.join(ROOT, 'quickstart')], {
				env: { HOME: home, PATH: bin },
				encoding: 'utf8',
			});
			expect(r.status).toBe(1);
			expect(r.stderr).toContain('quickstart: missing npm tar python3 make g++');
			expect(r.stderr).toContain('apt-get install -y nodejs npm python3 make g++');
			expect(fs.readdirSync(home)).toEqual([]);
		} finally {
			fs.rmSync(bin, { recursive: true, force: true });
			fs.rmSync(home, { recursive: true, force: true });
		}
	});
});

describe("npm start's owner password and encryption key", () => {
	let root: string;
	beforeEach(() => {
		root = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-start-secrets-'));
	});
	afterEach(() => {
		fs.rmSync(root, { recursive: true, force: true });
	});
	/** The n8n user folder of a clone: <clone>/.n8n-cache/user. */
	const userFolderOf = (clone: string) => path.join(root, clone, '.n8n-cache', 'user');
	const mode = (p: string) => fs.statSync(p).mode & 0o777;

	it('are made at random per clone: two clones get different ones, each a password n8n accepts', () => {
		const a = startSecrets(userFolderOf('a'));
		const b = startSecrets(userFolderOf('b'));
		expect([a.created, b.created]).toEqual([true, true]);
		expect(a.ownerPassword).not.toBe(b.ownerPassword);
		expect(a.encryptionKey).not.toBe(b.encryptionKey);
		for (const s of [a, b]) {
			expect(isN8nPassword(s.ownerPassword)).toBe(true);
			expect(s.encryptionKey).toMatch(/^[0-9a-f]{64}$/);
			expect(s.ownerPassword).not.toBe('Sandbox-Owner-1');
			expect(s.encryptionKey).not.toBe('sandbox-only-encryption-key-not-secret');
		}
	});

	it('are kept in the user folder, readable by the user only, and a second start reuses them', () => {
		const folder = userFolderOf('a');
		fs.mkdirSync(folder, { recursive: true, mode: 0o755 });
		fs.chmodSync(folder, 0o755);
		const first = startSecrets(folder);
		expect(first.file).toBe(path.join(folder, START_SECRETS_FILE));
		expect({ folder: mode(folder), file: mode(first.file) }).toEqual({ folder: 0o700, file: 0o600 });
		// n8n writes its database and settings meanwhile
		fs.mkdirSync(path.join(folder, '.n8n'));
		fs.writeFileSync(path.join(folder, '.n8n', 'config'), '{}');
		fs.chmodSync(first.file, 0o644);
		const again = startSecrets(folder);
		expect(again).toEqual({ ...first, created: false });
		expect(mode(again.file)).toBe(0o600);
		expect(fs.existsSync(path.join(folder, '.n8n', 'config'))).toBe(true);
	});

	it('never reuse a user folder made with the fixed key of before: it is moved aside, whole', () => {
		const folder = userFolderOf('a');
		fs.mkdirSync(path.join(folder, '.n8n'), { recursive: true });
		fs.writeFileSync(path.join(folder, '.n8n', 'config'), JSON.stringify({ encryptionKey: 'sandbox-only-encryption-key-not-secret' }));
		fs.writeFileSync(path.join(folder, 'LOGIN.txt'), 'owner@sandbox.local\nSandbox-Owner-1\n');
		const s = startSecrets(folder, new Date('2026-05-01T10:20:30.400Z'));
		expect(s.movedAside).toBe(`${folder}.before-secrets-2026-05-01T10-20-30-400Z`);
		expect(fs.readdirSync(s.movedAside!).sort()).toEqual(['.n8n', 'LOGIN.txt']);
		expect(fs.readdirSync(folder)).toEqual([START_SECRETS_FILE]);
		expect(s.created).toBe(true);
	});

	it('refuse a secrets file they did not write, naming it', () => {
		const folder = userFolderOf('a');
		fs.mkdirSync(folder, { recursive: true });
		fs.writeFileSync(path.join(folder, START_SECRETS_FILE), JSON.stringify({ ownerPassword: 'short', encryptionKey: 'k' }));
		expect(() => startSecrets(folder)).toThrow(`${path.join(folder, START_SECRETS_FILE)} does not hold what npm start wrote there`);
	});

	it('are printed as the login (the password) and where they are kept (the key itself is not printed)', () => {
		const s = startSecrets(userFolderOf('a'));
		const text = loginLines('owner@sandbox.local', s);
		expect(text).toContain(`Login:     owner@sandbox.local / ${s.ownerPassword}`);
		expect(text).toContain(s.file);
		expect(text).not.toContain(s.encryptionKey);
	});

	it('are what scripts/start.ts starts n8n and logs in with (no fixed password or key left in it)', () => {
		const source = fs.readFileSync(path.join(ROOT, 'scripts', 'start.ts'), 'utf8');
		expect(source).toContain('startSecrets(userFolder)');
		expect(source).toContain('encryptionKey: secrets.encryptionKey');
		expect(source).toContain('password: secrets.ownerPassword');
		expect(source).not.toMatch(/\bOWNER\b|Sandbox-Owner-1|encryption-key-not-secret/);
	});
});
