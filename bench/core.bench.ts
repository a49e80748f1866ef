/**
 * Protocol core throughput: webhook verifications per second next to a bare node:crypto HMAC loop
 * over the same payloads (goal: ratio >= 0.9), and canonical intent signatures per second. The bare
 * loop gets what the package's own verification has: its HMAC key built once (a KeyObject), not per
 * call. Rounds alternate the two (which one goes first too); the median and the spread are printed.
 */
import { createHmac, createSecretKey } from 'node:crypto';
import { computeWebhookSignature, verifyWebhookSignature } from '../nodes/shared/orchestration/webhooks';
import { signIntent } from '../nodes/shared/gateway/canonical';
import { type WireIntent } from '../nodes/shared/gateway/intentFields';
import { median, medianAndSpread } from './stats';

/** Envelopes shaped like the sandbox's order.completed deliveries (order snapshot of spec §2.10). */
function payloads(count: number): Buffer[] {
	const out: Buffer[] = [];
	for (let i = 0; i < count; i++) {
		const at = new Date(1_760_000_000_000 + i * 1000).toISOString();
		out.push(
			Buffer.from(
				JSON.stringify({
					event: 'order.completed',
					timestamp: at,
					data: {
						id: `ord_${i.toString(16).padStart(16, '0')}`,
						status: 'completed',
						quoteId: `q_${i.toString(16).padStart(16, '0')}`,
						createdAt: at,
						updatedAt: at,
						sourceChain: 'base',
						sourceAsset: 'USDC',
						destinationChain: 'bitcoin',
						destinationAsset: 'BTC',
						recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
						depositAddress: `0x${(i + 1).toString(16).padStart(40, '0')}`,
						amountIn: String(100_000_000 + i),
						estimatedOut: String(99_700 + i),
						amountOut: String(99_650 + i),
						feeAmount: '300000',
						feeAsset: 'USDC',
						feeBps: 30,
						payLinkId: null,
						zeroconfOffer: null,
						feePlan: { appFees: [{ recipient: '0x1111111111111111111111111111111111111111', feeBps: 25 }] },
						feePayouts: {
							entries: [
								{ role: 'app_fee', leg: 'full', amount: '250000', platformCutAmount: '50000', recipientAmount: '200000' },
								{ role: 'recipient_payout', leg: 'full', amount: String(99_650 + i), platformCutAmount: null, recipientAmount: null },
							],
						},
					},
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
	const key = createSecretKey(secret, 'utf8');
	const bareLoop = () =>
		opsPerSecond(n, (i) => {
			const b = bodies[i % bodies.length];
			createHmac('sha256', key).update(`${timestamp}.`).update(b).digest('hex');
		});
	const verifyLoop = () =>
		opsPerSecond(n, (i) => {
			const k = i % bodies.length;
			const r = verifyWebhookSignature({ secret, signature: signatures[k], timestamp, rawBody: bodies[k] });
			if (!r.ok) throw new Error('bench payload failed verification');
		});
	const rounds: Array<{ verify: number; bare: number }> = [];
	for (let round = 0; round < 7; round++) {
		// Alternate which loop goes first, so neither always runs on a warmer (or a more loaded) machine.
		if (round % 2 === 0) {
			const bare = bareLoop();
			rounds.push({ bare, verify: verifyLoop() });
		} else {
			const verify = verifyLoop();
			rounds.push({ verify, bare: bareLoop() });
		}
	}
	const ratios = rounds.map((r) => r.verify / r.bare);
	console.log(`payload: ${bodies[0].length} bytes (an order.completed envelope with fee payouts)`);
	console.log(`webhook verifications/s: ${medianAndSpread(rounds.map((r) => r.verify), 0)}`);
	console.log(`bare HMAC-SHA256/s:      ${medianAndSpread(rounds.map((r) => r.bare), 0)} (key built once, as the package does)`);
	console.log(`ratio per round (goal >= 0.9): ${medianAndSpread(ratios, 3)}; ratio of the medians ${(median(rounds.map((r) => r.verify)) / median(rounds.map((r) => r.bare))).toFixed(3)}`);

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
