/**
 * The load balancer in front of n8n's webhook processes (queue mode): one loopback URL the service is
 * given, requests passed on round-robin (or to every process at once, to provoke concurrent copies),
 * and a record of which process answered what.
 *
 * With `healthPath` (the fault suite), it routes like a production load balancer with health checks
 * (nginx `health_check`, HAProxy `option httpchk`, a Kubernetes readiness probe): only to processes
 * whose readiness endpoint answered 200 at the last check (every `intervalMs`), a process that refuses
 * a connection is out at once, and with none ready the answer is 503. n8n answers every request with
 * 200 "n8n is starting up. Please wait" while it migrates its database at start (abstract-server.js,
 * n8n 2.41.1): without this check, a delivery that reaches a restarting process then is acknowledged
 * and never runs.
 *
 * With `maxConnsPerBackend` it also limits the requests open on each process and queues the rest,
 * oldest first (HAProxy's `maxconn` per server with its queue; a request whose client gave up while
 * queued is dropped, `option abortonclose`). Without it, a burst of retries after an outage reaches one
 * n8n process all at once, and every one of them answers late: measured on the loaded 2-core machine,
 * 80 concurrent deliveries to one n8n took 9.5 s each (median), 80 with 8 open at a time 1 s each.
 */
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type BalanceMode = 'round-robin' | 'all';

export interface Forwarded {
	/** sha256 of the body: the same event keeps its bytes across retries (spec §6). */
	bodyHash: string;
	backend: number;
	status: number;
	/** When the request was passed on (epoch ms), and how long its answer took. */
	at?: number;
	ms?: number;
	/** The start of a 2xx answer's body (n8n's own "starting up" answer, or the trigger's "ignored"). */
	body?: string;
}

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export function bodyHash(body: string | Buffer): string {
	return createHash('sha256').update(body).digest('hex');
}

export interface HealthCheck {
	/** e.g. `/healthz/readiness` (n8n: 200 once fully ready, 503 before). */
	path: string;
	intervalMs: number;
	/** How long a check may take (default 5 s). */
	timeoutMs?: number;
}

export class Balancer {
	mode: BalanceMode = 'round-robin';
	readonly log: Forwarded[] = [];
	/** Requests passed on to each backend whose answer has not come back yet (a fault can wait for work in flight). */
	readonly inFlight: number[];
	private next = 0;
	private server?: http.Server;
	private readonly ready: boolean[];
	private checking?: NodeJS.Timeout;
	url = '';

	/** Requests waiting for a process with a free connection, oldest first. */
	private readonly queue: Array<{ take: (backend: number | undefined) => void; gone: () => boolean }> = [];
	/** The most requests that waited in the queue at once. */
	maxQueued = 0;
	/**
	 * A fault: every `loseAnswersEvery`-th answer a process gave is lost on its way back (the client's
	 * connection is cut after the process answered), so the service retries what n8n already accepted.
	 * 0: none.
	 */
	loseAnswersEvery = 0;
	/** Answers lost that way. */
	answersLost = 0;
	private answered = 0;

	constructor(
		readonly backends: string[],
		private readonly health?: HealthCheck,
		private readonly maxConnsPerBackend = Number.POSITIVE_INFINITY,
	) {
		this.ready = backends.map(() => health === undefined);
		this.inFlight = backends.map(() => 0);
	}

	/**
	 * Starts the periodic readiness checks (no-op without `health`). A process is taken out at once when
	 * its check is refused or answers anything but 200 (n8n's 503 while it starts or lost its database),
	 * and after two checks in a row that timed out (a busy process is slow, not down: HAProxy's `fall`);
	 * it is back after one 200. One check per process at a time.
	 */
	startHealthChecks(): void {
		if (!this.health || this.checking) return;
		const { path, intervalMs, timeoutMs = 5000 } = this.health;
		const checking = this.backends.map(() => false);
		const timeouts = this.backends.map(() => 0);
		const checkOne = async (b: string, i: number) => {
			if (checking[i]) return;
			checking[i] = true;
			try {
				const r = await fetch(b + path, { signal: AbortSignal.timeout(timeoutMs) });
				await r.arrayBuffer();
				timeouts[i] = 0;
				this.ready[i] = r.status === 200;
			} catch (error) {
				const timedOut = (error as Error).name === 'TimeoutError';
				timeouts[i] = timedOut ? timeouts[i] + 1 : 0;
				if (!timedOut || timeouts[i] >= 2) this.ready[i] = false;
			} finally {
				checking[i] = false;
			}
		};
		const check = () => {
			this.backends.forEach((b, i) => void checkOne(b, i));
			this.drain();
		};
		check();
		this.checking = setInterval(check, intervalMs);
	}

	/** A ready backend with a free connection, round-robin; its connection is taken. */
	private freeBackend(): number | undefined {
		const free = this.backends.map((_, i) => i).filter((i) => this.ready[i] && this.inFlight[i] < this.maxConnsPerBackend);
		if (free.length === 0) return undefined;
		const i = free[this.next++ % free.length];
		this.inFlight[i]++;
		return i;
	}

	/** Hands freed connections to the oldest queued requests whose client still waits. */
	private drain(): void {
		while (this.queue.length > 0) {
			if (this.queue[0].gone()) {
				this.queue.shift()!.take(undefined);
				continue;
			}
			const i = this.freeBackend();
			if (i === undefined) return;
			this.queue.shift()!.take(i);
		}
	}

	/** The backend for one request (its connection taken), after queueing if all are busy; undefined when none is ready or the client left. */
	private async backendFor(res: http.ServerResponse): Promise<number | undefined> {
		if (!this.ready.some(Boolean)) return undefined;
		const now = this.queue.length === 0 ? this.freeBackend() : undefined;
		if (now !== undefined) return now;
		return await new Promise((take) => {
			this.queue.push({ take, gone: () => res.destroyed || res.writableEnded });
			this.maxQueued = Math.max(this.maxQueued, this.queue.length);
			res.once('close', () => this.drain());
		});
	}

	async listen(port = 0): Promise<string> {
		this.server = http.createServer((req, res) => void this.handle(req, res));
		this.server.keepAliveTimeout = 30_000;
		await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this.url;
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const body = Buffer.concat(chunks);
		const headers = Object.fromEntries(
			Object.entries(req.headers).filter(([k, v]) => !HOP_HEADERS.has(k) && typeof v === 'string'),
		) as Record<string, string>;
		if (this.mode === 'all') {
			// Every ready process at once (concurrent copies), the first one's answer passed back.
			const up = this.backends.map((_, i) => i).filter((i) => this.ready[i]);
			up.forEach((i) => this.inFlight[i]++);
			if (up.length === 0) return this.refuse(res, body);
			const answers = await Promise.all(up.map((i) => this.forward(i, req, headers, body)));
			return this.answer(res, answers[0]);
		}
		const i = await this.backendFor(res);
		if (i === undefined) {
			if (!res.destroyed) this.refuse(res, body);
			return;
		}
		this.answer(res, await this.forward(i, req, headers, body));
	}

	private refuse(res: http.ServerResponse, body: Buffer): void {
		this.log.push({ bodyHash: bodyHash(body), backend: -1, status: 503 });
		res.writeHead(503, { 'content-type': 'text/plain' }).end('no ready backend');
	}

	private answer(res: http.ServerResponse, a: { status: number; text: string; contentType: string }): void {
		if (res.destroyed) return;
		if (this.loseAnswersEvery > 0 && ++this.answered % this.loseAnswersEvery === 0) {
			this.answersLost++;
			res.destroy();
			return;
		}
		res.writeHead(a.status, { 'content-type': a.contentType });
		res.end(a.text);
	}

	/** Passes one request on to backend `i`, whose connection the caller took. */
	private async forward(i: number, req: http.IncomingMessage, headers: Record<string, string>, body: Buffer) {
		const hash = bodyHash(body);
		const at = Date.now();
		try {
			const r = await fetch(this.backends[i] + (req.url ?? '/'), { method: req.method, headers, body: body.length ? body : undefined });
			const text = await r.text();
			this.log.push({ bodyHash: hash, backend: i, status: r.status, at, ms: Date.now() - at, ...(r.status < 300 && text ? { body: text.slice(0, 80) } : {}) });
			return { status: r.status, text, contentType: r.headers.get('content-type') ?? 'text/plain' };
		} catch (error) {
			// A refused connection takes the process out until its readiness check passes again.
			if (this.health) this.ready[i] = false;
			this.log.push({ bodyHash: hash, backend: i, status: 502, at, ms: Date.now() - at });
			return { status: 502, text: (error as Error).message, contentType: 'text/plain' };
		} finally {
			this.inFlight[i]--;
			this.drain();
		}
	}

	async close(): Promise<void> {
		if (this.checking) clearInterval(this.checking);
		for (const q of this.queue.splice(0)) q.take(undefined);
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
	}
}
