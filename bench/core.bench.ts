/**
 * Protocol core throughput: webhook verifications per second next to a bare node:crypto HMAC loop
 * over the same payloads (goal: ratio >= 0.9), and canonical intent signatures per second.
 */
import { createHmac } from 'node:crypto';
import { computeWebhookSignature, verifyWebhookSignature } from '../nodes/shared/orchestration/webhooks';
import { signIntent, type WireIntent } from '../nodes/shared/gateway/canonical';

function payloads(count: number): Buffer[] {
	const out: Buffer[] = [];
	for (let i = 0; i < count; i++) {
		out.push(
			Buffer.from(
				JSON.stringify({
					event: 'order.completed',
					timestamp: new Date(1_760_000_000_000 + i).toISOString(),
					data: { id: `ord_${i}`, status: 'completed', updatedAt: String(1_760_000_000_000 + i), amountIn: String(100_000 + i), feeAmount: '300' },
				}),
			),
		);
	}
	return out;
}

function opsPerSecond(iterations: number, fn: (i: number) => void): number {
	for (let i = 0; i < Math.min(2000, iterations); i++) fn(i); // warm-up
	const start = process.hrtime.bigint();
	for (let i = 0; i < iterations; i++) fn(i);
	const ns = Number(process.hrtime.bigint() - start);
	return iterations / (ns / 1e9);
}

export async function run(): Promise<void> {
	const secret = 'whsec_bench_only_not_a_real_secret';
	const bodies = payloads(1000);
	const timestamp = String(Date.now());
	const signatures = bodies.map((b) => computeWebhookSignature(secret, timestamp, b));
	const n = 200_000;
	const rounds: Array<{ verify: number; bare: number }> = [];
	for (let round = 0; round < 5; round++) {
		const bare = opsPerSecond(n, (i) => {
			const b = bodies[i % bodies.length];
			createHmac('sha256', secret).update(`${timestamp}.`).update(b).digest('hex');
		});
		const verify = opsPerSecond(n, (i) => {
			const k = i % bodies.length;
			const r = verifyWebhookSignature({ secret, signature: signatures[k], timestamp, rawBody: bodies[k] });
			if (!r.ok) throw new Error('bench payload failed verification');
		});
		rounds.push({ verify, bare });
	}
	const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
	const verify = median(rounds.map((r) => r.verify));
	const bare = median(rounds.map((r) => r.bare));
	console.log(`webhook verifications/s: ${verify.toFixed(0)}`);
	console.log(`bare HMAC-SHA256/s:      ${bare.toFixed(0)}`);
	console.log(`ratio (goal >= 0.9):     ${(verify / bare).toFixed(3)}`);

	const priv = '11'.repeat(32);
	const intent = (i: number): WireIntent => ({
		chainId: 3637,
		deposits: [{ sparkTransferId: (i.toString(16).padStart(8, '0') + 'ab'.repeat(12)).slice(0, 32), asset: { type: 'btc' }, amount: '150000' }],
		recipient: '0x' + '22'.repeat(20),
		nonce: `bench-${i}`,
		expiresAt: 1_900_000_000_000,
	});
	const sigs = opsPerSecond(3000, (i) => {
		signIntent(intent(i), priv);
	});
	console.log(`intent signatures/s (canonical + SHA-256 + DER): ${sigs.toFixed(0)}`);
}
