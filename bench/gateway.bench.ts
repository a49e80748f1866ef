/**
 * Execution gateway: signed intents per second (canonical message, SHA-256, DER signature and the
 * wire body, as intent.execute does them), and the cost of one intent.execute round trip through
 * the node in the n8n-core harness against the sandbox gateway over HTTP.
 */
import { randomBytes } from 'node:crypto';

import { ExecutionGatewayApi } from '../credentials/ExecutionGatewayApi.credentials';
import type { ExecutionGateway as GatewayNode } from '../nodes/ExecutionGateway/ExecutionGateway.node';
import { serializeWireIntent, signIntent } from '../nodes/shared/gateway/canonical';
import { type WireIntent } from '../nodes/shared/gateway/intentFields';
import { signEip1559 } from '../nodes/shared/gateway/eip1559';
import { parsePrivateKey } from '../nodes/shared/gateway/keys';
import { startSandbox } from '../sandbox';
import { createHarness, executeNode } from '../test/harness/n8n';

// Under tsx, require('X.node') resolves the codex X.node.json before X.node.ts: name the file.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ExecutionGateway } = require('../nodes/ExecutionGateway/ExecutionGateway.node.ts') as { ExecutionGateway: typeof GatewayNode };

const EVM_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

function median(xs: number[]): number {
	const sorted = [...xs].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

function percentile(xs: number[], p: number): number {
	const sorted = [...xs].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** Signing throughput over `iterations` intents, median of 5 rounds. */
function signedPerSecond(intents: WireIntent[], priv: Uint8Array, iterations: number): number {
	const rounds: number[] = [];
	for (let round = 0; round < 5; round++) {
		const start = process.hrtime.bigint();
		for (let i = 0; i < iterations; i++) {
			const intent = intents[i % intents.length];
			const { signature } = signIntent(intent, priv);
			serializeWireIntent({ ...intent, signature });
		}
		rounds.push(iterations / (Number(process.hrtime.bigint() - start) / 1e9));
	}
	return median(rounds);
}

function depositIntents(count: number, chainId: number): WireIntent[] {
	return Array.from({ length: count }, (_, i) => ({
		chainId,
		deposits: [
			{ sparkTransferId: randomBytes(16).toString('hex'), asset: { type: 'btc' as const }, amount: String(10_000 + i) },
			{ sparkTransferId: randomBytes(32).toString('hex'), asset: { type: 'token' as const, tokenId: randomBytes(32).toString('hex') }, amount: '18446744073709551615' },
		],
		recipient: '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23',
		nonce: `bench-${i}`,
		expiresAt: Date.now() + 15 * 60_000,
	}));
}

export async function run(): Promise<void> {
	const sb = await startSandbox({ timeScale: 1000, quiet: true });
	try {
		const chainId = sb.keys.gateway.chainId;
		const privHex = sb.keys.gateway.privateKeys[0];
		const priv = parsePrivateKey(privHex);

		const deposits = depositIntents(256, chainId);
		const tx = signEip1559({ chainId, nonce: 0, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gasLimit: 100_000, to: `0x${'33'.repeat(20)}`, value: 0, data: '0x' }, EVM_KEY);
		const executes = deposits.map(({ recipient: _recipient, ...rest }) => ({ ...rest, evmTransaction: tx }));
		console.log(`signed deposit intents/s (2 transfers):   ${signedPerSecond(deposits, priv, 5000).toFixed(0)}`);
		console.log(`signed execute intents/s (with tx decode): ${signedPerSecond(executes, priv, 5000).toFixed(0)}`);

		// One intent.execute per node run, as a workflow with one item does it.
		const harness = createHarness({
			nodeType: new ExecutionGateway(),
			credentialTypes: [new ExecutionGatewayApi()],
			credentials: { executionGatewayApi: { gatewayUrl: sb.gatewayUrl, privateKey: privHex, accessToken: '', accessTokenPublicKey: '' } },
			parameters: {
				resource: 'intent',
				operation: 'execute',
				deposits: { deposit: [{ sparkTransferId: '={{ $json.id }}', assetType: 'btc', amount: '5000' }] },
				action: 'execute',
				evmTransaction: '={{ $json.tx }}',
				options: {},
			},
		});
		const runOnce = async (i: number): Promise<number> => {
			const evmTransaction = signEip1559({ chainId, nonce: i, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gasLimit: 100_000, to: `0x${'33'.repeat(20)}`, value: 0, data: '0x' }, EVM_KEY);
			const started = process.hrtime.bigint();
			const [out] = await executeNode(harness, [{ json: { id: randomBytes(16).toString('hex'), tx: evmTransaction } }]);
			const ms = Number(process.hrtime.bigint() - started) / 1e6;
			if (out[0].json.status !== 'ACCEPTED') throw new Error(`bench intent not accepted: ${JSON.stringify(out[0].json)}`);
			return ms;
		};
		const cold = await runOnce(0); // authenticates and loads network info
		for (let i = 1; i <= 10; i++) await runOnce(i);
		const samples: number[] = [];
		for (let i = 11; i < 111; i++) samples.push(await runOnce(i));
		console.log(`execute round trip, first (auth + network info): ${cold.toFixed(2)} ms`);
		console.log(`execute round trip, median of ${samples.length}: ${median(samples).toFixed(2)} ms (p90 ${percentile(samples, 0.9).toFixed(2)} ms)`);
	} finally {
		await sb.close();
	}
}
