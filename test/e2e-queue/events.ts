/** Events the sandbox emits and re-sends for the queue-mode suite, and what n8n made of them. */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { OrchestrationTrigger } from '../../nodes/OrchestrationTrigger/OrchestrationTrigger.node';
import type { Sandbox } from '../../sandbox';
import { pickSandboxKeys } from '../../scripts/lib/examples';
import { bodyHash, type Balancer } from '../../scripts/lib/balancer';
import type { QueueStack } from '../../scripts/lib/queue-stack';

/** The trigger's default version (what a user who adds it today gets): the version both suites run. */
export const TRIGGER_VERSION = new OrchestrationTrigger().description.defaultVersion as number;

async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
	const res = await fetch(url, init);
	const text = await res.text();
	if (res.status >= 400) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text}`);
	return JSON.parse(text) as T;
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
	const out: R[] = new Array(items.length);
	let next = 0;
	const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
		while (next < items.length) {
			const i = next++;
			out[i] = await fn(items[i], i);
		}
	});
	await Promise.all(lanes);
	return out;
}

/**
 * One distinct event: a quote paid with `autoAdvance: false`, so the order is created (one
 * `order.processing` delivery to every endpoint of the partner) and then stays put.
 */
export async function emitEvent(sb: Sandbox): Promise<string> {
	const { server } = pickSandboxKeys(sb);
	const quote = await call<{ depositAddress: string; amountIn: string }>(`${sb.orchestrationUrl}/v1/orchestration/quote`, {
		method: 'POST',
		headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json', 'x-idempotency-key': randomUUID() },
		body: JSON.stringify({
			sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'bitcoin', destinationAsset: 'BTC',
			amount: '40000000', recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
		}),
	});
	const paid = await call<{ orderId: string }>(`${sb.orchestrationUrl}/sandbox/deposits`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ depositAddress: quote.depositAddress, amount: quote.amountIn, autoAdvance: false }),
	});
	return paid.orderId;
}

/** Deliveries whose latest attempt has not ended yet. */
export function deliveriesInFlight(sb: Sandbox): number {
	return sb.orchestration.ctx.state.deliveries.filter((d) => {
		const last = d.attempts.at(-1);
		return d.state === 'pending' && last !== undefined && last.status === null && !last.error;
	}).length;
}

export interface EmitOptions {
	/** At most this many deliveries with an attempt open (default 8): a service sends at the pace its endpoint answers. */
	maxInFlight?: number;
	/**
	 * At most this many events a second (default: no limit). Orders move at their own pace, whatever
	 * the endpoint does: without it, events come as fast as a failing endpoint refuses them, and their
	 * retries come back all at once.
	 */
	perSecond?: number;
	/** Emission stops here; the events emitted so far are returned (default 240 s). */
	timeoutMs?: number;
	/** While true, no event is emitted (a fault case times its events around the fault). */
	held?: () => boolean;
}

/** `count` distinct events, paced (EmitOptions): an unbounded burst would only measure n8n's overload. */
export async function emitEvents(sb: Sandbox, count: number, opts: EmitOptions = {}): Promise<string[]> {
	const { maxInFlight = 8, perSecond, timeoutMs = 240_000, held = () => false } = opts;
	const deadline = Date.now() + timeoutMs;
	let nextAt = Date.now();
	const ids = await pool(Array.from({ length: count }, (_, i) => i), 4, async () => {
		// A failing endpoint keeps deliveries open (retries): stop emitting at the deadline, keep the count honest.
		while ((held() || deliveriesInFlight(sb) >= maxInFlight || Date.now() < nextAt) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
		if (perSecond !== undefined) nextAt = Math.max(nextAt, Date.now()) + 1000 / perSecond;
		return Date.now() < deadline ? await emitEvent(sb) : undefined;
	});
	return ids.filter((id): id is string => id !== undefined);
}

export interface Original {
	deliveryId: string;
	orderId: string;
	body: string;
	/** Delivered (a 2xx), after retries if needed. */
	delivered: boolean;
	/** When the first attempt ended (ms). */
	at: number;
	status: number | null;
	/** Index of the webhook process the balancer gave the first attempt. */
	backend: number;
}

/** First deliveries (not re-sends) of the given orders whose first attempt has ended. */
export function originals(sb: Sandbox, balancer: Balancer, orderIds: ReadonlySet<string>): Original[] {
	const out: Original[] = [];
	for (const d of sb.orchestration.ctx.state.deliveries) {
		const first = d.attempts[0];
		if (d.duplicateOf || !orderIds.has(d.orderId) || !first || (first.status === null && !first.error)) continue;
		const hash = bodyHash(d.body);
		const backend = balancer.log.find((f) => f.bodyHash === hash)?.backend ?? 0;
		out.push({ deliveryId: d.deliveryId, orderId: d.orderId, body: d.body, delivered: d.state === 'delivered', at: Date.parse(first.at), status: first.status, backend });
	}
	return out;
}

/**
 * The sandbox sends a recorded delivery again (same bytes, fresh signature) to one URL; its status.
 * `restamp`: a new delivery `timestamp` in the envelope, as the live service sends a retry.
 */
export async function redeliver(sb: Sandbox, deliveryId: string, url: string, restamp?: boolean): Promise<number | null> {
	const r = await call<{ delivery: { attempts: Array<{ status: number | null }> } }>(
		`${sb.orchestrationUrl}/sandbox/deliveries/${deliveryId}/redeliver`,
		{ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url, ...(restamp ? { restamp } : {}) }) },
	);
	return r.delivery.attempts[0]?.status ?? null;
}

export interface RunTally {
	/** Executions of the workflow. */
	runs: number;
	/** Distinct orders (one event each) among them. */
	distinct: number;
	/** Effective runs: executions in which "Received" (the node after the trigger) ran with an order. */
	effective: number;
	byStatus: Record<string, number>;
	orderIds: Set<string>;
	/** Effective runs per order id. */
	effectiveByOrder: Map<string, number>;
}

type Flatted = { parse: (text: string) => unknown };
interface StoredRun { resultData?: { runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json?: { data?: { id?: unknown } } }> | null> } }>> } }

/** n8n stores execution data in `flatted` format; its own copy reads it. */
function flattedOf(installDir: string): Flatted {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(path.join(installDir, 'node_modules', 'flatted')) as Flatted;
}

/** Order ids that "Received" output in one execution's stored data (empty when it did not run). */
export function receivedOrders(flatted: Flatted, data: string): string[] {
	const runs = (flatted.parse(data) as StoredRun).resultData?.runData?.Received ?? [];
	const items = runs.flatMap((r) => (r.data?.main ?? []).flatMap((out) => out ?? []));
	return items.map((i) => i.json?.data?.id).filter((id): id is string => typeof id === 'string');
}

/** Settled executions of the workflow, the distinct orders they carry, and the effective runs read from n8n's run data. */
export async function tallyRuns(stack: QueueStack, workflowId: string, installDir: string): Promise<RunTally> {
	// Re-sends keep coming for a minute after the last event: on a loaded machine that takes a while.
	const { total, byStatus } = await stack.settledRuns(workflowId, 3000, 600_000);
	const flatted = flattedOf(installDir);
	const rows = await stack.pg.sql(
		`select (regexp_match(d.data, 'ord_[0-9a-z]+'))[1], d.data from execution_data d join execution_entity e on e.id = d."executionId" where e."workflowId" = '${workflowId}'`,
	);
	const orderIds = new Set<string>();
	const effectiveByOrder = new Map<string, number>();
	let effective = 0;
	for (const row of rows) {
		const tab = row.indexOf('\t');
		const id = row.slice(0, tab);
		if (id.startsWith('ord_')) orderIds.add(id);
		const ran = receivedOrders(flatted, row.slice(tab + 1));
		if (ran.length > 0) effective++;
		for (const o of new Set(ran)) effectiveByOrder.set(o, (effectiveByOrder.get(o) ?? 0) + 1);
	}
	return { runs: total, distinct: orderIds.size, effective, byStatus, orderIds, effectiveByOrder };
}
