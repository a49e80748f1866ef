/**
 * Real local servers that answer like a broken or hostile service: a recorder on its own port that
 * keeps everything it receives (where a redirect would lead), a redirector that passes requests to
 * the sandbox except those it answers with a redirect to the recorder, and a trickler that sends
 * an answer one byte at a time.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
	method: string;
	/** Path and query, as sent. */
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

export interface Recorder {
	/** http://localhost:<port>: another host name and another port than the 127.0.0.1 servers. */
	url: string;
	received: Received[];
	/** Everything received, as one text to search for secrets. */
	text(): string;
	close(): Promise<void>;
}

async function listen(server: http.Server): Promise<number> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return (server.address() as AddressInfo).port;
}

async function closeServer(server: http.Server): Promise<void> {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function bodyOf(req: http.IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const c of req) chunks.push(c as Buffer);
	return Buffer.concat(chunks);
}

/** Records every request and answers 200 with a body that would pass for most answers. */
export async function startRecorder(): Promise<Recorder> {
	const received: Received[] = [];
	const server = http.createServer(async (req, res) => {
		const body = (await bodyOf(req)).toString('utf8');
		received.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ ok: true, routes: [], affiliates: [], challenge: 'c', challengeString: 'login', accessToken: 'stolen' }));
	});
	const port = await listen(server);
	return {
		url: `http://localhost:${port}`,
		received,
		text: () => JSON.stringify(received),
		close: () => closeServer(server),
	};
}

export interface Redirector {
	url: string;
	/** Requests this server answered with a redirect (method and path with query). */
	redirected: Array<{ method: string; url: string }>;
	/** Requests it passed on to the upstream. */
	passed: Array<{ method: string; url: string }>;
	close(): Promise<void>;
}

export interface RedirectorOptions {
	/** Where requests that are not redirected go (the sandbox); none: every request is redirected. */
	upstream?: string;
	/** Origin the redirect points to, with the request's own path and query appended. */
	to: string;
	/** Which requests get the redirect (default: all). */
	redirect?: (method: string, path: string) => boolean;
	/** The redirect status: 307 keeps a POST's method and body, 302 and 301 do for GET. */
	status?: (method: string) => number;
}

/** A pass-through to `upstream` that answers chosen requests with a redirect to another origin. */
export async function startRedirector(opts: RedirectorOptions): Promise<Redirector> {
	const redirected: Array<{ method: string; url: string }> = [];
	const passed: Array<{ method: string; url: string }> = [];
	const upstream = opts.upstream ? new URL(opts.upstream) : undefined;
	const server = http.createServer(async (req, res) => {
		const method = req.method ?? 'GET';
		const url = req.url ?? '/';
		const body = await bodyOf(req);
		if (!upstream || (opts.redirect?.(method, url.split('?')[0]) ?? true)) {
			redirected.push({ method, url });
			const status = opts.status?.(method) ?? (method === 'GET' ? 302 : 307);
			res.writeHead(status, { location: `${opts.to}${url}`, 'content-type': 'text/plain' });
			res.end('moved');
			return;
		}
		passed.push({ method, url });
		const forward = http.request(
			{ host: upstream.hostname, port: upstream.port, method, path: url, headers: { ...req.headers, host: upstream.host } },
			(up) => {
				res.writeHead(up.statusCode ?? 502, up.headers);
				up.pipe(res);
			},
		);
		forward.on('error', () => res.socket?.destroy());
		forward.end(body);
	});
	const port = await listen(server);
	return { url: `http://127.0.0.1:${port}`, redirected, passed, close: () => closeServer(server) };
}

export interface Trickler {
	url: string;
	/** Requests received (method and path with query), with how much of the answer was written before it ended and whether it was all. */
	requests: Array<{ method: string; url: string; bytesSent: number; complete: boolean }>;
	/** Connections still open. */
	open(): number;
	close(): Promise<void>;
}

/**
 * Answers every request 200 with headers at once, then `body` one byte every `gapMs` (a JSON body
 * that never completes within a deadline; never idle long enough for an idle timeout).
 */
export async function startTrickler(body: string, gapMs: number): Promise<Trickler> {
	const requests: Trickler['requests'] = [];
	const sockets = new Set<import('node:net').Socket>();
	const server = http.createServer(async (req, res) => {
		const request = { method: req.method ?? 'GET', url: req.url ?? '/', bytesSent: 0, complete: false };
		requests.push(request);
		await bodyOf(req);
		res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
		let i = 0;
		const next = () => {
			if (res.destroyed || i >= body.length) {
				request.complete = i >= body.length;
				return void res.end();
			}
			res.write(body[i++]);
			request.bytesSent = i;
			setTimeout(next, gapMs);
		};
		next();
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	const port = await listen(server);
	return { url: `http://127.0.0.1:${port}`, requests, open: () => sockets.size, close: () => closeServer(server) };
}
