/**
 * `npm start`: the whole package running where users run it. Installs the pinned n8n into a cache
 * folder on first run, builds the package, starts the sandbox and n8n on 127.0.0.1 with the
 * package loaded, creates an owner and credentials pointed at the sandbox, imports the example
 * workflows, and prints the editor URL and the login. The owner password and n8n's encryption key
 * are made once per clone and kept in its user folder (scripts/lib/startSecrets.ts). Ctrl-C stops
 * everything it started.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { startSandbox } from '../sandbox';
import { CUSTOM_PREFIX, N8nInstance, REPO_ROOT, ensureN8nInstalled, withNodePrefix } from './lib/n8n-instance';
import { loginLines, startSecrets } from './lib/startSecrets';
import { ERROR_WORKFLOW, OWNER_PROFILE, SAMPLE_PAYOUTS, forSandbox, loadExamples, sandboxCredentials, setUpPayoutTables, withSettings, withWalletStandIns, type Example } from './lib/examples';

/**
 * The examples as `npm start` imports them: pointed at this sandbox, the wallet hand-offs replaced
 * by labelled sandbox stand-ins (there is no custody system here), and example 1 reading orders
 * every few seconds instead of every 10 minutes (sandbox orders finish in seconds).
 */
function forTrial(example: Example, sandbox: { orchestrationUrl: string; gatewayUrl: string }): Record<string, unknown> {
	let workflow = withWalletStandIns(example.workflow as never, sandbox) as Example['workflow'];
	if (workflow.id === 'exRecurringPayout') workflow = withSettings(workflow as never, { depositCheckSeconds: 5, orderCheckSeconds: 5, intentCheckSeconds: 5, quoteGraceSeconds: 120 });
	return forSandbox(withNodePrefix(workflow, CUSTOM_PREFIX), sandbox);
}

async function main(): Promise<void> {
	const n8nPort = Number(process.env.N8N_PORT ?? 5678);
	const userFolder = process.env.ORCH_N8N_USER_FOLDER ?? path.join(REPO_ROOT, '.n8n-cache', 'user');
	const secrets = startSecrets(userFolder);
	const owner = { ...OWNER_PROFILE, password: secrets.ownerPassword };
	console.log('1/5 n8n: checking the pinned install');
	const installDir = ensureN8nInstalled();
	console.log('2/5 building the package');
	execFileSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
	console.log('3/5 starting the sandbox');
	const sandbox = await startSandbox({
		orchestrationPort: Number(process.env.ORCH_SANDBOX_PORT ?? 8787),
		gatewayPort: Number(process.env.GATEWAY_SANDBOX_PORT ?? 8788),
		quiet: true,
	});
	const n8n = new N8nInstance({ installDir, userFolder, port: n8nPort, encryptionKey: secrets.encryptionKey, extraEnv: { N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true' } });
	let stopping = false;
	const stop = async (code = 0) => {
		if (stopping) return;
		stopping = true;
		console.log('\nstopping n8n and the sandbox');
		await n8n.stop();
		await sandbox.close();
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));
	try {
		console.log('4/5 importing credentials and example workflows');
		await n8n.importCredentials(sandboxCredentials(sandbox));
		await n8n.importWorkflows(loadExamples().map((e) => forTrial(e, sandbox)));
		// every example names example 8 as its error workflow; n8n runs only a published one
		const published = await n8n.cli(['publish:workflow', `--id=${ERROR_WORKFLOW}`]);
		if (published.code !== 0) throw new Error(`publish ${ERROR_WORKFLOW}: ${published.stderr || published.stdout}`);
		console.log('5/5 starting n8n, creating the payout tables (example 0)');
		await n8n.start();
		const cookie = await n8n.setupOwner(owner);
		await setUpPayoutTables(n8n, cookie, await n8n.createApiKey(cookie), SAMPLE_PAYOUTS);
	} catch (error) {
		console.error(error);
		await stop(1);
		return;
	}
	console.log(`
n8n is running with n8n-nodes-orchestration loaded.

  Editor:    ${n8n.url}
${loginLines(owner.email, secrets)}
  Sandbox:   orchestration ${sandbox.orchestrationUrl}  gateway ${sandbox.gatewayUrl}
  Keys:      ${sandbox.orchestrationUrl}/sandbox/keys
  Log:       ${n8n.logFile}

The example workflows are in the editor's workflow list, the payout tables under Data tables
(payout_schedule holds two sample payouts). Their wallet steps are sandbox stand-ins; add a Slack
credential to the Slack steps. Press Ctrl-C to stop everything.`);
}

void main();
