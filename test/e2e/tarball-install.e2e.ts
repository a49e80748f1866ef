/**
 * The README's install from a tarball, in a real n8n: `npm pack`, `npm install <tgz>` in
 * ~/.n8n/nodes (peers omitted, as n8n's own installer does), restart. n8n finds the package as a
 * community package (type prefix `n8n-nodes-orchestration.`), its files load their shared chunks,
 * n8n-workflow and zod/v3 resolve to n8n's own, and example 4 (a signed gateway deposit) runs as
 * stored in examples/.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox';
import { forSandbox, loadExamples, sandboxCredentials } from '../../scripts/lib/examples';
import { N8nInstance, ensureN8nInstalled, freePort } from '../../scripts/lib/n8n-instance';
import { executeWorkflow, type E2eEnv } from './env';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { packStaged } = require('../../scripts/pack.js');

function installTarball(userFolder: string, tarball: string): string {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	fs.writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
	const npm = ['install', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', tarball];
	execFileSync('npm', npm, { cwd: nodesDir, stdio: 'pipe' });
	return path.join(nodesDir, 'node_modules');
}

describe('installed from the npm pack tarball into ~/.n8n/nodes', () => {
	let sandbox: Sandbox | undefined;
	let env: E2eEnv;
	let installed: string;
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-tarball-'));

	beforeAll(async () => {
		const installDir = ensureN8nInstalled();
		const tarball = await packStaged(tmp);
		const userFolder = path.join(tmp, 'user');
		installed = installTarball(userFolder, tarball);
		sandbox = await startSandbox({ timeScale: 20, quiet: true });
		const noCustomNodes = fs.mkdtempSync(path.join(tmp, 'custom-'));
		const n8n = new N8nInstance({ installDir, userFolder, port: await freePort(), extensions: noCustomNodes });
		env = { sandbox, n8n, userFolder, brokerPort: await freePort() };
		await n8n.importCredentials(sandboxCredentials(sandbox));
		const deposit = loadExamples().find((e) => e.workflow.id === 'exGatewayDeposit');
		if (!deposit) throw new Error('examples/ has no exGatewayDeposit workflow');
		await n8n.importWorkflows([forSandbox(deposit.workflow, sandbox)]);
	}, 900_000);

	afterAll(async () => {
		await sandbox?.close();
		fs.rmSync(tmp, { recursive: true, force: true });
	});

	it('installs the package alone: n8n-workflow and zod stay n8n’s', () => {
		expect(fs.readdirSync(installed).filter((d) => !d.startsWith('.'))).toEqual(['n8n-nodes-orchestration']);
	});

	it('runs example 4 (gateway deposit, a signed intent) with the package-prefixed node types', async () => {
		const run = await executeWorkflow(env, 'exGatewayDeposit');
		if (!run.ok) throw new Error(run.raw.slice(-4000));
		expect(run.outputs['Deposit intent'][0]).toMatchObject({ status: 'FINALIZED' });
	}, 600_000);
});
