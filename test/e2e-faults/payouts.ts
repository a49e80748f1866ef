/**
 * The fault cases' events, each the payout of a team that keeps a ledger: a quote under the payout
 * reference, its ledger row written (example 1: `quoted`), then the wallet pays it (`autoAdvance:
 * false`: the order is created, one `order.processing` goes to every endpoint, and it stays put).
 * The ledger thus knows every order's quote before any event of it flows.
 */
import { randomUUID } from 'node:crypto';
import type { Sandbox } from '../../sandbox';
import { pickSandboxKeys } from '../../scripts/lib/examples';
import { deliveriesInFlight, pool, type EmitOptions } from '../e2e-queue/events';
import type { Ledger } from './ledger';

async function call<T>(url: string, init: RequestInit): Promise<T> {
	const res = await fetch(url, init);
	const text = await res.text();
	if (res.status >= 400) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text}`);
	return JSON.parse(text) as T;
}

/** One payout: quote (idempotency key = the payout reference), ledger row, deposit; the order's ID. */
export async function payOne(sb: Sandbox, ledger: Ledger, payoutId: string): Promise<string> {
	const { server } = pickSandboxKeys(sb);
	const quote = await call<{ quoteId: string; depositAddress: string; amountIn: string }>(`${sb.orchestrationUrl}/v1/orchestration/quote`, {
		method: 'POST',
		headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json', 'x-idempotency-key': payoutId },
		body: JSON.stringify({
			sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'bitcoin', destinationAsset: 'BTC',
			amount: '40000000', recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
		}),
	});
	ledger.quoted(payoutId, quote.quoteId);
	const paid = await call<{ orderId: string }>(`${sb.orchestrationUrl}/sandbox/deposits`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ depositAddress: quote.depositAddress, amount: quote.amountIn, autoAdvance: false }),
	});
	return paid.orderId;
}

/** `count` payouts paced like the service's events (emitEvents' options); the orders' IDs. */
export async function payMany(sb: Sandbox, ledger: Ledger, count: number, opts: EmitOptions = {}): Promise<string[]> {
	const { maxInFlight = 8, perSecond, timeoutMs = 240_000, held = () => false } = opts;
	const deadline = Date.now() + timeoutMs;
	const run = randomUUID().slice(0, 8);
	let nextAt = Date.now();
	const ids = await pool(Array.from({ length: count }, (_, i) => i), 4, async (i) => {
		while ((held() || deliveriesInFlight(sb) >= maxInFlight || Date.now() < nextAt) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
		if (perSecond !== undefined) nextAt = Math.max(nextAt, Date.now()) + 1000 / perSecond;
		return Date.now() < deadline ? await payOne(sb, ledger, `fault-${run}-${i}`) : undefined;
	});
	return ids.filter((id): id is string => id !== undefined);
}
