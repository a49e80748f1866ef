/**
 * Verified deliveries per second through the Orchestration Trigger's webhook() (n8n-core's
 * WebhookContext, in-memory request and response, no network) against a bare node:crypto HMAC
 * check over the same bodies, its key built once as the package builds it. Rounds interleave the
 * three loops; the median and the spread are printed. TRIGGER_BENCH_N sets the number of deliveries
 * per round (default 20000), TRIGGER_BENCH_ROUNDS the rounds (default 5).
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import type { OrchestrationTrigger as TriggerNode } from '../nodes/OrchestrationTrigger/OrchestrationTrigger.node';
import type { IDataObject } from 'n8n-workflow';
import { OrchestrationWebhookSecretApi } from '../credentials/OrchestrationWebhookSecretApi.credentials';
import { createHarness, runWebhook, type WebhookRequest, type WebhookResponse } from '../test/harness/n8n';
import { median, medianAndSpread } from './stats';

// Under tsx, require('X.node') resolves the codex X.node.json before X.node.ts: name the file.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OrchestrationTrigger } = require('../nodes/OrchestrationTrigger/OrchestrationTrigger.node.ts') as {
	OrchestrationTrigger: typeof TriggerNode;
};

const SECRET = 'whsec_bench_4f1c0e6a9b2d7c3e8f5a1b0c9d8e7f6a';

interface Delivery {
	body: Buffer;
	timestamp: string;
	signature: string;
}

function deliveries(n: number, nowMs: number, secret: string): Delivery[] {
	return Array.from({ length: n }, (_, i) => {
		const body = Buffer.from(
			JSON.stringify({
				event: 'order.completed',
				timestamp: new Date(nowMs).toISOString(),
				data: {
					id: `ord_bench_${i}`,
					status: 'completed',
					updatedAt: new Date(nowMs - i).toISOString(),
					quoteId: `q_bench_${i}`,
					amountIn: '25000000',
					feeAmount: '75000',
					feePayouts: { entries: [{ role: 'platform_fee', leg: 'full', amount: '75000', platformCutAmount: '75000', recipientAmount: '0' }] },
				},
			}),
		);
		const timestamp = String(nowMs);
		const signature = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
		return { body, timestamp, signature };
	});
}

const SECRET_KEY = createSecretKey(SECRET, 'utf8');

/** The floor: what any correct verifier must do per delivery (HMAC plus constant-time compare), its key built once. */
function rawHmac(list: Delivery[]): number {
	let ok = 0;
	for (const d of list) {
		const expected = createHmac('sha256', SECRET_KEY).update(`${d.timestamp}.`).update(d.body).digest();
		if (timingSafeEqual(expected, Buffer.from(d.signature, 'hex'))) ok++;
	}
	return ok;
}

function request(d: Delivery): WebhookRequest {
	return {
		method: 'POST',
		url: '/webhook',
		headers: { 'content-type': 'application/json', 'x-service-signature': d.signature, 'x-service-timestamp': d.timestamp },
		rawBody: d.body,
		body: {},
		query: {},
		params: {},
	} as unknown as WebhookRequest;
}

function response(): WebhookResponse {
	const res = {
		statusCode: 200,
		status(code: number) {
			res.statusCode = code;
			return res;
		},
		json: () => res,
		send: () => res,
		end: () => res,
	};
	return res as unknown as WebhookResponse;
}

async function throughTrigger(list: Delivery[], workflowId: string, staticData?: IDataObject): Promise<{ runs: number; rejected: number }> {
	// Version 1.1: the existing endpoint's secret comes from its credential, read per request.
	const harness = createHarness({
		nodeType: new OrchestrationTrigger(),
		credentialTypes: [new OrchestrationWebhookSecretApi()],
		credentials: { orchestrationWebhookSecretApi: { secret: SECRET } },
		parameters: { registration: 'existingEndpoint' },
		workflowId,
		staticData,
	});
	let runs = 0;
	let rejected = 0;
	for (const d of list) {
		const res = response();
		const result = await runWebhook(harness, request(d), res);
		if (result.workflowData) runs++;
		else if (res.statusCode === 401) rejected++;
	}
	return { runs, rejected };
}

function perSecond(count: number, ms: number): number {
	return (count / ms) * 1000;
}

export async function run(): Promise<void> {
	const n = Number(process.env.TRIGGER_BENCH_N ?? 20_000);
	const roundsWanted = Number(process.env.TRIGGER_BENCH_ROUNDS ?? 5);
	const now = Date.now();
	const good = deliveries(n, now, SECRET);
	const forged = deliveries(n, now, 'whsec_not_the_secret');

	// Warm-up of both paths (JIT, n8n-core's lazy modules).
	rawHmac(good.slice(0, 500));
	await throughTrigger(deliveries(500, now, SECRET), 'wf-bench-warmup');

	const rounds: Array<{ raw: number; accepted: number; forged: number }> = [];
	for (let round = 0; round < roundsWanted; round++) {
		let t = performance.now();
		const rawOk = rawHmac(good);
		const raw = perSecond(n, performance.now() - t);
		t = performance.now();
		const accepted = await throughTrigger(good, `wf-bench-accepted-${round}`);
		const acceptedRate = perSecond(n, performance.now() - t);
		t = performance.now();
		const refused = await throughTrigger(forged, `wf-bench-forged-${round}`);
		const forgedRate = perSecond(n, performance.now() - t);
		if (rawOk !== n || accepted.runs !== n || refused.rejected !== n) {
			throw new Error(`bench sanity check failed: raw ${rawOk}, runs ${accepted.runs}, rejected ${refused.rejected} of ${n}`);
		}
		rounds.push({ raw, accepted: acceptedRate, forged: forgedRate });
	}
	const bytes = good.reduce((sum, d) => sum + d.body.length, 0) / n;
	console.log(`${n} deliveries of ${Math.round(bytes)} bytes each, ${rounds.length} interleaved rounds (median, lowest to highest round)`);
	console.log(`raw HMAC-SHA256 + timingSafeEqual      ${medianAndSpread(rounds.map((r) => r.raw), 0)} deliveries/s`);
	console.log(`trigger webhook(), accepted (one run)  ${medianAndSpread(rounds.map((r) => r.accepted), 0)} deliveries/s`);
	console.log(`trigger webhook(), forged (401)        ${medianAndSpread(rounds.map((r) => r.forged), 0)} deliveries/s`);
	console.log(`time per delivery, trigger / raw        ${medianAndSpread(rounds.map((r) => r.raw / r.accepted), 1)} (ratio of the medians ${(median(rounds.map((r) => r.raw)) / median(rounds.map((r) => r.accepted))).toFixed(1)}x)`);
}
