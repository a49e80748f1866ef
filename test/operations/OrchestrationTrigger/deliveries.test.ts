/**
 * Real signed deliveries: the sandbox registers the node's URL, runs funded orders through their
 * statuses and delivers every public transition (spec §6) to the node's webhook, including
 * injected duplicates and retries after failing answers. Each distinct event yields one run.
 */
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';
import { storedEntries } from '../../harness/processedStore';
import { clearRoutesCache } from '../../../nodes/Orchestration/helpers/routes';
import { startSandbox } from '../../../sandbox/index';
import { runWebhookMethod, type NodeHarness, type WebhookServer } from '../../harness/n8n';
import { completeRun, effectiveRuns, nodeStaticData, post, serveTrigger, SERVER_KEY, signedHeaders, triggerHarness, waitFor } from '../../harness/trigger';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

interface Attempt {
	attempt: number;
	timestamp: string;
	signature: string;
	status: number | null;
	responseBody?: string;
}

interface Delivery {
	deliveryId: string;
	webhookId: string;
	event: string;
	orderId: string;
	body: string;
	state: 'pending' | 'delivered' | 'failed';
	duplicateOf?: string;
	attempts: Attempt[];
}

const TIME_SCALE = 200;
const FINAL = new Set(['completed', 'failed', 'unfulfilled', 'refunded']);

async function control(sb: Sandbox, path: string, body?: unknown): Promise<unknown> {
	const res = await fetch(`${sb.orchestrationUrl}${path}`, {
		method: body === undefined ? 'GET' : 'POST',
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
	return await res.json();
}

async function deliveriesOf(sb: Sandbox, orderId: string): Promise<Delivery[]> {
	return ((await control(sb, `/sandbox/deliveries?orderId=${orderId}`)) as { deliveries: Delivery[] }).deliveries;
}

/** A quote with the server key, then its deposit address funded: the order starts moving. */
async function fundedOrder(sb: Sandbox, outcome = 'completed'): Promise<string> {
	const res = await fetch(`${sb.orchestrationUrl}/v1/orchestration/quote`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			authorization: `Bearer ${SERVER_KEY}`,
			'x-idempotency-key': `trigger-test-${randomBytes(8).toString('hex')}`,
		},
		body: JSON.stringify({
			sourceChain: 'base',
			sourceAsset: 'USDC',
			destinationChain: 'arbitrum',
			destinationAsset: 'USDC',
			amount: '25000000',
			recipientAddress: `0x${'2'.repeat(40)}`,
		}),
	});
	const quote = (await res.json()) as { depositAddress: string; amountIn?: string };
	expect(res.status).toBe(200);
	const funded = (await control(sb, '/sandbox/deposits', {
		depositAddress: quote.depositAddress,
		amount: quote.amountIn ?? '25000000',
		outcome,
	})) as { orderId: string };
	return funded.orderId;
}

/** Waits until the order is final and no delivery of it is pending any more. */
async function settled(sb: Sandbox, orderId: string, expectDuplicates = false): Promise<Delivery[]> {
	let last: Delivery[] = [];
	await waitFor(
		async () => {
			const order = (await control(sb, `/sandbox/orders/${orderId}`)) as { order?: { status: string }; status?: string };
			const status = order.order?.status ?? order.status ?? '';
			last = await deliveriesOf(sb, orderId);
			const originals = last.filter((d) => !d.duplicateOf);
			const done = last.length > 0 && last.every((d) => d.state !== 'pending');
			const duplicatesDone = !expectDuplicates || originals.every((o) => last.some((d) => d.duplicateOf === o.deliveryId));
			return FINAL.has(status) && done && duplicatesDone;
		},
		20_000,
		`order ${orderId} and its deliveries to settle`,
	);
	return last;
}

/** Sits between the sandbox and the node: fails the first attempt of every distinct body. */
async function failingProxy(target: () => string, mode: 'beforeNode' | 'afterNode'): Promise<{ url: string; failed: number; close(): Promise<void> }> {
	const seen = new Set<string>();
	const state = { failed: 0 };
	const server = http.createServer(async (req, res) => {
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const body = Buffer.concat(chunks);
		const first = !seen.has(body.toString('latin1'));
		seen.add(body.toString('latin1'));
		const forward = async () => {
			const headers: Record<string, string> = {};
			for (const name of ['content-type', 'x-service-signature', 'x-service-timestamp', 'user-agent']) {
				const v = req.headers[name];
				if (typeof v === 'string') headers[name] = v;
			}
			return await post(target(), body, headers);
		};
		if (first) {
			state.failed++;
			if (mode === 'afterNode') await forward(); // the node saw it; the answer is "lost"
			res.statusCode = 503;
			res.end('temporarily unavailable');
			return;
		}
		const answer = await forward();
		res.statusCode = answer.status;
		res.setHeader('content-type', 'application/json');
		res.end(answer.body);
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
		get failed() {
			return state.failed;
		},
		close: () => new Promise<void>((r) => server.close(() => r())),
	};
}

/** Events of the runs that went past the trigger (what the node after it saw). */
function eventsOfRuns(server: WebhookServer): string[] {
	return effectiveRuns(server).map((run) => String(run[0].json.event)).sort();
}

function distinctEvents(deliveries: Delivery[]): string[] {
	return [...new Set(deliveries.map((d) => d.event))].sort();
}

describe('Orchestration Trigger: real deliveries from the sandbox', () => {
	let sb: Sandbox;
	const closers: Array<() => Promise<void>> = [];
	beforeAll(async () => {
		sb = await startSandbox({ quiet: true, timeScale: TIME_SCALE });
	});
	afterAll(async () => {
		await sb.close();
	});
	beforeEach(async () => {
		await control(sb, '/sandbox/reset', {});
		await control(sb, '/sandbox/config', { duplicateDeliveries: false });
	});
	afterEach(async () => {
		while (closers.length) await closers.pop()!();
	});

	/** A trigger registered with the sandbox whose deliveries land on its webhook server. */
	async function registeredTrigger(
		parameters = {},
		opts: { isTest?: boolean; via?: (serverUrl: string) => Promise<string> } = {},
	): Promise<{ h: NodeHarness; server: WebhookServer }> {
		const h = triggerHarness({ baseUrl: sb.orchestrationUrl, parameters });
		const server = await serveTrigger(h, { isTest: opts.isTest });
		closers.push(() => server.close());
		const url = opts.via ? await opts.via(server.url) : server.url;
		const data = h.additionalData as unknown as Record<string, string>;
		// n8n's test URLs live under /webhook-test/; the server answers any path.
		if (opts.isTest) data.webhookTestBaseUrl = url.replace(/\/webhook$/, '/webhook-test');
		else data.webhookBaseUrl = url;
		expect(await runWebhookMethod(h, 'checkExists', { isTest: opts.isTest })).toBe(false);
		expect(await runWebhookMethod(h, 'create', { isTest: opts.isTest })).toBe(true);
		return { h, server };
	}

	it('starts exactly one run per event of a real order flow, with the snapshot and delivery metadata', async () => {
		const { h, server } = await registeredTrigger();
		const orderId = await fundedOrder(sb);
		const deliveries = await settled(sb, orderId);

		expect(deliveries.every((d) => d.state === 'delivered' && d.attempts.length === 1)).toBe(true);
		expect(distinctEvents(deliveries)).toEqual(expect.arrayContaining(['order.processing', 'order.completed']));
		expect(eventsOfRuns(server)).toEqual(distinctEvents(deliveries));
		expect(server.answers.every((a) => a.status === 200)).toBe(true);

		for (const d of deliveries) {
			const run = server.runs.find((r) => r[0].json.event === d.event)!;
			expect(run).toHaveLength(1);
			const sent = JSON.parse(d.body) as { event: string; timestamp: string; data: { id: string; updatedAt: string } };
			const { json } = run[0];
			expect(json.data).toEqual(sent.data);
			// the run's output adds the flat order (the snapshot is flat already)
			const output = effectiveRuns(server).find((o) => o[0].json.event === d.event)![0].json;
			expect(output.order).toMatchObject(sent.data);
			expect(json.timestamp).toBe(sent.timestamp);
			expect(json.delivery).toMatchObject({
				signatureTimestamp: Number(d.attempts[0].timestamp),
				duplicateKey: JSON.stringify([sent.data.id, sent.event, sent.data.updatedAt]),
				webhookId: d.webhookId,
			});
			expect(json.headers).toBeUndefined();
		}
		// Each run recorded its event and its owner mark in n8n's store; nothing wrote static data; the
		// secret is in no output.
		expect(storedEntries(h.workflow.id!, h.node.id)).toBe(2 * deliveries.length);
		const before = JSON.stringify(h.workflow.staticData);
		const outputs = [];
		// n8n's Retry of each execution (the owner lineage) outputs it again.
		for (const run of server.runs) outputs.push(await completeRun(h, run, 'retry'));
		// execute() adds `...Formatted` amounts to the flat order from the routes listing (issue 22; USDC: 6 decimals)
		const withoutOrder = ({ order: _order, ...rest }: IDataObject) => rest;
		expect(outputs.map((o) => o.map((i) => withoutOrder(i.json)))).toEqual(server.runs.map((r) => r.map((i) => withoutOrder(i.json))));
		for (const [n, out] of outputs.entries()) {
			const input = server.runs[n][0].json;
			expect(out[0].json.order).toMatchObject({ ...(input.order as IDataObject), amountInFormatted: '25', estimatedOutFormatted: '24.925', feeAmountFormatted: '0.075' });
			if (input.event === 'order.completed') expect(out[0].json.order).toMatchObject({ amountOutFormatted: '24.925' });
		}
		expect(JSON.stringify(h.workflow.staticData)).toBe(before);
		expect(JSON.stringify({ runs: server.runs, outputs })).not.toContain(String(nodeStaticData(h).secret));
	});

	it('maps the live service\'s nested data to the flat order, with formatted amounts of known assets (issues 21, 22)', async () => {
		const { server } = await registeredTrigger();
		const [hook] = ((await (await fetch(`${sb.orchestrationUrl}/sandbox/webhooks`)).json()) as { webhooks: Array<{ webhookId: string }> }).webhooks;
		const data = {
			id: 'ord_live_1', status: 'refunded', updatedAt: '2026-11-25T10:00:00.000Z', amountIn: '250000000', feeAmount: '750000',
			amountOut: null, source: { chain: 'base', asset: 'USDC', address: '0xdep', txHash: '0xin' },
			destination: { chain: 'bitcoin', asset: 'BTC', address: 'bc1qrecipient', txHash: null },
			refund: { asset: 'USDC', amount: '249250000', txHash: '0xrefund' }, error: { code: 'slippage_exceeded', message: 'price moved' },
			feePayouts: { entries: [{ role: 'affiliate_bonus', leg: 'deferred', amount: '1500000' }] },
		};
		const rawBody = JSON.stringify({ event: 'order.refunded', timestamp: new Date().toISOString(), data });
		await control(sb, `/sandbox/webhooks/${hook.webhookId}/deliveries`, { rawBody, event: 'order.refunded' });
		await waitFor(() => server.outputs.length === 1);
		const [out] = server.outputs[0];
		expect(out.json.data).toEqual(data);
		expect(out.json.order).toEqual({
			id: 'ord_live_1', status: 'refunded', updatedAt: '2026-11-25T10:00:00.000Z', amountOut: null,
			amountIn: '250000000', amountInFormatted: '250', feeAmount: '750000', feeAmountFormatted: '0.75',
			sourceChain: 'base', sourceAsset: 'USDC', depositAddress: '0xdep', sourceTxHash: '0xin',
			destinationChain: 'bitcoin', destinationAsset: 'BTC', recipientAddress: 'bc1qrecipient', destinationTxHash: null,
			refundAsset: 'USDC', refundAmount: '249250000', refundAmountFormatted: '249.25', refundTxHash: '0xrefund',
			errorCode: 'slippage_exceeded', errorMessage: 'price moved',
			feePayouts: { entries: [{ role: 'affiliate_bonus', leg: 'deferred', amount: '1500000', amountFormatted: '1.5' }] },
		});
	});

	it('Existing Endpoint: readable amounts with the optional server credential (the routes listing only), recovery deliveries with the second secret', async () => {
		const secret = `whsec_existing_${randomBytes(12).toString('hex')}`;
		const recoverySecret = `whsec_existing_recovery_${randomBytes(12).toString('hex')}`;
		const existing = (readableAmounts?: boolean) => {
			const h = triggerHarness({
				baseUrl: sb.orchestrationUrl,
				parameters: { registration: 'existingEndpoint', ...(readableAmounts === undefined ? {} : { readableAmounts }) },
				secretCredential: { secret, recoverySecret },
			});
			return h;
		};
		const data = { id: `ord_existing_${randomBytes(3).toString('hex')}`, status: 'completed', updatedAt: new Date().toISOString(), amountIn: '250000000', feeAmount: '750000', source: { chain: 'base', asset: 'USDC' } };
		const body = JSON.stringify({ event: 'order.completed', timestamp: new Date().toISOString(), data });
		const recovery = JSON.stringify({ event: 'order.recovery_required', data: { ...data, status: 'processing', reviewStatus: 'pending_review' } });
		for (const readableAmounts of [undefined, false, true]) {
			clearRoutesCache();
			await fetch(`${sb.orchestrationUrl}/sandbox/requests`, { method: 'DELETE' });
			const h = existing(readableAmounts);
			expect(await runWebhookMethod(h, 'checkExists')).toBe(true);
			const server = await serveTrigger(h);
			closers.push(() => server.close());
			expect((await post(server.url, body, signedHeaders(secret, body))).status).toBe(200);
			expect((await post(server.url, recovery, signedHeaders(recoverySecret, recovery))).status).toBe(200);
			// Each secret for its own subscription's events only.
			const wrong = await post(server.url, recovery, signedHeaders(secret, recovery, Date.now() + 1));
			expect([wrong.status, wrong.json?.error]).toEqual([401, 'wrong_subscription']);
			await waitFor(() => server.outputs.length === 2);
			const [completed, recovered] = server.outputs.map((o) => o[0].json);
			expect(recovered).toMatchObject({ event: 'order.recovery_required', order: { reviewStatus: 'pending_review' } });
			const sent = ((await control(sb, '/sandbox/requests')) as { requests: Array<{ method: string; path: string }> }).requests;
			if (readableAmounts === true) {
				expect(completed.order).toMatchObject({ amountInFormatted: '250', feeAmountFormatted: '0.75' });
				// The server credential read the routes listing, and nothing else.
				expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v2/orchestration/routes']);
			} else {
				expect(completed.order).not.toHaveProperty('amountInFormatted');
				expect(sent).toEqual([]);
			}
			expect(JSON.stringify(server.outputs)).not.toContain(recoverySecret);
		}
	});

	it('a secret is replaced without losing an event: the new endpoint registered first, both secrets accepted, the old endpoint deleted', async () => {
		const register = async (url: string) => {
			const res = await fetch(`${sb.orchestrationUrl}/v1/webhooks`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVER_KEY}`, 'x-idempotency-key': `rotate-${randomBytes(6).toString('hex')}` },
				body: JSON.stringify({ url }),
			});
			expect(res.status).toBe(201);
			return (await res.json()) as { webhookId: string; secret: string };
		};
		// the credential as n8n hands it over; edited in place as the user edits it between the steps
		const credential: IDataObject = { secret: `whsec_placeholder_${randomBytes(8).toString('hex')}` };
		const h = triggerHarness({ baseUrl: sb.orchestrationUrl, parameters: { registration: 'existingEndpoint' }, secretCredential: credential });
		const server = await serveTrigger(h);
		closers.push(() => server.close());
		const old = await register(server.url);
		credential.secret = old.secret;
		const first = await fundedOrder(sb);
		const firstDeliveries = await settled(sb, first);

		// 1. a new endpoint for the same URL; 2. its secret in the credential, the old one as Previous Webhook Secret
		const next = await register(server.url);
		Object.assign(credential, { secret: next.secret, previousSecret: old.secret });
		const during = await fundedOrder(sb);
		const duringDeliveries = await settled(sb, during);
		// precondition: both endpoints delivered every event of the order
		expect(new Set(duringDeliveries.map((d) => d.webhookId))).toEqual(new Set([old.webhookId, next.webhookId]));
		// 3. the old endpoint deleted; 4. Previous Webhook Secret cleared
		const removed = await fetch(`${sb.orchestrationUrl}/v1/webhooks/${old.webhookId}`, {
			method: 'DELETE',
			headers: { authorization: `Bearer ${SERVER_KEY}`, 'x-idempotency-key': `rotate-del-${randomBytes(6).toString('hex')}` },
		});
		expect(removed.status).toBe(200);
		delete credential.previousSecret;
		const after = await fundedOrder(sb);
		const afterDeliveries = await settled(sb, after);
		expect(afterDeliveries.every((d) => d.webhookId === next.webhookId)).toBe(true);

		const all = [...firstDeliveries, ...duringDeliveries, ...afterDeliveries];
		expect(all.every((d) => d.state === 'delivered')).toBe(true);
		// every event of the three orders ran exactly once
		const ran = effectiveRuns(server).map((run) => `${String((run[0].json.data as IDataObject).id)} ${String(run[0].json.event)}`).sort();
		const sent = [...new Set(all.map((d) => `${d.orderId} ${d.event}`))].sort();
		expect(ran).toEqual(sent);
		expect(JSON.stringify(server.outputs)).not.toContain(old.secret);
	});

	it('the live envelope (delivery time in `timestamp`, no data.updatedAt): an event delivered again with a new timestamp runs once', async () => {
		await control(sb, '/sandbox/config', { webhookEnvelope: { timestamp: 'delivery', updatedAt: false } });
		try {
			const { server } = await registeredTrigger();
			const orderId = await fundedOrder(sb);
			const deliveries = await settled(sb, orderId);
			const first = deliveries.find((d) => d.event === 'order.completed') as Delivery;
			await control(sb, `/sandbox/deliveries/${first.deliveryId}/redeliver`, { restamp: true });
			const all = await deliveriesOf(sb, orderId);
			const again = all.find((d) => d.deliveryId !== first.deliveryId && d.event === 'order.completed') as Delivery;
			await waitFor(async () => (await deliveriesOf(sb, orderId)).every((d) => d.state !== 'pending'), 10_000, 'the redelivery to settle');
			// preconditions: no updatedAt, and the two bodies differ only in the delivery timestamp
			const [a, b] = [JSON.parse(first.body), JSON.parse(again.body)] as Array<{ timestamp: string; data: IDataObject }>;
			expect(a.data).not.toHaveProperty('updatedAt');
			expect(b.data).toEqual(a.data);
			expect(b.timestamp).not.toBe(a.timestamp);
			expect(eventsOfRuns(server)).toEqual(distinctEvents(deliveries));
		} finally {
			await control(sb, '/sandbox/config', { webhookEnvelope: { timestamp: 'event', updatedAt: true } });
		}
	});

	it('an order paid through a pay link carries payLinkId and payLinkLabel in the output', async () => {
		const { server } = await registeredTrigger();
		const created = await fetch(`${sb.orchestrationUrl}/v1/pay-links`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVER_KEY}`, 'x-idempotency-key': `link-${randomBytes(6).toString('hex')}` },
			body: JSON.stringify({ destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: `0x${'2'.repeat(40)}`, amountOut: '25000000', label: 'Invoice 42' }),
		});
		const { shortId } = (await created.json()) as { shortId: string };
		const paid = await control(sb, `/sandbox/pay-links/${shortId}/pay`, { sourceChain: 'ethereum', sourceAsset: 'USDC' });
		const orderId = (paid as { orderId: string }).orderId;
		const deliveries = await settled(sb, orderId);
		expect(deliveries.length).toBeGreaterThan(0);
		const outputs = effectiveRuns(server).map((o) => o[0].json.order as IDataObject).filter((o) => o.id === orderId);
		expect(outputs.length).toBe(distinctEvents(deliveries).length);
		for (const order of outputs) expect(order).toMatchObject({ payLinkId: shortId, payLinkLabel: 'Invoice 42' });
	});

	it('answers injected duplicate deliveries 200 and runs nothing downstream for them', async () => {
		await control(sb, '/sandbox/config', { duplicateDeliveries: true });
		const { server } = await registeredTrigger();
		const orderId = await fundedOrder(sb);
		const deliveries = await settled(sb, orderId, true);

		const duplicates = deliveries.filter((d) => d.duplicateOf);
		expect(duplicates.length).toBeGreaterThanOrEqual(distinctEvents(deliveries).length);
		expect(deliveries.every((d) => d.state === 'delivered')).toBe(true);
		for (const d of duplicates) {
			const last = d.attempts.at(-1)!;
			expect(last.status).toBe(200);
			// Answered by the process that ran the event, or (arriving while it ran) an execution that stops at the trigger.
			if (last.responseBody) expect(JSON.parse(last.responseBody)).toMatchObject({ ignored: 'duplicate' });
		}
		expect(eventsOfRuns(server)).toEqual(distinctEvents(deliveries));
		expect(effectiveRuns(server)).toHaveLength(distinctEvents(deliveries).length);
	});

	it('accepts the retry after a failing first answer: one run per event', async () => {
		let target = '';
		const { server } = await registeredTrigger({}, {
			via: async (serverUrl) => {
				target = serverUrl;
				const proxy = await failingProxy(() => target, 'beforeNode');
				closers.push(() => proxy.close());
				return proxy.url;
			},
		});
		const orderId = await fundedOrder(sb);
		const deliveries = await settled(sb, orderId);

		for (const d of deliveries) {
			expect(d.state).toBe('delivered');
			expect(d.attempts.map((a) => a.status)).toEqual([503, 200]);
			// spec §6 rule 2: a fresh timestamp and signature per attempt, the same payload.
			expect(d.attempts[1].timestamp).not.toBe(d.attempts[0].timestamp);
			expect(d.attempts[1].signature).not.toBe(d.attempts[0].signature);
		}
		expect(eventsOfRuns(server)).toEqual(distinctEvents(deliveries));
	});

	it('treats a retry of an event it already accepted (answer lost) as a duplicate, also with duplicates injected', async () => {
		await control(sb, '/sandbox/config', { duplicateDeliveries: true });
		let target = '';
		const { server } = await registeredTrigger({}, {
			via: async (serverUrl) => {
				target = serverUrl;
				const proxy = await failingProxy(() => target, 'afterNode');
				closers.push(() => proxy.close());
				return proxy.url;
			},
		});
		const orderId = await fundedOrder(sb);
		const deliveries = await settled(sb, orderId, true);

		const originals = deliveries.filter((d) => !d.duplicateOf);
		for (const d of originals) {
			expect(d.attempts.map((a) => a.status)).toEqual([503, 200]);
			if (d.attempts[1].responseBody) expect(JSON.parse(d.attempts[1].responseBody)).toMatchObject({ ignored: 'duplicate' });
		}
		// Every event reached the node at least three times (attempt, retry, duplicate): one run each.
		expect(server.answers.length).toBeGreaterThanOrEqual(originals.length * 3);
		expect(eventsOfRuns(server)).toEqual(distinctEvents(deliveries));
	});

	it('answers events outside the selection 200 without a run', async () => {
		const { server } = await registeredTrigger({ events: ['order.completed', 'order.failed'] });
		const completed = await fundedOrder(sb);
		const failed = await fundedOrder(sb, 'failed');
		const deliveries = [...(await settled(sb, completed)), ...(await settled(sb, failed))];

		expect(deliveries.every((d) => d.state === 'delivered')).toBe(true);
		expect(eventsOfRuns(server)).toEqual(['order.completed', 'order.failed']);
		const ignored = deliveries.filter((d) => !['order.completed', 'order.failed'].includes(d.event));
		expect(ignored.length).toBeGreaterThan(0);
		for (const d of ignored) expect(JSON.parse(d.attempts[0].responseBody ?? '{}')).toMatchObject({ ignored: 'event_not_selected' });
	});

	it('outputs only the order snapshot, or adds the headers (without the sensitive ones unless asked)', async () => {
		const onlyData = await registeredTrigger({ events: ['order.completed'], options: { onlyData: true } });
		const withHeaders = await registeredTrigger({ events: ['order.completed'], options: { includeHeaders: true } });
		const sensitive = await registeredTrigger({ events: ['order.completed'], options: { includeHeaders: true, includeSensitiveHeaders: true } });
		const orderId = await fundedOrder(sb);
		const deliveries = await settled(sb, orderId);
		const completed = deliveries.filter((d) => d.event === 'order.completed');
		expect(completed).toHaveLength(3); // one per registered endpoint

		const snapshot = JSON.parse(completed[0].body).data;
		expect(onlyData.server.runs).toHaveLength(1);
		// The run's first step (the trigger's execute) outputs the snapshot alone.
		const [only] = onlyData.server.outputs[0];
		expect(only.json).toEqual(snapshot);
		expect(only.pairedItem).toEqual({ item: 0 });

		expect(withHeaders.server.runs).toHaveLength(1);
		const { json } = withHeaders.server.runs[0][0];
		expect(json.data).toEqual(snapshot);
		const headers = json.headers as Record<string, string>;
		expect(headers['user-agent']).toMatch(/sandbox/);
		expect(headers['content-type']).toMatch(/json/);
		expect(headers).not.toHaveProperty('x-service-signature');
		expect(headers).not.toHaveProperty('x-service-timestamp');

		const kept = sensitive.server.runs[0][0].json.headers as Record<string, string>;
		const mine = completed.find((d) => d.webhookId === nodeStaticData(sensitive.h).webhookId)!;
		expect(kept['x-service-signature']).toBe(mine.attempts[0].signature);
		expect(kept['x-service-timestamp']).toBe(mine.attempts[0].timestamp);
	});

	it('accepts a delivery signed under the live header names (X-Flashnet-*); Include Headers drops both sets unless asked', async () => {
		const withHeaders = await registeredTrigger({ events: ['order.completed'], options: { includeHeaders: true } });
		const sensitive = await registeredTrigger({ events: ['order.completed'], options: { includeHeaders: true, includeSensitiveHeaders: true } });
		const body = JSON.stringify({
			event: 'order.completed',
			timestamp: new Date().toISOString(),
			data: { id: `ord_live_${randomBytes(3).toString('hex')}`, status: 'completed', updatedAt: new Date().toISOString() },
		});
		const liveHeaders = (secret: string) => {
			const { 'x-service-signature': signature, 'x-service-timestamp': timestamp, ...rest } = signedHeaders(secret, body);
			return { ...rest, 'X-Flashnet-Signature': signature, 'X-Flashnet-Timestamp': timestamp, 'user-agent': 'live-like/1' };
		};
		for (const { h, server } of [withHeaders, sensitive]) {
			const secret = String(nodeStaticData(h).secret);
			expect((await post(server.url, body, liveHeaders('whsec_not_the_secret_0000'))).json?.error).toBe('signature_mismatch');
			const both = { ...liveHeaders(secret), ...signedHeaders(secret, body) };
			const refused = await post(server.url, body, both);
			expect([refused.status, refused.json?.error]).toEqual([401, 'malformed_signature']);
			expect(refused.json?.message).toMatch(/Exactly one signature header/);
			expect((await post(server.url, body, liveHeaders(secret))).status).toBe(200);
			expect(server.runs).toHaveLength(1);
			expect(server.runs[0][0].json).toMatchObject({ event: 'order.completed', delivery: { webhookId: nodeStaticData(h).webhookId } });
		}
		const dropped = withHeaders.server.runs[0][0].json.headers as Record<string, string>;
		expect(dropped['user-agent']).toBe('live-like/1');
		for (const name of ['x-flashnet-signature', 'x-flashnet-timestamp', 'x-service-signature', 'x-service-timestamp']) expect(dropped).not.toHaveProperty(name);
		const kept = sensitive.server.runs[0][0].json.headers as Record<string, string>;
		expect(kept['x-flashnet-signature']).toMatch(/^[0-9a-f]{64}$/);
		expect(kept['x-flashnet-timestamp']).toMatch(/^\d{13}$/);
	});

	it('verifies on the test URL too ("listen for test event")', async () => {
		const { h, server } = await registeredTrigger({}, { isTest: true });
		expect(String(nodeStaticData(h).url)).toContain('/webhook-test/');
		const orderId = await fundedOrder(sb);
		const deliveries = await settled(sb, orderId);
		expect(eventsOfRuns(server)).toEqual(distinctEvents(deliveries));

		const body = deliveries[0].body;
		const forged = await post(server.url, body, signedHeaders('whsec_not_the_secret', body));
		expect([forged.status, forged.json?.error]).toEqual([401, 'signature_mismatch']);
		const unsigned = await post(server.url, body, { 'content-type': 'application/json' });
		expect([unsigned.status, unsigned.json?.error]).toEqual([401, 'missing_signature']);
		expect(server.runs).toHaveLength(distinctEvents(deliveries).length);
	});
});
