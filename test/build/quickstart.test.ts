/**
 * `./quickstart` on a machine that lacks a prerequisite stops at once and says what to install,
 * before it fetches or installs anything.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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
