/**
 * Many items: at most `concurrency` requests in flight (counted by a proxy in front of the sandbox
 * that also answers out of order), output order and pairedItem follow the input. Quote operations
 * default to QUOTE_CONCURRENCY (50), operations that move funds (Order > Submit) to 5.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CONCURRENCY } from '../../../nodes/n8n/items';
import { QUOTE_CONCURRENCY } from '../../../nodes/Orchestration/actions/common.descriptions';
import type { Sandbox } from '../../../sandbox';
import { ADDR, control, executeNode, items, orchestrationNode, quoteParams, startTestSandbox } from '../../harness/orchestration';

let sb: Sandbox;
let proxy: http.Server;
let proxyUrl: string;
let inFlight = 0;
let maxInFlight = 0;
let submitsInFlight = 0;
let maxSubmitsInFlight = 0;
let arrivals = 0;
/**
 * The proxy holds quote and submit requests until `fill` of that kind are in flight together (or 5 s
 * pass), then lets everything through: the largest number in flight is then the node's bound, not
 * how fast a loaded machine happens to send its requests (36 of 50 was seen beside other suites).
 */
let fill = 0;
let filled = false;
async function heldUntilFilled(inFlightNow: () => number): Promise<void> {
	const until = Date.now() + 5000;
	while (!filled && inFlightNow() < fill && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
	filled = true;
}

beforeAll(async () => {
	sb = await startTestSandbox();
	// Forwards to the sandbox; quote calls wait longer the earlier they arrive, so answers come back out of order.
	proxy = http.createServer(async (req, res) => {
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const isQuote = req.url?.startsWith('/v1/orchestration/quote') ?? false;
		const isSubmit = req.url?.startsWith('/v1/orchestration/submit') ?? false;
		if (isQuote) {
			inFlight++;
			maxInFlight = Math.max(maxInFlight, inFlight);
		}
		if (isSubmit) maxSubmitsInFlight = Math.max(maxSubmitsInFlight, ++submitsInFlight);
		if (isQuote) await heldUntilFilled(() => inFlight);
		if (isSubmit) await heldUntilFilled(() => submitsInFlight);
		const delay = isQuote || isSubmit ? 20 + ((5 - (arrivals++ % 5)) * 30) : 0;
		await new Promise((r) => setTimeout(r, delay));
		const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
		const upstream = await fetch(sb.orchestrationUrl + (req.url ?? '/'), {
			method: req.method,
			headers,
			body: chunks.length ? Buffer.concat(chunks) : undefined,
		});
		const body = Buffer.from(await upstream.arrayBuffer());
		if (isQuote) inFlight--;
		if (isSubmit) submitsInFlight--;
		res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
		res.end(body);
	});
	await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
	proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
	proxy.closeAllConnections();
	await new Promise<void>((r) => proxy.close(() => r()));
	await sb.close();
});
beforeEach(() => {
	maxInFlight = 0;
	maxSubmitsInFlight = 0;
	arrivals = 0;
	fill = 0;
	filled = false;
});

/** 12 items, each quoting a different amount, so an output can be matched to its input. */
const twelve = items(12, (i) => ({ amount: String(100_000_000 + i) }));

describe('bounded concurrency keeps order and pairing', () => {
	it(`Quote > Create: default ${QUOTE_CONCURRENCY} in flight over 60 items; outputs in input order with pairedItem`, async () => {
		const sixty = items(60, (i) => ({ amount: String(100_000_000 + i) }));
		const h = orchestrationNode({ sb, baseUrl: proxyUrl, parameters: quoteParams({ amount: '={{ $json.amount }}' }) });
		fill = QUOTE_CONCURRENCY;
		const [out] = await executeNode(h, sixty);
		expect(maxInFlight).toBe(QUOTE_CONCURRENCY);
		expect(out).toHaveLength(60);
		out.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.amountIn).toBe(String(100_000_000 + i));
		});
		const posts = await control(sb).requests({ path: '/v1/orchestration/quote' });
		// The answers did not come back in input order, yet the output is in input order.
		expect(posts.map((p) => p.body.amount)).not.toEqual(sixty.map((i) => i.json.amount));
	});

	it(`Order > Submit (moves funds) keeps the default of ${DEFAULT_CONCURRENCY} in flight over 12 items`, async () => {
		const quotes = await executeNode(orchestrationNode({ sb, parameters: quoteParams({ amount: '={{ $json.amount }}' }) }), twelve);
		const submit = orchestrationNode({
			sb,
			baseUrl: proxyUrl,
			parameters: { resource: 'order', operation: 'submit', quoteId: '={{ $json.quoteId }}', txHash: "={{ '0x' + String($itemIndex + 1).padStart(64, '0') }}" },
		});
		fill = DEFAULT_CONCURRENCY;
		const [orders] = await executeNode(submit, quotes[0]);
		expect(maxSubmitsInFlight).toBe(DEFAULT_CONCURRENCY);
		expect(orders.map((o) => o.json.quoteId)).toEqual(quotes[0].map((q) => q.json.quoteId));
	});

	it('honours the Concurrency option', async () => {
		const h = orchestrationNode({ sb, baseUrl: proxyUrl, parameters: quoteParams({ amount: '={{ $json.amount }}', options: { concurrency: 2 } }) });
		fill = 2;
		const [out] = await executeNode(h, twelve);
		expect(maxInFlight).toBe(2);
		expect(out.map((o) => o.json.amountIn)).toEqual(twelve.map((i) => i.json.amount));
	});

	it('with continue on fail, failed items become error items in place', async () => {
		const h = orchestrationNode({
			sb,
			baseUrl: proxyUrl,
			continueOnFail: true,
			parameters: quoteParams({ amount: '={{ $json.amount }}', recipientAddress: '={{ $json.recipient }}' }),
		});
		const input = items(12, (i) => ({ amount: i % 4 === 3 ? 'bad' : String(100_000_000 + i), recipient: i === 5 ? 'nope' : ADDR.bitcoin }));
		const [out] = await executeNode(h, input);
		expect(out.map((o) => o.pairedItem)).toEqual(input.map((_, i) => ({ item: i })));
		out.forEach((item, i) => {
			if (i % 4 === 3) expect(item.json.error).toMatch(new RegExp(`^Invalid "amount" in item ${i}:`));
			else if (i === 5) expect(item.json).toMatchObject({ errorCode: 'invalid_address', httpCode: '400' });
			else expect(item.json.amountIn).toBe(String(100_000_000 + i));
		});
	});
});
