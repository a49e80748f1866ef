/**
 * Verified deliveries per second through the Orchestration Trigger's webhook() (n8n-core's
 * WebhookContext, in-memory request and response, no network) against a bare node:crypto HMAC
 * check over the same bodies. TRIGGER_BENCH_N sets the number of deliveries (default 20000).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { OrchestrationTrigger as TriggerNode } from '../nodes/OrchestrationTrigger/OrchestrationTrigger.node';
import type { IDataObject } from 'n8n-workflow';
import { OrchestrationWebhookSecretApi } from '../credentials/OrchestrationWebhookSecretApi.credentials';
import { createHarness, runWebhook, type WebhookRequest, type WebhookResponse } from '../test/harness/n8n';

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

/** The floor: what any correct verifier must do per delivery (HMAC plus constant-time compare). */
function rawHmac(list: Delivery[]): number {
	let ok = 0;
	for (const d of list) {
		const expected = createHmac('sha256', SECRET).update(`${d.timestamp}.`).update(d.body).digest();
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

function perSecond(count: number, ms: number): string {
	return Math.round((count / ms) * 1000).toLocaleString('en-US');
}

export async function run(): Promise<void> {
	const n = Number(process.env.TRIGGER_BENCH_N ?? 20_000);
	const now = Date.now();
	const good = deliveries(n, now, SECRET);
	const forged = deliveries(n, now, 'whsec_not_the_secret');

	// Warm-up of both paths (JIT, n8n-core's lazy modules).
	rawHmac(good.slice(0, 500));
	await throughTrigger(deliveries(500, now, SECRET), 'wf-bench-warmup');

	let t = performance.now();
	const rawOk = rawHmac(good);
	const rawMs = performance.now() - t;

	t = performance.now();
	const accepted = await throughTrigger(good, 'wf-bench-accepted');
	const triggerMs = performance.now() - t;

	t = performance.now();
	const refused = await throughTrigger(forged, 'wf-bench-forged');
	const forgedMs = performance.now() - t;

	if (rawOk !== n || accepted.runs !== n || refused.rejected !== n) {
		throw new Error(`bench sanity check failed: raw ${rawOk}, runs ${accepted.runs}, rejected ${refused.rejected} of ${n}`);
	}
	const bytes = good.reduce((sum, d) => sum + d.body.length, 0) / n;
	console.log(`${n} deliveries of ${Math.round(bytes)} bytes each`);
	console.log(`raw HMAC-SHA256 + timingSafeEqual      ${perSecond(n, rawMs).padStart(12)} deliveries/s`);
	console.log(`trigger webhook(), accepted (one run)  ${perSecond(n, triggerMs).padStart(12)} deliveries/s`);
	console.log(`trigger webhook(), forged (401)        ${perSecond(n, forgedMs).padStart(12)} deliveries/s`);
	console.log(`ratio raw / trigger (accepted)          ${(triggerMs / rawMs).toFixed(1).padStart(12)}x`);
}
