/**
 * One real n8n for the whole suite: the pinned install, this package's dist loaded through
 * N8N_CUSTOM_EXTENSIONS, the sandbox in this process, credentials pointed at it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox';
import { sandboxCredentials } from '../../scripts/lib/examples';
import { N8nInstance, REPO_ROOT, ensureN8nInstalled, freePort } from '../../scripts/lib/n8n-instance';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { bundle } = require('../../scripts/bundle.js');

export interface E2eEnv {
	sandbox: Sandbox;
	n8n: N8nInstance;
	userFolder: string;
	brokerPort: number;
	/** The bundle this run's n8n loads (bundleForN8n); removed by closeEnv. */
	dist?: string;
}

export const OWNER = { email: 'e2e-owner@sandbox.local', password: 'E2e-Owner-Passw0rd', firstName: 'E2E', lastName: 'Owner' };

/**
 * Bundles the package for one n8n run into a folder of its own inside the repository (where the
 * bundles resolve n8n-workflow from node_modules, as in dist/). Suites that run side by side (CI
 * runs them so) never rebuild the files another suite's n8n is loading. Remove it with removeDist.
 */
export async function bundleForN8n(): Promise<string> {
	const dist = fs.mkdtempSync(path.join(REPO_ROOT, '.dist-test-n8n-'));
	await bundle({ outdir: dist });
	return dist;
}

export function removeDist(dist: string | undefined): void {
	if (dist) fs.rmSync(dist, { recursive: true, force: true });
}

export async function createEnv(opts: { timeScale?: number; extraEnv?: Record<string, string> } = {}): Promise<E2eEnv> {
	const installDir = ensureN8nInstalled();
	const dist = await bundleForN8n();
	const sandbox = await startSandbox({ timeScale: opts.timeScale ?? 20, quiet: true });
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-e2e-n8n-'));
	const n8n = new N8nInstance({ installDir, userFolder, port: await freePort(), extensions: dist, extraEnv: opts.extraEnv });
	await n8n.importCredentials(sandboxCredentials(sandbox));
	return { sandbox, n8n, userFolder, brokerPort: await freePort(), dist };
}


export interface RunResult {
	ok: boolean;
	/** Output items (json) of each node that ran, by node name. */
	outputs: Record<string, Array<Record<string, unknown>>>;
	error?: string;
	raw: string;
}

/** `n8n execute --id` (exits 1 when the run fails) and the run data it prints. */
export async function executeWorkflow(env: E2eEnv, id: string): Promise<RunResult> {
	const r = await env.n8n.cli(['execute', `--id=${id}`, '--rawOutput'], {
		N8N_RUNNERS_BROKER_PORT: String(env.brokerPort),
		N8N_LOG_OUTPUT: 'console',
		N8N_LOG_LEVEL: 'info',
	});
	const raw = `${r.stdout}\n${r.stderr}\n(n8n execute exited with code ${r.code}${r.signal ? `, signal ${r.signal}` : ''})`;
	const outputs: RunResult['outputs'] = {};
	// Log lines come first; the run data is the JSON block that starts with a bare "{" line.
	const start = r.stdout.search(/^\{$/m);
	let printedSuccess = false;
	if ((r.code === 0 || r.signal !== null) && start >= 0) {
		// The block ends at the first unindented "}" line: log lines may follow it.
		const block = r.stdout.slice(start);
		const end = block.search(/^\}$/m);
		const text = end >= 0 ? block.slice(0, end + 1) : block;
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch (e) {
			throw new Error(`${String(e)}: the run data printed is ${text.length} characters, ending ${JSON.stringify(text.slice(-300))}`);
		}
		const run = parsed as {
			status?: string;
			finished?: boolean;
			data: { resultData: { runData: Record<string, Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> } }>> } };
		};
		printedSuccess = run.status === 'success' && run.finished === true;
		for (const [node, runs] of Object.entries(run.data.resultData.runData)) {
			outputs[node] = (runs[0]?.data?.main?.[0] ?? []).map((i) => i.json);
		}
	}
	// The CLI printed the whole run as a success, then died by a signal while shutting down (once, with
	// three n8n on the machine; nothing logged after the run): the run is what a test judges.
	const ok = r.code === 0 || (r.signal !== null && printedSuccess);
	return { ok, outputs, error: ok ? undefined : raw, raw };
}

export async function closeEnv(env: E2eEnv | undefined): Promise<void> {
	if (!env) return;
	await env.n8n.stop();
	await env.sandbox.close();
	removeDist(env.dist);
}
