/**
 * Screenshots of the example workflows in the real n8n editor, for the README. Run while
 * `npm start` is up: `npx tsx scripts/screenshots.ts`. Drives Debian's headless Chromium over the
 * DevTools protocol (Node's built-in WebSocket), so it needs no browser download.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OWNER } from './lib/examples';
import { REPO_ROOT } from './lib/n8n-instance';

const N8N = process.env.N8N_URL ?? 'http://127.0.0.1:5678';
const SHOTS: Array<{ id: string; file: string }> = [
	{ id: 'exRecurringPayout', file: 'example-1-recurring-payout.png' },
	{ id: 'exOrderEventsSlack', file: 'example-2-order-events-to-slack.png' },
	{ id: 'exOrderEventsLedger', file: 'example-3-order-events-to-accounting.png' },
	{ id: 'exGatewayDeposit', file: 'example-4-gateway-deposit.png' },
];

async function login(): Promise<string> {
	const res = await fetch(`${N8N}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
	});
	if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
	const cookie = res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error('no n8n-auth cookie');
	return cookie.split(';')[0].slice('n8n-auth='.length);
}

function launchChromium(): Promise<{ wsUrl: string; kill: () => void }> {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-chromium-'));
	const child = spawn('chromium', [
		'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync',
		'--hide-scrollbars', '--window-size=1600,900', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank',
	]);
	return new Promise((resolve, reject) => {
		let err = '';
		child.stderr.on('data', (d: Buffer) => {
			err += d.toString();
			const m = err.match(/DevTools listening on (ws:\/\/\S+)/);
			if (m) resolve({ wsUrl: m[1], kill: () => child.kill('SIGKILL') });
		});
		child.on('exit', (code) => reject(new Error(`chromium exited ${code}: ${err}`)));
	});
}

class Cdp {
	private nextId = 1;
	private pending = new Map<number, (msg: { result?: unknown; error?: unknown }) => void>();
	private constructor(private readonly ws: WebSocket) {
		ws.onmessage = (ev) => {
			const msg = JSON.parse(String(ev.data)) as { id?: number; result?: unknown; error?: unknown };
			if (msg.id && this.pending.has(msg.id)) {
				this.pending.get(msg.id)!(msg);
				this.pending.delete(msg.id);
			}
		};
	}

	static async connect(url: string): Promise<Cdp> {
		const ws = new WebSocket(url);
		await new Promise((resolve, reject) => {
			ws.onopen = resolve;
			ws.onerror = reject;
		});
		return new Cdp(ws);
	}

	async send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
		const id = this.nextId++;
		const reply = new Promise<{ result?: unknown; error?: unknown }>((resolve) => this.pending.set(id, resolve));
		this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
		const msg = await reply;
		if (msg.error) throw new Error(`${method}: ${JSON.stringify(msg.error)}`);
		return msg.result as T;
	}

	close(): void {
		this.ws.close();
	}
}

async function main(): Promise<void> {
	const auth = await login();
	const browser = await launchChromium();
	const cdp = await Cdp.connect(browser.wsUrl);
	try {
		const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
		const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
		await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1600, height: 900, deviceScaleFactor: 1, mobile: false }, sessionId);
		await cdp.send('Network.enable', {}, sessionId);
		await cdp.send('Network.setCookie', { name: 'n8n-auth', value: auth, url: N8N, path: '/' }, sessionId);
		const outDir = path.join(REPO_ROOT, 'docs', 'images');
		fs.mkdirSync(outDir, { recursive: true });
		for (const shot of SHOTS) {
			await cdp.send('Page.navigate', { url: `${N8N}/workflow/${shot.id}` }, sessionId);
			await new Promise((r) => setTimeout(r, 9000));
			const { data } = await cdp.send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, sessionId);
			fs.writeFileSync(path.join(outDir, shot.file), Buffer.from(data, 'base64'));
			console.log(`docs/images/${shot.file}`);
		}
	} finally {
		cdp.close();
		browser.kill();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
