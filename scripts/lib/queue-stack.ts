/**
 * n8n 2.41 in queue mode on one machine: Postgres and Redis on loopback ports, one main (production
 * webhooks disabled), one worker and two webhook processes behind a load balancer, the package's
 * dist loaded in all of them (see /work/shared/notes/n8n-on-these-machines.md, "Queue mode").
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Balancer } from './balancer';
import { N8nInstance, freePort } from './n8n-instance';
import { Postgres, Redis } from './services';

export interface QueueStackOptions {
	installDir: string;
	/** N8N_CUSTOM_EXTENSIONS of every process (';'-separated folders). */
	extensions: string;
	/** Merged into every process's environment (N8N_EXPRESSION_ENGINE for the bench). */
	extraEnv?: Record<string, string>;
	webhookProcesses?: number;
	/** 'single': one `n8n start` on the same Postgres (regular execution mode), for comparisons. */
	mode?: 'queue' | 'single';
	/** Redis with its append-only file, fsync always (the fault suite). */
	redisAof?: boolean;
	/** The balancer routes only to processes whose `/healthz/readiness` answers 200 (balancer.ts). */
	healthCheckedBalancer?: boolean;
	/** The balancer keeps at most this many requests open on each n8n process and queues the rest (balancer.ts). */
	maxConnsPerProcess?: number;
	/** Postgres acknowledges a commit once its WAL is written (services.ts): a crash of it loses no acknowledged commit. */
	durablePostgres?: boolean;
}

const ENCRYPTION_KEY = 'queue-mode-test-encryption-key-not-secret';

export class QueueStack {
	readonly main: N8nInstance;
	readonly worker?: N8nInstance;
	readonly webhooks: N8nInstance[];
	private readonly root: string;

	private constructor(
		readonly pg: Postgres,
		readonly redis: Redis,
		readonly balancer: Balancer,
		parts: { root: string; main: N8nInstance; worker?: N8nInstance; webhooks: N8nInstance[] },
	) {
		this.root = parts.root;
		this.main = parts.main;
		this.worker = parts.worker;
		this.webhooks = parts.webhooks;
	}

	/** Postgres, Redis and the balancer; the n8n processes start with `startN8n()` after imports. */
	static async create(opts: QueueStackOptions): Promise<QueueStack> {
		const [pg, redis] = await Promise.all([Postgres.start({ durable: opts.durablePostgres }), Redis.start({ aof: opts.redisAof })]);
		const root = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-queue-n8n-'));
		const single = opts.mode === 'single';
		const mainPort = await freePort();
		const webhookPorts = single ? [mainPort] : await Promise.all(Array.from({ length: opts.webhookProcesses ?? 2 }, () => freePort()));
		const balancer = new Balancer(
			webhookPorts.map((p) => `http://127.0.0.1:${p}`),
			opts.healthCheckedBalancer ? { path: '/healthz/readiness', intervalMs: 250 } : undefined,
			opts.maxConnsPerProcess,
		);
		const publicUrl = `${await balancer.listen()}/`;
		const common = {
			...pg.env(), ...redis.env(), EXECUTIONS_MODE: single ? 'regular' : 'queue', WEBHOOK_URL: publicUrl, N8N_LOG_LEVEL: 'info',
			// Four processes share a busy 2-core machine: more connections, more patience than n8n's defaults.
			DB_POSTGRESDB_POOL_SIZE: '6', DB_POSTGRESDB_CONNECTION_TIMEOUT: '60000',
			...(opts.extraEnv ?? {}),
		};
		const make = async (name: string, command: string, port: number, env: Record<string, string> = {}, healthPort?: number) =>
			new N8nInstance({
				installDir: opts.installDir,
				userFolder: path.join(root, name),
				port,
				extensions: opts.extensions,
				encryptionKey: ENCRYPTION_KEY,
				command,
				...(healthPort ? { healthUrl: `http://127.0.0.1:${healthPort}/healthz/readiness` } : {}),
				extraEnv: { ...common, N8N_RUNNERS_BROKER_PORT: String(await freePort()), ...env },
			});
		const main = await make('main', 'start', mainPort, single ? {} : { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' });
		if (single) return new QueueStack(pg, redis, balancer, { root, main, webhooks: [] });
		const healthPort = await freePort();
		const worker = await make('worker', 'worker', await freePort(), {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(healthPort), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		}, healthPort);
		const webhooks = await Promise.all(webhookPorts.map((p, i) => make(`webhook${i + 1}`, 'webhook', p)));
		return new QueueStack(pg, redis, balancer, { root, main, worker, webhooks });
	}

	/** The URL n8n gives the service: the balancer's. */
	get publicUrl(): string {
		return `${this.balancer.url}/`;
	}

	/** Main first (it migrates the database and activates workflows), then worker and webhook processes. */
	async startN8n(): Promise<void> {
		await this.main.start();
		await Promise.all([this.worker?.start(), ...this.webhooks.map((w) => w.start())]);
		this.balancer.startHealthChecks();
	}

	/** Every n8n process restarted whenever it exits, as a service manager would. */
	supervise(): void {
		for (const n of this.processes()) n.supervise();
	}

	processes(): N8nInstance[] {
		return [this.main, ...(this.worker ? [this.worker] : []), ...this.webhooks];
	}

	/**
	 * Webhook processes first (each waits for the executions it enqueued, which the worker is still
	 * there to finish), then the worker, then the main; each gets `graceMs` after SIGTERM before SIGKILL.
	 * Stopped together, a webhook process waited for the stopped worker until n8n's 30 s shutdown timeout.
	 */
	async stopN8n(graceMs?: number): Promise<void> {
		await Promise.allSettled(this.webhooks.map((w) => w.stop(graceMs)));
		await this.worker?.stop(graceMs);
		await this.main.stop(graceMs);
	}

	/** Imports with the CLI (before the main starts) and publishes the given workflows. */
	async importAndPublish(credentials: Parameters<N8nInstance['importCredentials']>[0], workflows: Array<Record<string, unknown>>, publish: string[]): Promise<void> {
		if (credentials.length) await this.main.importCredentials(credentials);
		await this.main.importWorkflows(workflows);
		for (const id of publish) {
			const r = await this.main.cli(['publish:workflow', `--id=${id}`]);
			if (r.code !== 0) throw new Error(`publish:workflow ${id} failed: ${r.stderr || r.stdout}`);
		}
	}

	/** Executions of a workflow by status. */
	async executions(workflowId: string): Promise<Record<string, number>> {
		const rows = await this.pg.sql(`select status, count(*) from execution_entity where "workflowId" = '${workflowId.replace(/'/g, "''")}' group by status`);
		return Object.fromEntries(rows.map((r) => r.split('\t')).map(([s, n]) => [s, Number(n)]));
	}

	/** Runs once nothing is new or running and the count held still for `quietMs`. */
	async settledRuns(workflowId: string, quietMs = 3000, timeoutMs = 300_000): Promise<{ total: number; byStatus: Record<string, number> }> {
		const deadline = Date.now() + timeoutMs;
		let last = -1;
		let since = Date.now();
		while (Date.now() < deadline) {
			const byStatus = await this.executions(workflowId);
			const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
			const busy = (byStatus.new ?? 0) + (byStatus.running ?? 0) + (byStatus.waiting ?? 0);
			if (total !== last || busy > 0) {
				last = total;
				since = Date.now();
			} else if (Date.now() - since >= quietMs) return { total, byStatus };
			await new Promise((r) => setTimeout(r, 500));
		}
		throw new Error(`runs of ${workflowId} did not settle within ${timeoutMs} ms`);
	}

	/** Where each process logs (printed when something fails). */
	logs(): string[] {
		return [this.main, this.worker, ...this.webhooks].flatMap((n) => (n ? [n.stdoutLog] : []));
	}

	/** Stops everything, even after a failure half-way; keeps the logs when asked. */
	async stop(keepLogs = false): Promise<void> {
		await this.stopN8n().catch(() => undefined);
		await Promise.allSettled([this.balancer.close(), this.pg.stop(), this.redis.stop()]);
		if (!keepLogs) fs.rmSync(this.root, { recursive: true, force: true });
	}
}
