/**
 * A real, isolated n8n (the pinned version, installed into a cache folder by install-n8n.sh)
 * with this package's dist loaded through N8N_CUSTOM_EXTENSIONS. Used by `npm start` and by the
 * end-to-end suite.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Type prefix of nodes loaded through N8N_CUSTOM_EXTENSIONS. */
export const CUSTOM_PREFIX = 'CUSTOM.';
/** Type prefix after a community-package install: what examples/ store. */
export const PACKAGE_PREFIX = 'n8n-nodes-orchestration.';

/** The Node 24 running this script (scripts/node24.sh put it first on PATH); n8n runs on it too. */
export function node24BinDir(): string {
	return path.dirname(process.execPath);
}

export function ensureN8nInstalled(): string {
	const out = execFileSync('bash', [path.join(REPO_ROOT, 'scripts', 'install-n8n.sh')], {
		stdio: ['ignore', 'pipe', 'inherit'],
		encoding: 'utf8',
	});
	return out.trim().split('\n').pop()!;
}

/**
 * fetch to n8n's REST or public API, again while n8n answers 503 "Database is not ready!": its
 * database monitor marks SQLite unready when a ping times out on a loaded machine, and the middleware
 * then refuses every request before any handler runs, so sending it again is safe. Gives up after 60 s.
 */
export async function fetchN8n(url: string, init?: RequestInit): Promise<Response> {
	const until = Date.now() + 60_000;
	for (;;) {
		const res = await fetch(url, init);
		if (res.status !== 503 || Date.now() > until) return res;
		const text = await res.clone().text();
		if (!text.includes('Database is not ready')) return res;
		await new Promise((resolve) => setTimeout(resolve, 1_000));
	}
}

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.once('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address() as net.AddressInfo;
			srv.close(() => resolve(port));
		});
	});
}

export interface N8nOptions {
	installDir: string;
	userFolder: string;
	port: number;
	/** Folder with the bundled nodes and credentials. */
	extensions?: string;
	encryptionKey?: string;
	logFile?: string;
	extraEnv?: Record<string, string>;
	/** n8n command: `start` (default), `worker` or `webhook` (queue mode). */
	command?: string;
	/** Readiness URL; default `<url>/healthz/readiness` (a worker answers on its health-check port). */
	healthUrl?: string;
}

export class N8nInstance {
	private child?: ChildProcess;
	readonly url: string;
	readonly logFile: string;

	constructor(readonly opts: N8nOptions) {
		this.url = `http://127.0.0.1:${opts.port}`;
		this.logFile = opts.logFile ?? path.join(opts.userFolder, 'n8n.log');
		fs.mkdirSync(opts.userFolder, { recursive: true });
	}

	get bin(): string {
		return path.join(this.opts.installDir, 'node_modules', '.bin', 'n8n');
	}

	env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
		return {
			...process.env,
			PATH: `${node24BinDir()}${path.delimiter}${process.env.PATH ?? ''}`,
			N8N_USER_FOLDER: this.opts.userFolder,
			N8N_ENCRYPTION_KEY: this.opts.encryptionKey ?? 'sandbox-only-encryption-key-not-secret',
			N8N_CUSTOM_EXTENSIONS: this.opts.extensions ?? path.join(REPO_ROOT, 'dist'),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PORT: String(this.opts.port),
			WEBHOOK_URL: `${this.url}/`,
			N8N_EDITOR_BASE_URL: `${this.url}/`,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_RUNNERS_ENABLED: 'true',
			N8N_LOG_LEVEL: 'debug',
			N8N_LOG_OUTPUT: 'console,file',
			N8N_LOG_FILE_LOCATION: this.logFile,
			// One file: at n8n's 16 MB default the log goes on in n8n1.log, and a test reading n8n.log
			// (a step applied, no secret logged) would read a stale part.
			N8N_LOG_FILE_SIZE_MAX: '4096',
			N8N_RESTRICT_FILE_ACCESS_TO: path.join(process.env.HOME ?? '/root', '.n8n-files'),
			DB_TYPE: 'sqlite',
			// n8n's CLI does nothing under NODE_ENV=test, which jest sets.
			NODE_ENV: 'production',
			...(this.opts.extraEnv ?? {}),
			...extra,
		};
	}

	/**
	 * Runs an n8n CLI command (import, publish, execute) and returns its output. Asynchronous, so a
	 * sandbox in this process keeps answering while the command runs.
	 */
	async cli(
		args: string[],
		extraEnv: Record<string, string> = {},
		timeoutMs = 300_000,
	): Promise<{ code: number; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
		// Files, not pipes: Node writes to a pipe asynchronously, and the CLI's process.exit dropped the
		// tail of a 584 KB run it had not yet written (a reader slowed by a loaded machine); file writes are
		// synchronous.
		const dir = fs.mkdtempSync(path.join(this.opts.userFolder, 'cli-'));
		const outFile = path.join(dir, 'stdout');
		const errFile = path.join(dir, 'stderr');
		const out = fs.openSync(outFile, 'w');
		const err = fs.openSync(errFile, 'w');
		try {
			const { code, signal } = await new Promise<{ code: number; signal: NodeJS.Signals | null }>((resolve) => {
				const child = spawn(this.bin, args, { env: this.env(extraEnv), stdio: ['ignore', out, err] });
				const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
				child.on('close', (c, sig) => {
					clearTimeout(timer);
					resolve({ code: c ?? 1, signal: sig });
				});
			});
			return { code, signal, stdout: fs.readFileSync(outFile, 'utf8'), stderr: fs.readFileSync(errFile, 'utf8') };
		} finally {
			fs.closeSync(out);
			fs.closeSync(err);
			fs.rmSync(dir, { recursive: true, force: true });
		}
	}

	async importCredentials(creds: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }>): Promise<void> {
		const file = path.join(this.opts.userFolder, `credentials-${Date.now()}.json`);
		fs.writeFileSync(file, JSON.stringify(creds));
		try {
			const r = await this.cli(['import:credentials', `--input=${file}`]);
			if (r.code !== 0) throw new Error(`import:credentials failed: ${r.stderr || r.stdout}`);
		} finally {
			fs.rmSync(file, { force: true });
		}
	}

	/** Imports workflows in one CLI call (every n8n CLI start costs seconds). */
	async importWorkflows(workflows: Array<Record<string, unknown>>): Promise<void> {
		const dir = fs.mkdtempSync(path.join(this.opts.userFolder, 'wf-'));
		workflows.forEach((wf, i) => fs.writeFileSync(path.join(dir, `${i}.json`), JSON.stringify(wf)));
		try {
			const r = await this.cli(['import:workflow', '--separate', `--input=${dir}`]);
			if (r.code !== 0) throw new Error(`import:workflow failed: ${r.stderr || r.stdout}`);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	}

	async start(timeoutMs = 180_000): Promise<void> {
		this.starts++;
		const out = fs.openSync(path.join(this.opts.userFolder, 'n8n.stdout.log'), 'a');
		// The task broker's default port (5679) is taken by any other n8n on the machine: take a free one.
		const broker: Record<string, string> = this.opts.extraEnv?.N8N_RUNNERS_BROKER_PORT ? {} : { N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
		this.child = spawn(this.bin, [this.opts.command ?? 'start'], { env: this.env(broker), stdio: ['ignore', out, out], detached: false });
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (this.child.exitCode !== null) throw new Error(`n8n exited with ${this.child.exitCode}; see ${this.stdoutLog}`);
			try {
				const res = await fetch(this.opts.healthUrl ?? `${this.url}/healthz/readiness`);
				if (res.status === 200) return;
			} catch {
				// not listening yet
			}
			await new Promise((r) => setTimeout(r, 500));
		}
		throw new Error(`n8n did not become ready within ${timeoutMs} ms; see ${this.stdoutLog}`);
	}

	/** The running process's id (load figures of benchmarks). */
	get pid(): number | undefined {
		return this.child?.exitCode === null ? this.child.pid : undefined;
	}

	get stdoutLog(): string {
		return path.join(this.opts.userFolder, 'n8n.stdout.log');
	}

	private supervised = false;
	/** Restarts done by supervise(). */
	restarts = 0;
	/** Every start, by supervise() or by hand (a fault case counts the restarts it caused). */
	starts = 0;

	/** From now on, restarts the process whenever it exits (a service manager's Restart=always), until stop(). */
	supervise(): void {
		this.supervised = true;
		this.watchExit();
	}

	private watchExit(): void {
		const child = this.child;
		child?.once('exit', () => {
			if (this.supervised && this.child === child) void this.restartLoop();
		});
	}

	private async restartLoop(): Promise<void> {
		while (this.supervised) {
			await new Promise((r) => setTimeout(r, 1000));
			if (!this.supervised) return;
			this.restarts++;
			try {
				await this.start();
				this.watchExit();
				return;
			} catch {
				// It exited again (a dependency still down) or never got ready: start it again.
				this.child?.kill('SIGKILL');
			}
		}
	}

	/** Sends a signal to the running process (SIGKILL: a crash). */
	kill(signal: NodeJS.Signals = 'SIGKILL'): void {
		this.child?.kill(signal);
	}

	/** Whether the process answers its readiness check now. */
	async ready(): Promise<boolean> {
		try {
			return (await fetch(this.opts.healthUrl ?? `${this.url}/healthz/readiness`)).status === 200;
		} catch {
			return false;
		}
	}

	/** SIGTERM, then SIGKILL after `graceMs` if it has not exited (a service manager waits 90 s). */
	async stop(graceMs = 20_000): Promise<void> {
		this.supervised = false;
		const child = this.child;
		if (!child || child.exitCode !== null || child.signalCode !== null) return;
		const exited = new Promise<void>((r) => child.once('exit', () => r()));
		child.kill('SIGTERM');
		const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
		await exited;
		clearTimeout(timer);
	}

	/** Creates the owner account (first start only) and returns a session cookie. */
	async setupOwner(owner: { email: string; password: string; firstName: string; lastName: string }): Promise<string> {
		const setup = await fetchN8n(`${this.url}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(owner),
		});
		if (setup.status >= 400 && setup.status !== 400) throw new Error(`owner setup failed: ${setup.status}`);
		const login = await fetchN8n(`${this.url}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password }),
		});
		if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
		const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
		return cookie;
	}

	/** Creates a public-API key for the logged-in owner (workflows, executions and Data Tables). */
	async createApiKey(cookie: string): Promise<string> {
		const res = await fetchN8n(`${this.url}/rest/api-keys`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({ label: `e2e-${Date.now()}`, expiresAt: null, scopes: API_KEY_SCOPES }),
		});
		const body = (await res.json()) as { data?: { rawApiKey?: string } };
		if (!body.data?.rawApiKey) throw new Error(`api key creation failed: ${res.status} ${JSON.stringify(body)}`);
		return body.data.rawApiKey;
	}

	/**
	 * Runs a workflow from one of its triggers as the editor's "Execute workflow" button does
	 * (POST /rest/workflows/:id/run, a manual execution of the saved workflow, in this running n8n,
	 * so n8n's modules such as Data Tables are there; `n8n execute` loads none). `input` is the item
	 * the trigger node receives: an Execute Workflow Trigger passes it on (example 1 plans the day
	 * of `{planFor}`), a manual or schedule trigger ignores it. Returns the execution's id; follow it
	 * with the public API.
	 */
	async runManually(cookie: string, workflowId: string, triggerName: string, input?: Record<string, unknown>): Promise<string> {
		const triggerToStartFrom = { name: triggerName, ...(input ? { data: { data: { main: [[{ json: input }]] } } } : {}) };
		const res = await fetchN8n(`${this.url}/rest/workflows/${encodeURIComponent(workflowId)}/run`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({ triggerToStartFrom }),
		});
		const text = await res.text();
		const id = res.status === 200 ? (JSON.parse(text) as { data?: { executionId?: string } }).data?.executionId : undefined;
		if (!id) throw new Error(`running ${workflowId} from "${triggerName}" failed: ${res.status} ${text.slice(0, 500)}`);
		return id;
	}

	async api<T = unknown>(apiKey: string, method: string, p: string, body?: unknown): Promise<T> {
		const res = await fetchN8n(`${this.url}/api/v1${p}`, {
			method,
			headers: { 'X-N8N-API-KEY': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
			body: body ? JSON.stringify(body) : undefined,
		});
		const text = await res.text();
		if (res.status >= 400) throw new Error(`n8n API ${method} ${p}: ${res.status} ${text}`);
		return (text ? JSON.parse(text) : undefined) as T;
	}
}

/** What the suites' and `npm start`'s public-API keys may do. */
export const API_KEY_SCOPES = [
	'workflow:read', 'workflow:list', 'workflow:activate', 'workflow:deactivate', 'execution:read', 'execution:list',
	'dataTable:list', 'dataTable:read', 'dataTableRow:read', 'dataTableRow:create', 'dataTableRow:update', 'dataTableRow:upsert', 'dataTableRow:delete',
];

/** Rewrites node types from the community-package prefix to the one a loading mode uses. */
export function withNodePrefix<T extends { nodes?: Array<{ type: string }> }>(workflow: T, prefix: string): T {
	const copy = JSON.parse(JSON.stringify(workflow)) as T;
	for (const node of copy.nodes ?? []) {
		if (node.type.startsWith(PACKAGE_PREFIX)) node.type = prefix + node.type.slice(PACKAGE_PREFIX.length);
	}
	return copy;
}
