import { CHECKOUT, type Client, quoteBody, SERVER, start } from './helpers';
import type { Sandbox } from '../../sandbox';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start()));
afterAll(() => sb.close());

interface Frame {
	event: string;
	data: unknown;
}

/** Reads server-sent events until the server closes the stream (or `abortAfterMs`). */
async function readStream(url: string, abortAfterMs = 5000): Promise<{ status: number; contentType: string | null; frames: Frame[]; closedByServer: boolean }> {
	const abort = new AbortController();
	const timer = setTimeout(() => abort.abort(), abortAfterMs);
	const res = await fetch(url, { signal: abort.signal });
	const frames: Frame[] = [];
	let closedByServer = false;
	let text = '';
	try {
		const decoder = new TextDecoder();
		for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
		closedByServer = true;
	} catch {
		// aborted by the timer
	} finally {
		clearTimeout(timer);
	}
	for (const block of text.split('\n\n').filter((b) => b.trim() !== '')) {
		const lines = Object.fromEntries(block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
		frames.push({ event: lines.event, data: JSON.parse(lines.data) });
	}
	return { status: res.status, contentType: res.headers.get('content-type'), frames, closedByServer };
}

describe('event stream (public-notes, spec §5)', () => {
	it('sends status frames on connect and on each change, heartbeats, and closes after completed', async () => {
		await api.post('/sandbox/config', { orderStepMs: 40_000 }); // 400 ms per step: heartbeats (150 ms) fall in between
		try {
			const q = await api.post('/v1/orchestration/quote', quoteBody(), { key: CHECKOUT });
			const s = await api.post('/v1/orchestration/submit', { quoteId: q.body.quoteId, txHash: '0xabc' }, { key: CHECKOUT });
			const url = `${sb.orchestrationUrl}/v1/sse/operations/${s.body.orderId}?token=${CHECKOUT}&readToken=${s.body.readToken}`;
			const stream = await readStream(url);
			expect(stream.status).toBe(200);
			expect(stream.contentType).toMatch(/^text\/event-stream/);
			expect(stream.closedByServer).toBe(true);
			const statuses = stream.frames.filter((f) => f.event === 'status').map((f) => (f.data as { status: string }).status);
			expect(statuses).toEqual(['processing', 'confirming', 'bridging', 'swapping', 'delivering', 'completed']);
			expect(stream.frames.filter((f) => f.event === 'heartbeat').length).toBeGreaterThanOrEqual(3);
			// the key and token stay out of the request log
			const logged = (await api.get(`/sandbox/requests?path=/v1/sse/operations/${s.body.orderId}`)).body.requests[0];
			expect(logged.query).toMatchObject({ token: 'REDACTED', readToken: 'REDACTED' });
			expect(JSON.stringify(logged)).not.toContain(CHECKOUT);
		} finally {
			await api.post('/sandbox/reset');
		}
	});

	it('sends the final status and closes at once for a finished order; server keys need no read token', async () => {
		const q = await api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER });
		const d = await api.post('/sandbox/deposits', { depositAddress: q.body.depositAddress, amount: q.body.amountIn, autoAdvance: false });
		await api.post(`/sandbox/orders/${d.body.orderId}/advance`, { status: 'refunded' });
		const stream = await readStream(`${sb.orchestrationUrl}/v1/sse/operations/${d.body.orderId}?token=${SERVER}`);
		expect(stream.closedByServer).toBe(true);
		expect(stream.frames).toEqual([{ event: 'status', data: { status: 'refunded' } }]);
	});

	it('stays open on unfulfilled (it may still resume); sseHeartbeatMs sets the heartbeat interval', async () => {
		const q = await api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER });
		const d = await api.post('/sandbox/deposits', { depositAddress: q.body.depositAddress, amount: q.body.amountIn, autoAdvance: false });
		await api.post(`/sandbox/orders/${d.body.orderId}/advance`, { status: 'unfulfilled' });
		const url = `${sb.orchestrationUrl}/v1/sse/operations/${d.body.orderId}?token=${SERVER}`;
		try {
			await api.post('/sandbox/config', { sseHeartbeatMs: 1_000_000 });
			const silent = await readStream(url, 800);
			expect(silent.closedByServer).toBe(false);
			expect(silent.frames).toEqual([{ event: 'status', data: { status: 'unfulfilled' } }]);
			await api.post('/sandbox/config', { sseHeartbeatMs: 20_000 });
			const beating = await readStream(url, 800);
			expect(beating.closedByServer).toBe(false);
			expect(beating.frames.filter((f) => f.event === 'heartbeat').length).toBeGreaterThanOrEqual(2);
		} finally {
			await api.post('/sandbox/config', { sseHeartbeatMs: 15_000 });
		}
	});

	it('takes the key from the query only and answers 404 for unknown orders', async () => {
		const noKey = await api.get('/v1/sse/operations/ord_x', { key: SERVER });
		expect(noKey.status).toBe(401);
		const unknown = await api.get(`/v1/sse/operations/ord_x?token=${SERVER}`);
		expect(unknown.status).toBe(404);
	});

	it('limits connection attempts per IP (public-notes: 30 a minute), refused ones counted too: the 31st gets 429 with the IP limiter\'s headers', async () => {
		// a fresh count, and a 60 s window in real time (the sandbox runs 100 times faster than the spec)
		await api.post('/sandbox/reset');
		await api.post('/sandbox/config', { sseConnections: { windowMs: 6_000_000 } });
		try {
			const q = await api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER });
			const d = await api.post('/sandbox/deposits', { depositAddress: q.body.depositAddress, amount: q.body.amountIn, autoAdvance: false });
			await api.post(`/sandbox/orders/${d.body.orderId}/advance`, { status: 'completed' });
			const answers: Array<{ status: number; headers: Headers }> = [];
			for (let i = 0; i < 29; i++) answers.push(await api.get(`/v1/sse/operations/ord_unknown_${i}?token=${SERVER}`));
			expect(answers.map((a) => a.status)).toEqual(Array(29).fill(404));
			expect(answers[0].headers.get('x-ratelimit-limit')).toBe('30');
			expect(answers[28].headers.get('x-ratelimit-remaining')).toBe('1');
			// the 30th, to a real (finished) order, streams, and says none remain
			const thirtieth = await fetch(`${sb.orchestrationUrl}/v1/sse/operations/${d.body.orderId}?token=${SERVER}`);
			expect(thirtieth.status).toBe(200);
			expect(thirtieth.headers.get('x-ratelimit-remaining')).toBe('0');
			const reset = Number(thirtieth.headers.get('x-ratelimit-reset'));
			expect(reset).toBeGreaterThan(Date.now());
			await thirtieth.text();
			// every key of this IP is refused now, with the three headers and no Retry-After
			for (const key of [SERVER, CHECKOUT]) {
				const denied = await api.get(`/v1/sse/operations/${d.body.orderId}?token=${key}`);
				expect(denied.status).toBe(429);
				expect(denied.body).toMatchObject({ error: { code: 'rate_limited' } });
				expect(denied.headers.get('x-ratelimit-remaining')).toBe('0');
				expect(denied.headers.get('retry-after')).toBeNull();
			}
			// other endpoints are not affected
			expect((await api.get(`/v1/orchestration/status?id=${d.body.orderId}`, { key: SERVER })).status).toBe(200);
		} finally {
			await api.post('/sandbox/config', { sseConnections: { windowMs: 60_000 } });
			await api.post('/sandbox/reset');
		}
	});
});
