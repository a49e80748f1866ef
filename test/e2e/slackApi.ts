/**
 * slack.com's Web API as a real n8n reaches it, on this machine: n8n's requests go through
 * HTTPS_PROXY to a local proxy that answers the CONNECT to slack.com:443 itself, with a certificate
 * for slack.com from a throwaway CA that n8n trusts through NODE_EXTRA_CA_CERTS (made by openssl).
 * Every Web API call answers `ok: true`; the messages are kept, so a test clicks their buttons as
 * a person does. Any other CONNECT is refused.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../scripts/lib/n8n-instance';

export interface SlackCall {
	path: string;
	body: Record<string, unknown>;
}

/** A browser's user agent: n8n ignores approval links fetched by bots (link previews). */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

function throwawayCertificates(dir: string): { ca: string; key: Buffer; cert: Buffer } {
	const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
	run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=e2e slack.com stand-in CA']);
	run(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=slack.com']);
	fs.writeFileSync(path.join(dir, 'leaf.ext'), 'subjectAltName=DNS:slack.com\nbasicConstraints=CA:FALSE\n');
	run(['x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'leaf.pem', '-days', '2', '-extfile', 'leaf.ext']);
	return { ca: path.join(dir, 'ca.pem'), key: fs.readFileSync(path.join(dir, 'leaf.key')), cert: fs.readFileSync(path.join(dir, 'leaf.pem')) };
}

export class SlackApiStandIn {
	readonly calls: SlackCall[] = [];
	private readonly sockets = new Set<net.Socket>();

	private constructor(
		private readonly dir: string,
		private readonly ca: string,
		private readonly proxy: http.Server,
		private readonly port: number,
	) {}

	static async start(): Promise<SlackApiStandIn> {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-e2e-slack-'));
		const { ca, key, cert } = throwawayCertificates(dir);
		const proxy = http.createServer((_req, res) => res.writeHead(403).end());
		const port = await freePort();
		const standIn = new SlackApiStandIn(dir, ca, proxy, port);
		const api = https.createServer({ key, cert }, (req, res) => {
			let text = '';
			req.on('data', (d: Buffer) => (text += d.toString('utf8')));
			req.on('end', () => {
				let body: Record<string, unknown> = {};
				try {
					body = JSON.parse(text) as Record<string, unknown>;
				} catch {
					// a form or an empty body: kept as nothing
				}
				standIn.calls.push({ path: req.url ?? '', body });
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify({ ok: true, channel: 'C0PAYOUTS', ts: `1700000000.${String(standIn.calls.length).padStart(6, '0')}` }));
			});
		});
		proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket) => {
			standIn.sockets.add(socket);
			socket.on('close', () => standIn.sockets.delete(socket));
			if (req.url !== 'slack.com:443') {
				socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
				return;
			}
			socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			api.emit('connection', socket);
		});
		await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
		return standIn;
	}

	/** The environment of an n8n that sends its Slack calls here (everything on 127.0.0.1 goes direct). */
	env(): Record<string, string> {
		const proxy = `http://127.0.0.1:${this.port}`;
		return { HTTPS_PROXY: proxy, HTTP_PROXY: proxy, NO_PROXY: '127.0.0.1,localhost', NODE_EXTRA_CA_CERTS: this.ca };
	}

	/** The buttons (label and URL) of the message a waiting execution posted. */
	buttonsOf(executionId: string): Array<{ label: string; url: string }> {
		const message = this.calls.find((c) => c.path === '/api/chat.postMessage' && JSON.stringify(c.body).includes(`/webhook-waiting/${executionId}/`));
		const blocks = (message?.body.blocks ?? []) as Array<{ type: string; elements?: Array<{ text: { text: string }; url: string }> }>;
		return blocks.filter((b) => b.type === 'actions').flatMap((b) => (b.elements ?? []).map((e) => ({ label: e.text.text, url: e.url })));
	}

	/** Opens a button's link in a browser, as the person who clicks it. */
	async click(url: string): Promise<number> {
		const res = await fetch(url, { headers: { 'user-agent': BROWSER } });
		await res.text();
		return res.status;
	}

	async close(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => this.proxy.close(() => resolve()));
		fs.rmSync(this.dir, { recursive: true, force: true });
	}
}
