import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

/** Runs the CLI until it printed its URLs; returns the child and what it printed. */
function runCli(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; output: () => string }> {
	const child = spawn(TSX, [join(ROOT, 'sandbox', 'cli.ts'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
	child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`CLI did not start:\n${out}`)), 20_000);
		child.stdout?.on('data', () => {
			if (out.includes('Press Ctrl+C')) {
				clearTimeout(timer);
				resolve({ child, output: () => out });
			}
		});
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`CLI exited with ${code}:\n${out}`));
		});
	});
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('npm run sandbox (sandbox/cli.ts)', () => {
	it('starts both services on free ports, prints URLs and keys, and stops on SIGTERM', async () => {
		const { child, output } = await runCli(['--orchestration-port', '0', '--large-catalogue', '--status-shape', 'flat'], { GATEWAY_SANDBOX_PORT: '0', SANDBOX_TIME_SCALE: '50' });
		try {
			const text = output();
			const orch = /Orchestration sandbox: (http:\/\/127\.0\.0\.1:[0-9]+)/.exec(text)?.[1];
			const gw = /Execution gateway sandbox: (http:\/\/127\.0\.0\.1:[0-9]+)/.exec(text)?.[1];
			expect(orch).toBeDefined();
			expect(gw).toBeDefined();
			expect(text).toContain('Time scale: 50x');
			expect(text).toContain('fn_sandbox_server_partner1');
			expect(text).toContain('1111111111111111111111111111111111111111111111111111111111111111');
			const keys = (await (await fetch(`${orch}/sandbox/keys`)).json()) as { gateway: { baseUrl: string } };
			expect(keys.gateway.baseUrl).toBe(gw);
			const switches = ((await (await fetch(`${orch}/sandbox/config`)).json()) as { switches: Record<string, unknown> }).switches;
			expect(switches).toMatchObject({ largeCatalogue: true, statusShape: 'flat', approvalEnforced: false });
			expect((await fetch(`${gw}/api/v1/health`)).status).toBe(200);
			const done = exited(child);
			child.kill('SIGTERM');
			expect(await done).toBe(0);
			expect(output()).toContain('SIGTERM: stopping the sandbox');
		} finally {
			if (child.exitCode === null) child.kill('SIGKILL');
		}
	});

	it('rejects a bad option value', async () => {
		await expect(runCli(['--time-scale', 'fast'])).rejects.toThrow(/--time-scale must be a non-negative number/);
	});
});
