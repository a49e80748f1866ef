/** Direct calls to the sandbox the end-to-end suite makes around n8n (orders, deliveries, state). */
import { randomUUID } from 'node:crypto';
import type { Sandbox } from '../../sandbox';
import { pickSandboxKeys } from '../../scripts/lib/examples';

async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
	const res = await fetch(url, init);
	const text = await res.text();
	if (res.status >= 400) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text}`);
	return (text ? JSON.parse(text) : undefined) as T;
}

export interface Delivery {
	deliveryId: string;
	webhookId: string;
	url: string;
	event: string;
	orderId: string;
	body: string;
	state: 'pending' | 'delivered' | 'failed';
	duplicateOf?: string;
	attempts: Array<{ at: string; status: number | null; timestamp: string; signature: string }>;
}

export class SandboxClient {
	constructor(readonly sb: Sandbox) {}

	private get orch(): string {
		return this.sb.orchestrationUrl;
	}

	async setSwitches(switches: Record<string, unknown>): Promise<void> {
		await call(`${this.orch}/sandbox/config`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(switches),
		});
	}

	/** A quote made with the server key, then paid: the order then moves by itself to `completed`. */
	async paidOrder(outcome?: string): Promise<string> {
		const { server } = pickSandboxKeys(this.sb);
		const quote = await call<{ depositAddress: string; amountIn: string }>(`${this.orch}/v1/orchestration/quote`, {
			method: 'POST',
			headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json', 'x-idempotency-key': randomUUID() },
			body: JSON.stringify({
				sourceChain: 'base',
				sourceAsset: 'USDC',
				destinationChain: 'bitcoin',
				destinationAsset: 'BTC',
				amount: '40000000',
				recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
			}),
		});
		const paid = await call<{ orderId: string }>(`${this.orch}/sandbox/deposits`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ depositAddress: quote.depositAddress, amount: quote.amountIn, ...(outcome ? { outcome } : {}) }),
		});
		return paid.orderId;
	}

	async orderStatus(orderId: string): Promise<string> {
		const { server } = pickSandboxKeys(this.sb);
		const body = await call<{ order?: { status: string }; status?: string }>(`${this.orch}/v1/orchestration/status?id=${orderId}`, {
			headers: { authorization: `Bearer ${server.key}` },
		});
		return body.order?.status ?? body.status ?? 'unknown';
	}

	async deliveries(filter: { webhookId?: string; orderId?: string } = {}): Promise<Delivery[]> {
		const q = new URLSearchParams(filter as Record<string, string>).toString();
		return (await call<{ deliveries: Delivery[] }>(`${this.orch}/sandbox/deliveries?${q}`)).deliveries;
	}

	/** Order-event endpoints (recovery subscriptions to the same URLs with `recovery: true`). */
	async webhooks(opts: { recovery?: boolean } = {}): Promise<Array<{ webhookId: string; url: string; partnerId: string; kind?: string; disabledAt?: string }>> {
		const all = (await call<{ webhooks: Array<{ webhookId: string; url: string; partnerId: string; kind?: string; disabledAt?: string }> }>(`${this.orch}/sandbox/webhooks`)).webhooks;
		return all.filter((w) => (w.kind === 'recovery') === (opts.recovery === true));
	}

	/** The secret of every order-event endpoint the sandbox issued, by URL (read in-process; never exposed over HTTP). */
	webhookSecrets(): Map<string, string> {
		return new Map(this.sb.orchestration.ctx.state.webhooks.filter((w) => w.kind !== 'recovery').map((w) => [w.url, w.secret]));
	}

	/** Every webhook secret the sandbox issued, recovery subscriptions included, by webhook ID. */
	allWebhookSecrets(): Map<string, string> {
		return new Map(this.sb.orchestration.ctx.state.webhooks.map((w) => [w.webhookId, w.secret]));
	}

	/** Every gateway access token the sandbox issued. */
	accessTokens(): string[] {
		return [...this.sb.gateway.state.tokens.keys()];
	}
}

export async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 120_000, everyMs = 500): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	while (Date.now() < deadline) {
		try {
			const v = await fn();
			if (v !== undefined && v !== false) return v as T;
		} catch (error) {
			last = error;
		}
		await new Promise((r) => setTimeout(r, everyMs));
	}
	throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}
