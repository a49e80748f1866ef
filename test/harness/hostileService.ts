/**
 * A local server that answers like a broken or hostile orchestration service, for the node's
 * defences: a status read that is always valid, and an event stream (or any route) whose answer the
 * test writes by hand. It counts what it sent and sees when the node hangs up.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, conn: StreamConnection) => void;

/** One connection to the event stream, as the server saw it. */
export interface StreamConnection {
	url: string;
	/** Body bytes written so far. */
	sent: number;
	/** The node hung up (or the server ended it). */
	closed: boolean;
	closedAt?: number;
	/** Timers the handler started; cleared when the connection closes. */
	timers: Array<ReturnType<typeof setInterval>>;
	/** Writes, counting the bytes. */
	write(text: string): boolean;
}

export class HostileService {
	readonly server: Server;
	readonly streams: StreamConnection[] = [];
	readonly statusReads: string[] = [];
	/** The status /status answers. */
	status = 'processing';
	/** How /v1/sse/operations/{id} answers. */
	onStream: Handler = (_req, res) => res.writeHead(404).end();
	/** Answers written by the test for other paths (method and path, query ignored), before the 404. */
	readonly routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
	private readonly sockets = new Set<Socket>();

	constructor() {
		this.server = createServer((req, res) => this.answer(req, res));
		this.server.on('connection', (socket) => {
			socket.setNoDelay(true);
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
	}

	async listen(): Promise<string> {
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async close(): Promise<void> {
		for (const s of this.streams) for (const t of s.timers) clearInterval(t);
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private answer(req: IncomingMessage, res: ServerResponse): void {
		const url = req.url ?? '';
		if (url.startsWith('/v1/orchestration/status')) {
			this.statusReads.push(url);
			const body = JSON.stringify({ order: { id: 'ord_hostile', status: this.status, updatedAt: new Date().toISOString() }, stages: [] });
			res.writeHead(200, { 'content-type': 'application/json' }).end(body);
			return;
		}
		if (url.startsWith('/v2/orchestration/routes')) {
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"assets":[]}');
			return;
		}
		if (url.startsWith('/v1/sse/operations/')) {
			const conn: StreamConnection = {
				url,
				sent: 0,
				closed: false,
				timers: [],
				write: (text) => {
					conn.sent += Buffer.byteLength(text);
					return res.write(text);
				},
			};
			this.streams.push(conn);
			res.on('close', () => {
				conn.closed = true;
				conn.closedAt = Date.now();
				for (const t of conn.timers) clearInterval(t);
			});
			this.onStream(req, res, conn);
			return;
		}
		const route = this.routes.get(`${req.method ?? 'GET'} ${url.split('?')[0]}`);
		if (route) {
			route(req, res);
			return;
		}
		res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"no such route"}}');
	}
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
