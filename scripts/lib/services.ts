/**
 * Postgres and Redis from Debian's packages, each started on a free loopback port with its data in
 * a temp folder, for n8n's queue mode (test/e2e-queue, bench/). Nothing is installed here: a
 * missing binary fails with the command that installs it (scripts/install-queue-deps.sh).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './n8n-instance';

const run = promisify(execFile);
const INSTALL_HINT = 'run scripts/install-queue-deps.sh (apt-get install -y --no-install-recommends postgresql redis-server)';

/** Every child this module started, killed when the test process exits however it exits. */
const children = new Set<ChildProcess>();
process.once('exit', () => children.forEach((c) => c.kill('SIGKILL')));

function track(child: ChildProcess): ChildProcess {
	children.add(child);
	child.once('exit', () => children.delete(child));
	return child;
}

/** The newest /usr/lib/postgresql/<version>/bin (Debian keeps the server binaries there). */
export function postgresBinDir(): string {
	const root = '/usr/lib/postgresql';
	const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
	const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
	const dir = newest ? path.join(root, newest, 'bin') : '';
	if (!dir || !fs.existsSync(path.join(dir, 'postgres'))) throw new Error(`PostgreSQL server binaries not found under ${root}: ${INSTALL_HINT}`);
	return dir;
}

export function redisServerBin(): string {
	const found = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => fs.existsSync(p));
	if (!found) throw new Error(`redis-server not found: ${INSTALL_HINT}`);
	return found;
}

/** Postgres refuses to run as root: as root, run its binaries as the `postgres` user. */
function asPostgres(bin: string, args: string[]): [string, string[]] {
	if (process.getuid?.() !== 0) return [bin, args];
	return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', bin, ...args]];
}

async function waitForPort(port: number, what: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
		const open = await new Promise<boolean>((resolve) => {
			const s = net.connect(port, '127.0.0.1', () => s.end(() => resolve(true)));
			s.once('error', () => resolve(false));
		});
		if (open) return;
		await new Promise((r) => setTimeout(r, 200));
	}
	throw new Error(`${what} did not listen on ${port} within ${timeoutMs} ms`);
}

async function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
	if (!child || child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((r) => child.once('exit', () => r()));
	child.kill(signal);
	const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
	await exited;
	clearTimeout(timer);
}

export class Postgres {
	private child?: ChildProcess;
	readonly database = 'n8n';
	readonly user = 'postgres';

	private constructor(
		readonly port: number,
		private readonly dir: string,
		private readonly bin: string,
	) {}

	/**
	 * `durable`: a commit is acknowledged once its WAL is written (`synchronous_commit=on`, Postgres'
	 * default), so a crash of the server (not of the machine: fsync stays off) loses no acknowledged
	 * commit. Without it commits return before their WAL is written, a throwaway database's speed.
	 */
	static async start(opts: { durable?: boolean } = {}): Promise<Postgres> {
		const bin = postgresBinDir();
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-queue-pg-'));
		const pg = new Postgres(await freePort(), dir, bin);
		await pg.boot(opts.durable === true);
		return pg;
	}

	private async boot(durable: boolean): Promise<void> {
		const data = path.join(this.dir, 'data');
		fs.mkdirSync(path.join(this.dir, 'sock'), { recursive: true });
		if (process.getuid?.() === 0) await run('chown', ['-R', 'postgres:postgres', this.dir]);
		await run(...asPostgres(path.join(this.bin, 'initdb'), ['-D', data, '-U', this.user, '--auth=trust', '-E', 'UTF8']));
		// A throwaway test database: durability settings off for speed.
		const args = ['-D', data, '-p', String(this.port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${path.join(this.dir, 'sock')}`,
			'-c', 'fsync=off', '-c', `synchronous_commit=${durable ? 'on' : 'off'}`, '-c', 'full_page_writes=off', '-c', 'max_connections=200'];
		this.args = args;
		await this.spawnServer();
		await this.sql(`create database ${this.database}`, 'postgres');
	}

	private args: string[] = [];

	private async spawnServer(): Promise<void> {
		const log = fs.openSync(path.join(this.dir, 'postgres.log'), 'a');
		this.child = track(spawn(...asPostgres(path.join(this.bin, 'postgres'), this.args), { stdio: ['ignore', log, log] }));
		fs.closeSync(log);
		await waitForPort(this.port, 'postgres', this.child);
		await this.waitAccepting();
	}

	/** Stops the server (fast shutdown: connections are cut), keeping its data, until start again. */
	async halt(): Promise<void> {
		await stopChild(this.child, 'SIGINT');
	}

	/**
	 * Kills the postmaster (SIGKILL), as a crash does: its backends exit when they notice, nothing is
	 * shut down cleanly, and the next start recovers from the WAL.
	 */
	async crash(): Promise<void> {
		await stopChild(this.child, 'SIGKILL');
	}

	/**
	 * Starts the halted or crashed server again on the same port and data. After a crash it refuses
	 * to start while a backend of the killed postmaster still holds its shared memory: tried again
	 * every 500 ms, for 60 s at most.
	 */
	async resume(): Promise<void> {
		const deadline = Date.now() + 60_000;
		for (;;) {
			try {
				await this.spawnServer();
				return;
			} catch (error) {
				if (Date.now() > deadline) throw error;
				await new Promise((r) => setTimeout(r, 500));
			}
		}
	}

	private async waitAccepting(): Promise<void> {
		for (let i = 0; i < 100; i++) {
			try {
				await this.sql('select 1', 'postgres');
				return;
			} catch {
				await new Promise((r) => setTimeout(r, 200));
			}
		}
		throw new Error('postgres does not accept connections');
	}

	/** One statement through psql; rows as tab-separated lines. Asynchronous so in-process servers keep answering. */
	async sql(statement: string, database = this.database): Promise<string[]> {
		const args = ['-X', '-q', '-A', '-t', '-F', '\t', '-h', '127.0.0.1', '-p', String(this.port), '-U', this.user, '-d', database, '-c', statement];
		// Execution data of a few thousand runs exceeds execFile's 1 MB default.
		const { stdout } = await run(path.join(this.bin, 'psql'), args, { maxBuffer: 1 << 28 });
		return stdout.split('\n').filter((l) => l !== '');
	}

	/** n8n's environment for this database. */
	env(): Record<string, string> {
		return {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(this.port),
			DB_POSTGRESDB_DATABASE: this.database,
			DB_POSTGRESDB_USER: this.user,
			DB_POSTGRESDB_PASSWORD: '',
		};
	}

	async stop(): Promise<void> {
		// SIGINT is postgres' "fast" shutdown.
		await stopChild(this.child, 'SIGINT');
		fs.rmSync(this.dir, { recursive: true, force: true });
	}
}

export class Redis {
	private child?: ChildProcess;

	private constructor(
		readonly port: number,
		private readonly dir: string,
	) {}

	private args: string[] = [];

	/** `aof`: the append-only file on, fsync on every write (what survives a kill -9 of Redis). */
	static async start(opts: { aof?: boolean } = {}): Promise<Redis> {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-queue-redis-'));
		const redis = new Redis(await freePort(), dir);
		const persistence = opts.aof ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
		redis.args = ['--port', String(redis.port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir];
		await redis.spawnServer();
		return redis;
	}

	private async spawnServer(): Promise<void> {
		const log = fs.openSync(path.join(this.dir, 'redis.log'), 'a');
		this.child = track(spawn(redisServerBin(), this.args, { stdio: ['ignore', log, log] }));
		await waitForPort(this.port, 'redis-server', this.child);
	}

	/** kill -9: what was not in the append-only file is gone. */
	async kill(): Promise<void> {
		await stopChild(this.child, 'SIGKILL');
	}

	/** Starts the killed server again on the same port and folder (it replays its append-only file). */
	async resume(): Promise<void> {
		await this.spawnServer();
	}

	env(): Record<string, string> {
		return { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(this.port) };
	}

	async stop(): Promise<void> {
		await stopChild(this.child);
		fs.rmSync(this.dir, { recursive: true, force: true });
	}
}
