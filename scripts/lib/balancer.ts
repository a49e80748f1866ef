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

	constructor(
		readonly backends: string[],
		private readonly health?: HealthCheck,
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
		const check = () => this.backends.forEach((b, i) => void checkOne(b, i));
		check();
		this.checking = setInterval(check, intervalMs);
	}

	/** The backends a request may go to now: all of them, or the ready ones with health checks. */
	private targetsNow(): number[] {
		const up = this.backends.map((_, i) => i).filter((i) => this.ready[i]);
		if (this.mode === 'all') return up;
		if (up.length === 0) return [];
		return [up[this.next++ % up.length]];
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
		const targets = this.targetsNow();
		if (targets.length === 0) {
			this.log.push({ bodyHash: bodyHash(body), backend: -1, status: 503 });
			res.writeHead(503, { 'content-type': 'text/plain' }).end('no ready backend');
			return;
		}
		const answers = await Promise.all(targets.map((i) => this.forward(i, req, headers, body)));
		const first = answers[0];
		res.writeHead(first.status, { 'content-type': first.contentType });
		res.end(first.text);
	}

	private async forward(i: number, req: http.IncomingMessage, headers: Record<string, string>, body: Buffer) {
		const hash = bodyHash(body);
		const at = Date.now();
		this.inFlight[i]++;
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
		}
	}

	async close(): Promise<void> {
		if (this.checking) clearInterval(this.checking);
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
	}
}
