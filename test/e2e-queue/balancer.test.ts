/** The test balancer in front of n8n's webhook processes (scripts/lib/balancer.ts): its connection limit, queue and health checks. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Balancer } from '../../scripts/lib/balancer';

interface Backend {
	url: string;
	open: number;
	maxOpen: number;
	seen: string[];
	/** Readiness checks received. */
	checks: number;
	/** Readiness answers: a status, or 'hang' (never answers). */
	readiness: number | 'hang';
	/** While set, requests are held open until `release()`. */
	holding: boolean;
	release(): void;
	close(): Promise<void>;
}

async function backend(answerMs: number): Promise<Backend> {
	const held: Array<() => void> = [];
	const b = {
		open: 0, maxOpen: 0, seen: [] as string[], checks: 0, readiness: 200 as number | 'hang', holding: false,
		release() {
			b.holding = false;
			for (const answer of held.splice(0)) answer();
		},
	};
	const server = http.createServer((req, res) => {
		if (req.url === '/ready') {
			b.checks++;
			if (b.readiness !== 'hang') res.writeHead(b.readiness).end();
			return;
		}
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			b.seen.push(Buffer.concat(chunks).toString());
			b.open++;
			b.maxOpen = Math.max(b.maxOpen, b.open);
			const answer = () => {
				b.open--;
				res.writeHead(200).end('ok');
			};
			if (b.holding) held.push(answer);
			else setTimeout(answer, answerMs);
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	return Object.assign(b, {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => new Promise<void>((r) => {
			server.closeAllConnections();
			server.close(() => r());
		}),
	});
}

const post = (url: string, body: string, signal?: AbortSignal) => fetch(url, { method: 'POST', body, signal }).then(async (r) => `${r.status} ${await r.text()}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(ok: () => boolean | Promise<boolean>): Promise<void> {
	const deadline = Date.now() + 10_000;
	while (!(await ok())) {
		if (Date.now() > deadline) throw new Error('condition not met within 10 s');
		await sleep(20);
	}
}

describe('test balancer', () => {
	const closing: Array<() => Promise<void>> = [];
	afterEach(async () => {
		for (const c of closing.splice(0)) await c();
	});

	it('keeps at most maxConnsPerBackend requests open on a process and queues the rest', async () => {
		const b = await backend(0);
		b.holding = true;
		const lb = new Balancer([b.url], undefined, 2);
		const url = await lb.listen();
		closing.push(() => lb.close(), () => b.close());
		const answers = Promise.all(Array.from({ length: 6 }, (_, i) => post(url, `r${i}`)));
		await until(() => b.open === 2 && lb.maxQueued === 4);
		await sleep(100);
		expect({ open: b.open, seen: b.seen.length }).toEqual({ open: 2, seen: 2 });
		b.release();
		expect(await answers).toEqual(Array.from({ length: 6 }, () => '200 ok'));
		expect(b.maxOpen).toBe(2);
	});

	it('serves its queue oldest first', async () => {
		const b = await backend(50);
		const lb = new Balancer([b.url], undefined, 1);
		const url = await lb.listen();
		closing.push(() => lb.close(), () => b.close());
		const bodies = Array.from({ length: 5 }, (_, i) => `r${i}`);
		const answers = [];
		for (const body of bodies) {
			answers.push(post(url, body));
			await sleep(30);
		}
		await Promise.all(answers);
		expect(b.seen).toEqual(bodies);
	});

	it('drops a queued request whose client gave up: it never reaches the process', async () => {
		const b = await backend(300);
		const lb = new Balancer([b.url], undefined, 1);
		const url = await lb.listen();
		closing.push(() => lb.close(), () => b.close());
		const first = post(url, 'kept');
		await sleep(50);
		const gaveUp = post(url, 'abandoned', AbortSignal.timeout(100)).catch((e: Error) => e.name);
		expect(await gaveUp).toBe('TimeoutError');
		expect(await first).toBe('200 ok');
		await sleep(400);
		expect(b.seen).toEqual(['kept']);
	});

	it('loses every n-th answer after the process answered (the client sees its connection cut)', async () => {
		const b = await backend(0);
		const lb = new Balancer([b.url]);
		const url = await lb.listen();
		closing.push(() => lb.close(), () => b.close());
		lb.loseAnswersEvery = 3;
		const answers = [];
		for (let i = 0; i < 6; i++) answers.push(await post(url, `r${i}`).catch(() => 'cut'));
		expect(answers).toEqual(['200 ok', '200 ok', 'cut', '200 ok', '200 ok', 'cut']);
		expect(b.seen).toHaveLength(6);
		expect(lb.answersLost).toBe(2);
	});

	it('health checks: a refused check or a 503 takes a process out at once, one slow check does not', async () => {
		const b = await backend(0);
		const lb = new Balancer([b.url], { path: '/ready', intervalMs: 50, timeoutMs: 150 });
		const url = await lb.listen();
		closing.push(() => lb.close());
		lb.startHealthChecks();
		await until(async () => (await post(url, 'up')) === '200 ok');
		b.readiness = 'hang';
		// Checks of one process never overlap: when the next one arrives, the one before timed out.
		const hung = b.checks;
		await until(() => b.checks >= hung + 2);
		expect(await post(url, 'one slow check')).toBe('200 ok');
		await until(() => b.checks >= hung + 3);
		expect(await post(url, 'two slow checks')).toBe('503 no ready backend');
		b.readiness = 200;
		await until(async () => (await post(url, 'back')) === '200 ok');
		b.readiness = 503;
		await until(async () => (await post(url, 'not ready')) === '503 no ready backend');
		b.readiness = 200;
		await until(async () => (await post(url, 'back again')) === '200 ok');
		await b.close();
		await until(async () => (await post(url, 'gone')) === '503 no ready backend');
	});
});
