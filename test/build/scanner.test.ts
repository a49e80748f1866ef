/**
 * n8n's verification scanner passes on the packed tarball and on the source tree
 * (scripts/scan-package.mjs), and does fail on a restricted global in dist/.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function scan(env: Record<string, string> = {}): { status: number | null; out: string } {
	// Without jest's NODE_ENV=test, which makes n8n's lint plugin apply node-file rules to every file.
	const { NODE_ENV: _jest, ...inherited } = process.env;
	const r = spawnSync(process.execPath, ['scripts/scan-package.mjs'], {
		cwd: ROOT,
		encoding: 'utf8',
		env: { ...inherited, ...env },
	});
	return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('n8n verification scanner', () => {
	it('passes on the npm pack tarball and on the source tree', () => {
		const { status, out } = scan();
		expect(out).toMatch(/PASS scanner on tarball n8n-nodes-orchestration-\d+\.\d+\.\d+\.tgz/);
		expect(out).toContain('PASS scanner on source tree');
		expect(status).toBe(0);
	}, 120000);

	it('fails when dist/ touches a restricted global', () => {
		const { status, out } = scan({ SCAN_EXTRA_JS: path.join(__dirname, 'fixtures/restricted-global.js') });
		expect(out).toContain("Use of restricted global 'globalThis'");
		expect(out).toContain('FAIL scanner on tarball');
		expect(status).toBe(1);
	}, 120000);
});
