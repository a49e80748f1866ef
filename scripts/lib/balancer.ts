/**
 * The load balancer in front of n8n's webhook processes (queue mode): one loopback URL the service is
 * given, requests passed on round-robin (or to every process at once, to provoke concurrent copies),
 * and a record of which process answered what.
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
}

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export function bodyHash(body: string | Buffer): string {
	return createHash('sha256').update(body).digest('hex');
}

export class Balancer {
	mode: BalanceMode = 'round-robin';
	readonly log: Forwarded[] = [];
	private next = 0;
	private server?: http.Server;
	url = '';

	constructor(readonly backends: string[]) {}

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
		const targets = this.mode === 'all' ? this.backends.map((_, i) => i) : [this.next++ % this.backends.length];
		const answers = await Promise.all(targets.map((i) => this.forward(i, req, headers, body)));
		const first = answers[0];
		res.writeHead(first.status, { 'content-type': first.contentType });
		res.end(first.text);
	}

	private async forward(i: number, req: http.IncomingMessage, headers: Record<string, string>, body: Buffer) {
		const hash = bodyHash(body);
		try {
			const r = await fetch(this.backends[i] + (req.url ?? '/'), { method: req.method, headers, body: body.length ? body : undefined });
			const text = await r.text();
			this.log.push({ bodyHash: hash, backend: i, status: r.status });
			return { status: r.status, text, contentType: r.headers.get('content-type') ?? 'text/plain' };
		} catch (error) {
			this.log.push({ bodyHash: hash, backend: i, status: 502 });
			return { status: 502, text: (error as Error).message, contentType: 'text/plain' };
		}
	}

	async close(): Promise<void> {
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
	}
}
